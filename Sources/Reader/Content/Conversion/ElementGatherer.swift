import Markup

/// Markup gathered whole before it is shown, as its words or its picture rather than token by
/// token: MathML (see ``MathLinearizer``), SVG, and an `<object>` that embeds a picture.
struct ElementGatherer {
    /// The element being gathered and its open descendants, innermost last.
    private var stack: [MarkupElement] = []
    /// Nesting is capped so that a hostile book cannot make the recursive linear form of MathML
    /// overflow the stack; deeper elements' text joins their ancestor's.
    private static let depthLimit = 64

    /// Whether an element is being gathered.
    var isGathering: Bool { !stack.isEmpty }

    /// Whether an element with this start tag is gathered whole.
    static func gathers(_ name: String, _ attributes: [MarkupAttribute]) -> Bool {
        name == "math" || name.hasSuffix(":math") || name == "svg" || name.hasSuffix(":svg")
            || (name == "object" && showsPicture(attributes))
    }

    /// Starts gathering an element.
    mutating func begin(_ name: String, _ attributes: [MarkupAttribute]) {
        stack = [MarkupElement(name: name, attributes: attributes)]
    }

    /// Adds a token inside the element; whether it ended the element.
    mutating func take(_ token: MarkupToken) -> Bool {
        switch token {
        case .start(let name, let attributes, let selfClosing):
            let element = MarkupElement(name: name, attributes: attributes)
            stack[stack.count - 1].append(element)
            if !selfClosing, stack.count < Self.depthLimit { stack.append(element) }
        case .end(let name):
            guard let index = stack.lastIndex(where: { $0.name == name }) else { return false }
            if index == 0 { return true }
            stack.removeSubrange(index...)
        case .text(let text):
            stack[stack.count - 1].append(text: text)
        }
        return false
    }

    /// The gathered element, ended here; nil when none is being gathered.
    mutating func finish() -> MarkupElement? {
        defer { stack = [] }
        return stack.first
    }

    /// Whether an `<object>` embeds a picture (its `type`, else its file's extension says so): it
    /// is shown as one, and what it holds is the picture's description, as for `alt`.
    private static func showsPicture(_ attributes: [MarkupAttribute]) -> Bool {
        guard let data = attributes.value(of: "data")?.trimmed, !data.isEmpty else { return false }
        if let type = attributes.value(of: "type")?.trimmed.lowercased() {
            return type.hasPrefix("image/")
        }
        let lower = data.lowercased()
        return [".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg"].contains { lower.hasSuffix($0) }
            || lower.hasPrefix("data:image/")
    }
}
