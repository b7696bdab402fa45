internal import Foundation
internal import TextSafety

/// One piece of an XML or HTML document.
package enum MarkupToken: Sendable, Equatable {
    /// An opening tag; names are lower-cased (for HTML), prefixes kept (`epub:type`).
    case start(name: String, attributes: [MarkupAttribute], selfClosing: Bool)
    /// A closing tag.
    case end(name: String)
    /// Character data with entities decoded.
    case text(String)
}

/// One attribute of a tag, its value with entities decoded.
package struct MarkupAttribute: Sendable, Equatable {
    package let name: String
    package let value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A forgiving tokenizer for XHTML, HTML that is not well-formed XML, and the package's XML files.
///
/// It never fails: stray `<` and `&` are text, unclosed tags end at the end of input, and an
/// undefined entity stays as literal text. Entities declared in a DOCTYPE's internal subset are
/// honoured only when they are plain internal text; `SYSTEM` and `PUBLIC` entities are never
/// resolved, so a book cannot make the reader read a local file. Replacement text is not
/// re-expanded, so a "billion laughs" declaration expands once, and all the text declared
/// entities add to a document is capped (``maxEntityExpansion``), so neither can a document that
/// refers to one long entity a million times.
///
/// With ``Syntax/xml`` (the catalogue's Atom feeds) it reads XML as XML: names keep their case,
/// only XML's own five entities and the declared ones are known, references follow XML's rules,
/// and text comes as written (the caller makes it safe to draw). It still reads on after what is
/// not well-formed, but says so in ``isWellFormed``, which a strict reader checks after each token.
package struct MarkupTokenizer {
    /// How a document is read.
    package enum Syntax: Sendable {
        /// A book's XHTML or HTML, forgivingly: names lower-cased, HTML's named entities, the
        /// content of `script` and `style` skipped, text made safe to draw (``SafeText``).
        case html
        /// XML as it is written: case kept, XML's entities only, text as written.
        case xml
    }

    private let bytes: [UInt8]
    private let syntax: Syntax
    private var position = 0
    private var declaredEntities: [String: String] = [:]
    /// Entities declared `SYSTEM` or `PUBLIC`: XML names them well-formed, bok never reads them.
    private var externalEntities: Set<String> = []
    /// Bytes of declared entities' text put into the document so far (see ``maxEntityExpansion``).
    private var entityExpansion = 0
    /// Set after `<script>` or `<style>` so their content is skipped rather than parsed.
    private var rawTextEnd: [UInt8]?
    /// Whether a `<style>` element's text is returned (as it is, not decoded) rather than skipped:
    /// the content converter reads a chapter's own CSS.
    package var returnsStyleText = false
    /// False once anything was read that is not well-formed XML: a stray `<` or `&`, an unknown
    /// entity, a reference to a character XML forbids, a tag or attribute cut short or unquoted,
    /// an unclosed comment, CDATA section or declaration, a control character XML forbids.
    /// (HTML is rarely well-formed XML; only readers of XML look at this.)
    package private(set) var isWellFormed = true
    /// True once an element's or attribute's name was not a name XML with namespaces allows
    /// (`<p::p>`, `<:p>`, `<p:>`, `<p@x>`): unlike the rest of ``isWellFormed``, a book's reader
    /// looks at this, since such a tag is damage whether the chapter is XHTML or HTML.
    package private(set) var hasMalformedName = false

    /// The most text declared entities may add to one document: 1 MiB, or the document's own
    /// length if that is more. A reference past it stays as written (and is not well-formed).
    package static let maxEntityExpansion = 1 << 20

    /// Creates a tokenizer over a document's bytes.
    ///
    /// HTML: UTF-16 and declared Latin-1 are decoded to UTF-8 first. XML: every encoding of
    /// ``XMLEncoding``, and the characters XML forbids anywhere (most C0 controls, U+FFFE, U+FFFF)
    /// make the document not well-formed.
    package init(bytes: [UInt8], syntax: Syntax = .html) {
        self.syntax = syntax
        switch syntax {
        case .html:
            self.bytes = MarkupTokenizer.utf8(from: bytes)
        case .xml:
            self.bytes = XMLEncoding.utf8(from: bytes)
            isWellFormed = !Self.containsForbiddenCharacter(self.bytes)
        }
    }

    /// Creates a tokenizer over a string.
    package init(_ text: String, syntax: Syntax = .html) {
        self.syntax = syntax
        self.bytes = Array(text.utf8)
        if syntax == .xml { isWellFormed = !Self.containsForbiddenCharacter(self.bytes) }
    }

    /// All tokens at once.
    package mutating func tokens() -> [MarkupToken] {
        var result: [MarkupToken] = []
        while let token = next() { result.append(token) }
        return result
    }

    /// The next token, or `nil` at the end.
    package mutating func next() -> MarkupToken? {
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
                skipProcessingInstruction()
                continue
            } else if Self.isNameStart(after) {
                if let token = readStartTag() { return token }
            } else {
                position += 1
                isWellFormed = false
                return .text("<")
            }
        }
        return nil
    }

    // MARK: - Pieces

    private mutating func readText() -> MarkupToken {
        let start = position
        let (end, references) = scan(from: start) { $0 == UInt8(ascii: "<") }
        position = end
        return .text(references ? decode(bytes[start..<end]) : plain(start, end))
    }

    /// Where the first byte `stop` takes lies from `start` on (or the end), and whether an `&`
    /// came before it: text without one is made a string at once.
    private func scan(from start: Int, until stop: (UInt8) -> Bool) -> (end: Int, references: Bool) {
        bytes.withUnsafeBufferPointer { buffer in
            var index = start
            var references = false
            while index < buffer.count {
                let byte = buffer[index]
                if stop(byte) { break }
                if byte == UInt8(ascii: "&") { references = true }
                index += 1
            }
            return (index, references)
        }
    }

    /// The bytes from `start` to `end` as they are (no reference in them), as ``decode(_:)`` gives them.
    private func plain(_ start: Int, _ end: Int) -> String {
        let string = bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
        }
        switch syntax {
        case .html: return SafeText.text(string)
        case .xml: return string
        }
    }

    /// Skips `<?target data?>`. XML allows its declaration only at the very start.
    private mutating func skipProcessingInstruction() {
        if position > 0, matchesCaseInsensitive(Array("<?xml".utf8)),
            position + 5 >= bytes.count || bytes[position + 5] <= 0x20 || bytes[position + 5] == UInt8(ascii: "?")
        {
            isWellFormed = false
        }
        if let end = find(Array("?>".utf8)) {
            position = end + 2
        } else {
            position = bytes.count
            isWellFormed = false
        }
    }

    private mutating func readStartTag() -> MarkupToken? {
        let tagStart = position
        position += 1
        let name = readName()
        var attributes: [MarkupAttribute] = []
        var selfClosing = false
        var closed = false
        while position < bytes.count {
            let spaced = skipSpace()
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                closed = true
                break
            }
            if byte == UInt8(ascii: "/") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: ">") {
                    selfClosing = true
                    position += 1
                    closed = true
                    break
                }
                isWellFormed = false
                continue
            }
            if byte == UInt8(ascii: "<") { break }  // an unclosed tag: let the next tag start here
            // XML wants white space before each attribute (`<a b="1"c="2">` is not well-formed).
            if !spaced { isWellFormed = false }
            let attributeName = readName()
            if attributeName.isEmpty {
                position += 1
                isWellFormed = false
                continue
            }
            skipSpace()
            var value = ""
            if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                position += 1
                skipSpace()
                value = readAttributeValue()
            } else {
                isWellFormed = false  // an attribute without a value: HTML's `hidden`
            }
            // Room for a few at once: growing one by one reallocates at the second and the third.
            if attributes.isEmpty { attributes.reserveCapacity(4) }
            attributes.append(MarkupAttribute(name: attributeName, value: value))
        }
        if !closed { isWellFormed = false }
        if name.isEmpty {
            position = tagStart + 1
            isWellFormed = false
            return .text("<")
        }
        if syntax == .html, !selfClosing, name == "script" || name == "style" {
            rawTextEnd = name == "style" ? Self.styleEnd : Array("</\(name)".utf8)
        }
        return .start(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    private mutating func readEndTag() -> MarkupToken? {
        position += 2
        let name = readName()
        skipSpace()
        if position >= bytes.count || bytes[position] != UInt8(ascii: ">") { isWellFormed = false }
        skip(past: [UInt8(ascii: ">")])
        if name.isEmpty { isWellFormed = false }
        return name.isEmpty ? nil : .end(name: name)
    }

    /// Comments, CDATA and DOCTYPE. Returns CDATA as text, skips the rest.
    private mutating func readBang() -> MarkupToken? {
        if matches("<!--") {
            position += 4
            if let end = find(Array("-->".utf8)) {
                position = end + 3
            } else {
                position = bytes.count
                isWellFormed = false
            }
            return nil
        }
        if matches("<![CDATA[") {
            position += 9
            let start = position
            let found = find(Array("]]>".utf8))
            if found == nil { isWellFormed = false }
            let end = found ?? bytes.count
            position = min(bytes.count, end + 3)
            return .text(Self.string(bytes[start..<end]))
        }
        // DOCTYPE or another declaration: read to the matching `>`, minding an internal subset.
        // XML has no other declaration in a document's content.
        if !matches("<!DOCTYPE") { isWellFormed = false }
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
        if position >= bytes.count { isWellFormed = false }
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
            guard let quote = rest.first, quote == "\"" || quote == "'" else {  // SYSTEM/PUBLIC
                if !name.isEmpty, externalEntities.count < 1024 { externalEntities.insert(name) }
                continue
            }
            let value = rest.dropFirst().prefix(while: { $0 != quote })
            if !name.isEmpty, declaredEntities[name] == nil, value.count <= 4096 {
                // Decoded once with the built-in table only: no nesting, no expansion blow-up.
                var inner = MarkupTokenizer("", syntax: syntax)
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
        let (end, colons, validCharacters) = bytes.withUnsafeBufferPointer { buffer -> (Int, Int, Bool) in
            var index = start
            var colons = 0
            var valid = true
            while index < buffer.count {
                let byte = buffer[index]
                // Letters, the commonest, first.
                if (byte | 0x20) &- UInt8(ascii: "a") < 26 {
                    index += 1
                    continue
                }
                if byte <= 0x20 || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
                    || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
                {
                    break
                }
                if byte == UInt8(ascii: ":") {
                    colons += 1
                } else if byte < 0x80, !Self.isNameStart(byte), !Self.isNameCharacter(byte) {
                    valid = false
                }
                index += 1
            }
            return (index, colons, valid)
        }
        position = end
        var valid = validCharacters
        // Namespaces in XML: a qualified name has at most one colon, with a name on each side.
        if colons > 1 || colons == 1 && (bytes[start] == UInt8(ascii: ":") || bytes[position - 1] == UInt8(ascii: ":"))
        {
            valid = false
        }
        if !valid, position > start {
            hasMalformedName = true
            isWellFormed = false
        }
        if syntax == .xml || !bytes[start..<position].contains(where: { $0 >= 65 && $0 <= 90 }) {
            return bytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[start..<position]), as: UTF8.self)
            }
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
            var lessThan = false
            let (end, references) = scan(from: start) { byte in
                if byte == UInt8(ascii: "<") { lessThan = true }
                return byte == quote
            }
            position = end
            if lessThan { isWellFormed = false }  // XML forbids `<` in a value
            if position >= bytes.count { isWellFormed = false }
            let value = references ? decode(bytes[start..<position]) : plain(start, position)
            position = min(bytes.count, position + 1)
            return value
        }
        isWellFormed = false  // an unquoted value
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

    /// Skips white space; whether there was any.
    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = position
        while position < bytes.count, bytes[position] <= 0x20 { position += 1 }
        return position > start
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
                for offset in 1..<marker.count where bytes[index + offset] != marker[offset] {
                    matched = false
                    break
                }
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

    /// An ASCII byte XML allows in a name after its first character, besides those it may start with.
    private static func isNameCharacter(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 97 && (byte | 0x20) <= 122 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            || byte >= 0x80
    }

    /// Text with entity references replaced (an unknown entity is kept literally), made safe to
    /// draw: this is where a book's words enter bok, so the controls a hostile book carries
    /// (raw, or as `&#27;`, which XML forbids but a forgiving reader still decodes) become
    /// visible stand-ins here, once, for pages, metadata, the TOC and notes alike (``SafeText``).
    ///
    /// XML text comes as written, for the reader of XML to make safe where it keeps it.
    mutating func decode(_ slice: ArraySlice<UInt8>) -> String {
        switch syntax {
        case .html: SafeText.text(decodeEntities(slice))
        case .xml: decodeEntities(slice)
        }
    }

    private mutating func decodeEntities(_ slice: ArraySlice<UInt8>) -> String {
        guard slice.contains(UInt8(ascii: "&")) else { return Self.string(slice) }
        var out = ""
        out.reserveCapacity(slice.count)
        var index = slice.startIndex
        var runStart = index
        while index < slice.endIndex {
            guard slice[index] == UInt8(ascii: "&") else {
                index += 1
                continue
            }
            var semicolon = index + 1
            let limit = min(slice.endIndex, index + 34)
            while semicolon < limit, slice[semicolon] != UInt8(ascii: ";"), slice[semicolon] != UInt8(ascii: "&"),
                slice[semicolon] > 0x20
            { semicolon += 1 }
            guard semicolon < limit, slice[semicolon] == UInt8(ascii: ";"), semicolon > index + 1 else {
                isWellFormed = false
                index += 1
                continue
            }
            let name = String(decoding: slice[(index + 1)..<semicolon], as: UTF8.self)
            var replacement: String?
            if name.hasPrefix("#") {
                replacement = syntax == .html ? Self.numericReference(name.dropFirst()) : xmlReference(name.dropFirst())
            } else if syntax == .html, let character = HTMLEntities.table[name] {
                replacement = String(Character(character))
            } else if syntax == .xml, let character = Self.xmlEntities[name] {
                replacement = character
            } else if syntax == .xml, externalEntities.contains(name), declaredEntities[name] == nil {
                replacement = ""  // declared, so well-formed; never fetched, so nothing
            } else if let declared = declaredEntities[name],
                entityExpansion + declared.utf8.count <= max(Self.maxEntityExpansion, bytes.count)
            {
                entityExpansion += declared.utf8.count
                replacement = declared
            }
            if replacement == nil { isWellFormed = false }
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

    /// XML's own entities, the only ones an XML document may use undeclared.
    private static let xmlEntities = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]

    /// A character reference as XML reads it: the number as it is (no Windows-1252 for 128–159),
    /// and one to a character XML forbids (most C0 controls, surrogates, U+FFFE, U+FFFF) is not
    /// well-formed; it reads as U+FFFD.
    private mutating func xmlReference(_ digits: Substring) -> String? {
        let hex = digits.first == "x"
        let number = hex ? digits.dropFirst() : digits
        // Digits only: UInt32's parser would also take a sign.
        guard !number.isEmpty, number.count <= 10,
            number.utf8.allSatisfy({ hex ? $0.isHexDigit : ($0 >= 0x30 && $0 <= 0x39) }),
            let value = UInt32(number, radix: hex ? 16 : 10)
        else { return nil }
        guard Self.isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
            isWellFormed = false
            return "\u{FFFD}"
        }
        return String(Character(scalar))
    }

    /// Whether XML 1.0 allows the character at all (its production `Char`).
    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
    }

    /// Whether UTF-8 `bytes` hold a character XML forbids even written out: a C0 control other than
    /// tab and the line ends, U+FFFE or U+FFFF.
    static func containsForbiddenCharacter(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = UnsafeRawPointer(buffer.baseAddress) else { return false }
            var index = 0
            let count = buffer.count
            while index < count {
                // Eight bytes at a time: a word with no byte below 0x20 and no 0xEF needs no look.
                var end = index + 1
                if index + 8 <= count {
                    let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    let ones: UInt64 = 0x0101_0101_0101_0101
                    let high: UInt64 = 0x8080_8080_8080_8080
                    let ef = word ^ (ones &* 0xEF)
                    if (word &- ones &* 0x20) & ~word & high == 0, (ef &- ones) & ~ef & high == 0 {
                        index += 8
                        continue
                    }
                    end = index + 8
                }
                while index < end {
                    let byte = buffer[index]
                    if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { return true }
                    // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                    if byte == 0xEF, index + 2 < count, buffer[index + 1] == 0xBF, buffer[index + 2] >= 0xBE {
                        return true
                    }
                    index += 1
                }
            }
            return false
        }
    }

    /// UTF-8 bytes to a string through contiguous storage (the generic path is several times slower).
    package static func string(_ slice: ArraySlice<UInt8>) -> String {
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
    package static func utf8(from bytes: [UInt8]) -> [UInt8] {
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
                    if byte < 0x80 {
                        out.append(byte)
                        continue
                    }
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

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (self >= 0x30 && self <= 0x39) || (self | 0x20 >= 0x61 && self | 0x20 <= 0x66)
    }
}
