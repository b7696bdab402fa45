import Markup

extension Array where Element == MarkupAttribute {
    /// The value of the attribute with this exact (lower-cased) name.
    func value(of name: String) -> String? {
        first(where: { $0.name == name })?.value
    }
}
