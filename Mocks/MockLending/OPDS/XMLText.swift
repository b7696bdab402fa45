/// Builds an XML document as text: elements, attributes and character data, every value escaped.
///
/// The catalogue's words are not ours to trust (titles carry `&`, `<` and quotes, and the
/// hostile seeds carry terminal control codes), so every value goes through ``escaped(_:attribute:)``:
/// the five markup characters become entities, and characters XML 1.0 cannot carry at all, even
/// as a reference (C0 controls other than tab and line ends, U+FFFE, U+FFFF), become U+FFFD.
struct XMLText: Sendable {
    private(set) var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"

    /// Opens `name` with `attributes` (a nil value leaves the attribute out).
    mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:]) {
        text += "<" + name
        append(attributes)
        text += ">"
    }

    /// Closes `name`.
    mutating func close(_ name: String) {
        text += "</" + name + ">\n"
    }

    /// An element with text content, or empty when `content` is nil.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String?> = [:], _ content: String?) {
        text += "<" + name
        append(attributes)
        if let content {
            text += ">" + Self.escaped(content) + "</" + name + ">\n"
        } else {
            text += "/>\n"
        }
    }

    /// An element with text content and no attributes.
    mutating func element(_ name: String, _ content: String) { element(name, [:], content) }

    /// An element with no content.
    mutating func empty(_ name: String, _ attributes: KeyValuePairs<String, String?>) {
        element(name, attributes, nil)
    }

    private mutating func append(_ attributes: KeyValuePairs<String, String?>) {
        for (key, value) in attributes {
            guard let value else { continue }
            text += " " + key + "=\"" + Self.escaped(value, attribute: true) + "\""
        }
    }

    /// `value` as XML character data (or an attribute value in double quotes).
    static func escaped(_ value: String, attribute: Bool = false) -> String {
        // Most words need nothing: keep them as they are.
        if !value.unicodeScalars.contains(where: { needsWork($0, attribute: attribute) }) { return value }
        var out = ""
        out.unicodeScalars.reserveCapacity(value.unicodeScalars.count + 16)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            // In an attribute a line end or tab would be read back as a space; keep them as references.
            case "\n" where attribute: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t" where attribute: out += "&#9;"
            default: out.unicodeScalars.append(allowed(scalar) ? scalar : "\u{FFFD}")
            }
        }
        return out
    }

    private static func needsWork(_ scalar: Unicode.Scalar, attribute: Bool) -> Bool {
        switch scalar {
        case "&", "<", ">", "\r": true
        case "\"", "\n", "\t": attribute
        default: !allowed(scalar)
        }
    }

    /// XML 1.0's `Char` production.
    private static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
