internal import Foundation
internal import TextSafety

/// One piece of an XML or HTML document.
enum MarkupToken: Sendable, Equatable {
    /// An opening tag; names are lower-cased, prefixes kept (`epub:type`).
    case start(name: String, attributes: [MarkupAttribute], selfClosing: Bool)
    /// A closing tag.
    case end(name: String)
    /// Character data with entities decoded.
    case text(String)
}

/// One attribute of a tag, its value with entities decoded.
struct MarkupAttribute: Sendable, Equatable {
    let name: String
    let value: String
}

/// A forgiving tokenizer for XHTML, HTML that is not well-formed XML, and the package's XML files.
///
/// It never fails: stray `<` and `&` are text, unclosed tags end at the end of input, and an
/// undefined entity stays as literal text. Entities declared in a DOCTYPE's internal subset are
/// honoured only when they are plain internal text; `SYSTEM` and `PUBLIC` entities are never
/// resolved, so a book cannot make the reader read a local file. Replacement text is not
/// re-expanded, so a "billion laughs" declaration expands once.
struct MarkupTokenizer {
    private let bytes: [UInt8]
    private var position = 0
    private var declaredEntities: [String: String] = [:]
    /// Set after `<script>` or `<style>` so their content is skipped rather than parsed.
    private var rawTextEnd: [UInt8]?
    /// Whether a `<style>` element's text is returned (as it is, not decoded) rather than skipped:
    /// the content converter reads a chapter's own CSS.
    var returnsStyleText = false

    /// Creates a tokenizer over a document's bytes, decoding UTF-16 and Latin-1 to UTF-8 first.
    init(bytes: [UInt8]) {
        self.bytes = MarkupTokenizer.utf8(from: bytes)
    }

    /// Creates a tokenizer over a string.
    init(_ text: String) {
        self.bytes = Array(text.utf8)
    }

    /// All tokens at once.
    mutating func tokens() -> [MarkupToken] {
        var result: [MarkupToken] = []
        while let token = next() { result.append(token) }
        return result
    }

    /// The next token, or `nil` at the end.
    mutating func next() -> MarkupToken? {
        while position < bytes.count {
            if let end = rawTextEnd {
                rawTextEnd = nil
                let start = position
                skipRawText(until: end)
                if returnsStyleText, end == Self.styleEnd, position > start {
                    return .text(Self.string(bytes[start..<position]))
                }
                continue
            }
            if bytes[position] != UInt8(ascii: "<") {
                return readText()
            }
            let after = position + 1 < bytes.count ? bytes[position + 1] : 0
            if after == UInt8(ascii: "/") {
                if let token = readEndTag() { return token }
            } else if after == UInt8(ascii: "!") {
                if let text = readBang() { return text }
                continue
            } else if after == UInt8(ascii: "?") {
                skip(past: Array("?>".utf8))
                continue
            } else if Self.isNameStart(after) {
                if let token = readStartTag() { return token }
            } else {
                position += 1
                return .text("<")
            }
        }
        return nil
    }

    // MARK: - Pieces

    private mutating func readText() -> MarkupToken {
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
        return .text(decode(bytes[start..<position]))
    }

    private mutating func readStartTag() -> MarkupToken? {
        let tagStart = position
        position += 1
        let name = readName()
        var attributes: [MarkupAttribute] = []
        var selfClosing = false
        while position < bytes.count {
            skipSpace()
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: ">") { position += 1; break }
            if byte == UInt8(ascii: "/") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: ">") {
                    selfClosing = true; position += 1; break
                }
                continue
            }
            if byte == UInt8(ascii: "<") { break }  // an unclosed tag: let the next tag start here
            let attributeName = readName()
            if attributeName.isEmpty { position += 1; continue }
            skipSpace()
            var value = ""
            if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                position += 1
                skipSpace()
                value = readAttributeValue()
            }
            attributes.append(MarkupAttribute(name: attributeName, value: value))
        }
        if name.isEmpty { position = tagStart + 1; return .text("<") }
        if !selfClosing, name == "script" || name == "style" {
            rawTextEnd = name == "style" ? Self.styleEnd : Array("</\(name)".utf8)
        }
        return .start(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    private mutating func readEndTag() -> MarkupToken? {
        position += 2
        let name = readName()
        skip(past: [UInt8(ascii: ">")])
        return name.isEmpty ? nil : .end(name: name)
    }

    /// Comments, CDATA and DOCTYPE. Returns CDATA as text, skips the rest.
    private mutating func readBang() -> MarkupToken? {
        if matches("<!--") {
            position += 4
            skip(past: Array("-->".utf8))
            return nil
        }
        if matches("<![CDATA[") {
            position += 9
            let start = position
            let end = find(Array("]]>".utf8)) ?? bytes.count
            position = min(bytes.count, end + 3)
            return .text(Self.string(bytes[start..<end]))
        }
        // DOCTYPE or another declaration: read to the matching `>`, minding an internal subset.
        position += 2
        let start = position
        var depth = 0
        var quote: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if byte == UInt8(ascii: ">"), depth == 0 {
                break
            }
            position += 1
        }
        let declaration = bytes[start..<min(position, bytes.count)]
        position = min(bytes.count, position + 1)
        readEntityDeclarations(in: declaration)
        return nil
    }

    /// Records `<!ENTITY name "text">` from an internal subset; external entities are ignored.
    private mutating func readEntityDeclarations(in declaration: ArraySlice<UInt8>) {
        let text = String(decoding: declaration, as: UTF8.self)
        guard text.contains("<!ENTITY") else { return }
        for piece in text.components(separatedBy: "<!ENTITY").dropFirst() {
            let body = piece.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            if body.hasPrefix("%") { continue }
            let name = String(body.prefix(while: { !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r") }))
            let rest = body.dropFirst(name.count).drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            guard let quote = rest.first, quote == "\"" || quote == "'" else { continue }  // SYSTEM/PUBLIC
            let value = rest.dropFirst().prefix(while: { $0 != quote })
            if !name.isEmpty, declaredEntities[name] == nil, value.count <= 4096 {
                // Decoded once with the built-in table only: no nesting, no expansion blow-up.
                let inner = MarkupTokenizer("")
                declaredEntities[name] = inner.decode(ArraySlice(Array(value.utf8)))
            }
        }
    }

    private static let styleEnd = Array("</style".utf8)

    private mutating func skipRawText(until end: [UInt8]) {
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "<"), matchesCaseInsensitive(end) { return }
            position += 1
        }
    }

    // MARK: - Low level

    private mutating func readName() -> String {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte <= 0x20 || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
                || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
            {
                break
            }
            position += 1
        }
        if !bytes[start..<position].contains(where: { $0 >= 65 && $0 <= 90 }) {
            return Self.string(bytes[start..<position])
        }
        var nameBytes = Array(bytes[start..<position])
        for index in nameBytes.indices where nameBytes[index] >= 65 && nameBytes[index] <= 90 { nameBytes[index] += 32 }
        return String(decoding: nameBytes, as: UTF8.self)
    }

    private mutating func readAttributeValue() -> String {
        guard position < bytes.count else { return "" }
        let quote = bytes[position]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            position += 1
            let start = position
            while position < bytes.count, bytes[position] != quote { position += 1 }
            let value = decode(bytes[start..<position])
            position = min(bytes.count, position + 1)
            return value
        }
        let start = position
        while position < bytes.count, bytes[position] > 0x20, bytes[position] != UInt8(ascii: ">") {
            if bytes[position] == UInt8(ascii: "/"), position + 1 < bytes.count,
                bytes[position + 1] == UInt8(ascii: ">")
            {
                break
            }
            position += 1
        }
        return decode(bytes[start..<position])
    }

    private mutating func skipSpace() {
        while position < bytes.count, bytes[position] <= 0x20 { position += 1 }
    }

    private mutating func skip(past marker: [UInt8]) {
        if let found = find(marker) { position = found + marker.count } else { position = bytes.count }
    }

    private func find(_ marker: [UInt8]) -> Int? {
        var index = position
        let last = bytes.count - marker.count
        while index <= last {
            if bytes[index] == marker[0] {
                var matched = true
                for offset in 1..<marker.count where bytes[index + offset] != marker[offset] { matched = false; break }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }

    private func matches(_ literal: String) -> Bool {
        let marker = Array(literal.utf8)
        guard position + marker.count <= bytes.count else { return false }
        for offset in 0..<marker.count where bytes[position + offset] != marker[offset] { return false }
        return true
    }

    private func matchesCaseInsensitive(_ marker: [UInt8]) -> Bool {
        guard position + marker.count <= bytes.count else { return false }
        for offset in 0..<marker.count where bytes[position + offset] | 0x20 != marker[offset] | 0x20 { return false }
        return true
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 97 && (byte | 0x20) <= 122 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            || byte >= 0x80
    }

    /// Text with entity references replaced (an unknown entity is kept literally), made safe to
    /// draw: this is where a book's words enter bok, so the controls a hostile book carries
    /// (raw, or as `&#27;`, which XML forbids but a forgiving reader still decodes) become
    /// visible stand-ins here, once, for pages, metadata, the TOC and notes alike (``SafeText``).
    func decode(_ slice: ArraySlice<UInt8>) -> String {
        SafeText.text(decodeEntities(slice))
    }

    private func decodeEntities(_ slice: ArraySlice<UInt8>) -> String {
        guard slice.contains(UInt8(ascii: "&")) else { return Self.string(slice) }
        var out = ""
        out.reserveCapacity(slice.count)
        var index = slice.startIndex
        var runStart = index
        while index < slice.endIndex {
            guard slice[index] == UInt8(ascii: "&") else { index += 1; continue }
            var semicolon = index + 1
            let limit = min(slice.endIndex, index + 34)
            while semicolon < limit, slice[semicolon] != UInt8(ascii: ";"), slice[semicolon] != UInt8(ascii: "&"),
                slice[semicolon] > 0x20
            { semicolon += 1 }
            guard semicolon < limit, slice[semicolon] == UInt8(ascii: ";"), semicolon > index + 1 else {
                index += 1; continue
            }
            let name = String(decoding: slice[(index + 1)..<semicolon], as: UTF8.self)
            let replacement: String?
            if name.hasPrefix("#") {
                replacement = Self.numericReference(name.dropFirst())
            } else {
                replacement = HTMLEntities.table[name].map { String(Character($0)) } ?? declaredEntities[name]
            }
            if let replacement {
                out += Self.string(slice[runStart..<index])
                out += replacement
                index = semicolon + 1
                runStart = index
            } else {
                index += 1
            }
        }
        out += Self.string(slice[runStart..<slice.endIndex])
        return out
    }

    /// UTF-8 bytes to a string through contiguous storage (the generic path is several times slower).
    static func string(_ slice: ArraySlice<UInt8>) -> String {
        slice.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    private static func numericReference(_ digits: Substring) -> String? {
        let value: UInt32?
        if let first = digits.first, first == "x" || first == "X" {
            value = UInt32(digits.dropFirst(), radix: 16)
        } else {
            value = UInt32(digits, radix: 10)
        }
        guard let value else { return nil }
        // Windows-1252 numbers as HTML parsers treat them (&#151; is an em dash in old books).
        if (0x80...0x9F).contains(value), let mapped = HTMLEntities.windows1252[value] {
            return String(Character(mapped))
        }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return String(Character(scalar))
    }

    /// Converts UTF-16 (by byte-order mark) and declared Latin-1 to UTF-8; strips a UTF-8 BOM.
    static func utf8(from bytes: [UInt8]) -> [UInt8] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let little = bytes[0] == 0xFF
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = 2
            while index + 1 < bytes.count {
                units.append(
                    little
                        ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
                        : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            return Array(String(decoding: units, as: UTF16.self).utf8)
        }
        if bytes.starts(with: Array("<?xml".utf8)) {
            let declaration = String(
                decoding: bytes.prefix(200).prefix(while: { $0 != UInt8(ascii: ">") }), as: UTF8.self
            ).lowercased()
            if declaration.contains("iso-8859-1") || declaration.contains("windows-1252")
                || declaration.contains("latin1")
            {
                var out: [UInt8] = []
                out.reserveCapacity(bytes.count)
                for byte in bytes {
                    if byte < 0x80 { out.append(byte); continue }
                    let scalar =
                        (0x80...0x9F).contains(byte)
                        ? (HTMLEntities.windows1252[UInt32(byte)] ?? Unicode.Scalar(byte))
                        : Unicode.Scalar(byte)
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                }
                return out
            }
        }
        return bytes
    }
}
