import Markup

/// An SVG drawing inline in a chapter, written back out as a document of its own for librsvg
/// to draw (as a `data:` picture).
///
/// The chapter was read as HTML, which lower-cases names; SVG's are case-sensitive (`viewBox`,
/// `linearGradient`), so its mixed-case names are put back from HTML's own table of them
/// (HTML Living Standard, "adjust SVG attributes" and the SVG tag names of the tree builder).
/// The SVG and XLink namespaces are declared on the root when the chapter declared them higher up.
enum SVGSource {
    static let namespace = "http://www.w3.org/2000/svg"
    static let xlink = "http://www.w3.org/1999/xlink"

    /// The drawing as an SVG document, or nil when it draws nothing (no element inside it but
    /// its title, description and metadata).
    static func document(_ root: MarkupElement) -> String? {
        guard root.children.contains(where: { !["title", "desc", "metadata"].contains($0.localName) }) else {
            return nil
        }
        var out = ""
        write(root, isRoot: true, into: &out)
        return out
    }

    /// The words the drawing shows (its `<text>`), not its stylesheet's or script's.
    static func words(_ root: MarkupElement) -> String {
        var pieces: [String] = []
        func gather(_ element: MarkupElement) {
            guard element.localName != "style", element.localName != "script" else { return }
            for piece in element.content {
                switch piece {
                case .text(let text): pieces.append(text)
                case .element(let child): gather(child)
                }
            }
        }
        gather(root)
        return pieces.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func write(_ element: MarkupElement, isRoot: Bool, into out: inout String) {
        let name = restored(element.name, from: elementNames)
        out += "<" + name
        var declared = Set<String>()
        for attribute in element.attributes {
            let attributeName = restored(attribute.name, from: attributeNames)
            declared.insert(attributeName)
            out += " \(attributeName)=\"\(escaped(attribute.value, quotes: true))\""
        }
        if isRoot {
            let prefix = name.split(separator: ":").dropLast().first.map { "xmlns:\($0)" } ?? "xmlns"
            if !declared.contains(prefix) { out += " \(prefix)=\"\(namespace)\"" }
            if !declared.contains("xmlns:xlink") { out += " xmlns:xlink=\"\(xlink)\"" }
        }
        guard !element.content.isEmpty else {
            out += "/>"
            return
        }
        out += ">"
        let isStyle = element.localName == "style"
        for piece in element.content {
            switch piece {
            case .element(let child): write(child, isRoot: false, into: &out)
            case .text(let text) where isStyle:
                // A stylesheet comes as written: inside CDATA already, or put there.
                out +=
                    text.contains("<![CDATA[")
                    ? text : "<![CDATA[" + text.replacing("]]>", with: "]]]]><![CDATA[>") + "]]>"
            case .text(let text): out += escaped(text, quotes: false)
            }
        }
        out += "</\(name)>"
    }

    /// `name` with its local part's case put back, its prefix kept.
    private static func restored(_ name: String, from table: [String: String]) -> String {
        guard let colon = name.lastIndex(of: ":") else { return table[name] ?? name }
        let local = String(name[name.index(after: colon)...])
        return String(name[...colon]) + (table[local] ?? local)
    }

    private static func escaped(_ text: String, quotes: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// SVG's mixed-case element names, by their lower-case form.
    static let elementNames: [String: String] = Dictionary(
        uniqueKeysWithValues: [
            "altGlyph", "altGlyphDef", "altGlyphItem", "animateColor", "animateMotion", "animateTransform",
            "clipPath", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix",
            "feDiffuseLighting", "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA",
            "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur", "feImage", "feMerge", "feMergeNode", "feMorphology",
            "feOffset", "fePointLight", "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence",
            "foreignObject", "glyphRef", "linearGradient", "radialGradient", "textPath",
        ].map { ($0.lowercased(), $0) })

    /// SVG's mixed-case attribute names, by their lower-case form.
    static let attributeNames: [String: String] = Dictionary(
        uniqueKeysWithValues: [
            "attributeName", "attributeType", "baseFrequency", "baseProfile", "calcMode", "clipPathUnits",
            "diffuseConstant", "edgeMode", "filterUnits", "glyphRef", "gradientTransform", "gradientUnits",
            "kernelMatrix", "kernelUnitLength", "keyPoints", "keySplines", "keyTimes", "lengthAdjust",
            "limitingConeAngle", "markerHeight", "markerUnits", "markerWidth", "maskContentUnits", "maskUnits",
            "numOctaves", "pathLength", "patternContentUnits", "patternTransform", "patternUnits", "pointsAtX",
            "pointsAtY", "pointsAtZ", "preserveAlpha", "preserveAspectRatio", "primitiveUnits", "refX", "refY",
            "repeatCount", "repeatDur", "requiredExtensions", "requiredFeatures", "specularConstant",
            "specularExponent", "spreadMethod", "startOffset", "stdDeviation", "stitchTiles", "surfaceScale",
            "systemLanguage", "tableValues", "targetX", "targetY", "textLength", "viewBox", "viewTarget",
            "xChannelSelector", "yChannelSelector", "zoomAndPan",
        ].map { ($0.lowercased(), $0) })
}
