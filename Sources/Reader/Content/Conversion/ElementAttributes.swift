import Markup

/// What an element's attributes say about how it is shown, read once as it opens: its classes,
/// inline style and semantic types (`epub:type`, `role`). Most tags have no attributes, and then
/// nothing is read.
struct ElementAttributes {
    let all: [MarkupAttribute]
    private(set) var classes: [Substring] = []
    private(set) var inlineStyle: [String: String] = [:]
    private(set) var types: [Substring] = []

    init(_ attributes: [MarkupAttribute]) {
        all = attributes
        guard !attributes.isEmpty else { return }
        classes = attributes.value(of: "class")?.split(separator: " ") ?? []
        inlineStyle = attributes.value(of: "style").map { BookStyles.declarations(Substring($0)) } ?? [:]
        types =
            (attributes.value(of: "epub:type") ?? "").split(separator: " ")
            + (attributes.value(of: "role") ?? "").split(separator: " ")
    }

    var isEmpty: Bool { all.isEmpty }

    func value(of name: String) -> String? { all.value(of: name) }

    /// The language the element declares (`xml:lang`, else `lang`).
    var language: String? { value(of: "xml:lang") ?? value(of: "lang") }

    /// Whether the element is not shown: `hidden`, hidden by its inline style, its class or its
    /// `id` in the book's stylesheets, or a page-break marker.
    func hides(by styles: BookStyles) -> Bool {
        guard !all.isEmpty else { return false }
        if all.contains(where: { $0.name == "hidden" }) || BookStyles.hides(inlineStyle)
            || classes.contains(where: { styles.hiddenClasses.contains(String($0)) })
            || types.contains(where: { $0.hasSuffix("pagebreak") })
        {
            return true
        }
        guard !styles.hiddenIDs.isEmpty, let id = value(of: "id") else { return false }
        return styles.hiddenIDs.contains(id)
    }

    /// Whether the element is a footnote, endnote or rear note.
    var isNoteContainer: Bool {
        types.contains { $0.hasSuffix("footnote") || $0.hasSuffix("endnote") || $0.hasSuffix("rearnote") }
    }

    /// Whether the element is a reference to a note (`epub:type="noteref"`).
    var isNoteReference: Bool { types.contains(where: { $0.hasSuffix("noteref") }) }

    /// Whether the element is floated or positioned out of the text, by its style or its class.
    func isOutOfFlow(by styles: BookStyles) -> Bool {
        !all.isEmpty
            && (BookStyles.outOfFlow(inlineStyle) || classes.contains { styles.marginClasses.contains(String($0)) })
    }

    /// `style` with what the element's inline style, classes and `dir` add: italic, bold, small
    /// caps, a direction.
    func styled(_ style: InlineStyle, by styles: BookStyles, element name: String) -> InlineStyle {
        // The stylesheets' rules for the element's name (`h1 { text-transform: uppercase }`), then
        // for its classes, then its own `style`: the more particular wins.
        var style = style
        if !styles.elementRules.isEmpty, let rules = styles.elementRules[name] { style = rules.applied(to: style) }
        guard !all.isEmpty else { return style }
        if inlineStyle["font-style"] == "italic"
            || classes.contains(where: { styles.italicClasses.contains(String($0)) })
        {
            style.insert(.emphasis)
        }
        if let weight = inlineStyle["font-weight"], weight == "bold" || (Int(weight) ?? 0) >= 600 {
            style.insert(.strong)
        }
        if classes.contains(where: { styles.boldClasses.contains(String($0)) }) { style.insert(.strong) }
        if inlineStyle["font-variant"] == "small-caps"
            || classes.contains(where: {
                styles.smallCapsClasses.contains(String($0)) || $0 == "smallcaps" || $0 == "small-caps" || $0 == "sc"
            })
        {
            style.insert(.smallCaps)
        }
        if !styles.classRules.isEmpty {
            for name in classes { if let rules = styles.classRules[String(name)] { style = rules.applied(to: style) } }
        }
        if !inlineStyle.isEmpty { style = TextRules(inlineStyle).applied(to: style) }
        if let dir = value(of: "dir")?.lowercased() { style = Self.directed(style, dir: dir, element: name) }
        return style
    }

    /// `style` in the direction `dir` declares.
    private static func directed(_ style: InlineStyle, dir: String, element name: String) -> InlineStyle {
        var style = style
        if dir == "rtl" {
            style.insert(.rightToLeft)
            style.remove(.leftToRight)
        } else if dir == "ltr" {
            style.insert(.leftToRight)
            style.remove(.rightToLeft)
        } else if dir.filter({ !$0.isWhitespace }) == "auto" {
            // Not the direction around it: its own first strong letter's (HTML's dir=auto).
            style.remove([.rightToLeft, .leftToRight])
        }
        // `<bdo>` sets its letters in its direction, whatever theirs (HTML's bidi-override);
        // `dir` on an element inside it starts an ordinary passage again.
        if name == "bdo", dir == "rtl" || dir == "ltr" {
            style.insert(.directionOverride)
        } else {
            style.remove(.directionOverride)
        }
        return style
    }
}
