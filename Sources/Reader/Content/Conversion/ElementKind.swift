/// What an element does to the text, looked up once per tag (string switches were the
/// converter's hottest code).
enum ElementKind: Equatable {
    case block, aside, blockquote
    case heading(Int)
    case pre
    case list(ordered: Bool)
    case listItem, definition, tableRow
    case
        tableCell(header: Bool)
    case tableGroup, lineBreak, rule, image, emphasis, strong, code, superscript,
        `subscript`, anchor, head, title, raw, svg, quotation, rubyText, notShown, frame, other

    /// The kind of the element with this (lower-cased) name; `other` for one that only holds text.
    init(name: String) {
        self = Self.kinds[name] ?? .other
    }

    /// Whether the element holds blocks: a paragraph in it reads the way it (or the nearest such
    /// element around it) declares with `dir`.
    var holdsBlocks: Bool {
        switch self {
        case .block, .aside, .blockquote, .heading, .pre, .list, .listItem, .definition, .tableRow, .tableGroup:
            return true
        default:
            return false
        }
    }

    private static let kinds: [String: ElementKind] = {
        var kinds: [String: ElementKind] = [:]
        for name in [
            "p", "div", "section", "article", "main", "header", "footer", "nav", "figure", "figcaption",
            "address", "center", "hgroup", "details", "summary", "fieldset", "legend", "body", "html",
            "caption", "dt", "noscript", "form",
        ] { kinds[name] = .block }
        for level in 1...6 { kinds["h\(level)"] = .heading(level) }
        for name in ["em", "i", "cite", "dfn", "var"] { kinds[name] = .emphasis }
        for name in ["strong", "b"] { kinds[name] = .strong }
        for name in ["code", "kbd", "samp", "tt"] { kinds[name] = .code }
        for name in ["ul", "menu", "dir"] { kinds[name] = .list(ordered: false) }
        for name in ["table", "thead", "tbody", "tfoot"] { kinds[name] = .tableGroup }
        for name in ["script", "style", "template"] { kinds[name] = .raw }
        kinds["ol"] = .list(ordered: true)
        kinds["aside"] = .aside
        kinds["blockquote"] = .blockquote
        kinds["pre"] = .pre
        kinds["li"] = .listItem
        kinds["dd"] = .definition
        kinds["tr"] = .tableRow
        kinds["td"] = .tableCell(header: false)
        kinds["th"] = .tableCell(header: true)
        kinds["br"] = .lineBreak
        kinds["hr"] = .rule
        kinds["img"] = .image
        kinds["image"] = .image
        kinds["sup"] = .superscript
        kinds["sub"] = .subscript
        kinds["a"] = .anchor
        kinds["head"] = .head
        kinds["title"] = .title
        kinds["svg"] = .svg
        kinds["q"] = .quotation
        kinds["rt"] = .rubyText
        // A ruby's own parentheses: the reading gets bok's (see `rubyText`).
        kinds["rp"] = .notShown
        kinds["iframe"] = .frame
        // `<epub:switch>` is deprecated; its `<epub:default>` is shown and its cases are not.
        kinds["epub:switch"] = .block
        kinds["epub:default"] = .block
        kinds["epub:case"] = .notShown
        return kinds
    }()
}
