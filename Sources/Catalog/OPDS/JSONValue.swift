import Foundation

/// A JSON document read into plain values: what the OPDS 2 reader walks.
///
/// Written here rather than decoded through `JSONDecoder`: Codable's keyed containers were two
/// thirds of parsing a 5 000-entry OPDS 2 feed (bok-bench, 63 ms). This reads the bytes once.
/// Objects keep their members as a list in document order, not a dictionary: a feed's objects
/// have a handful of members, which a list finds faster than a hash. It is as strict as
/// `JSONDecoder` about what is JSON (RFC 8259: no comments, no trailing commas, no bare
/// control characters in strings, valid UTF-8), and caps nesting, as it does, so a hostile
/// document cannot exhaust the stack.
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// A number; `integer` when it is a whole number an `Int` holds.
    case number(Double, integer: Int?)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    // Not patron-facing: OPDSParser turns it into its own Failure, and OPDSClient that into a LendingError.
    /// Why the bytes are not a JSON document.
    struct Failure: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// How deep arrays and objects may nest (JSONDecoder's limit).
    static let maxDepth = 512

    /// Reads a whole document (a UTF-8 byte order mark is skipped).
    /// - Throws: ``Failure`` when it is not one JSON value, with nothing after it but white space.
    static func parse(_ data: Data) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure> = data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
                let value = try reader.value(depth: 0)
                reader.skipSpace()
                guard reader.index == reader.bytes.count else { throw reader.failure("has more after the value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: Reading a value as the feed expects it

    /// The member `name` of an object (the last, when a member is written twice, as JSONDecoder
    /// reads it); nil for a missing member or a value that is no object.
    subscript(_ name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == name }?.value
    }

    /// True when this is an object with a member `name`.
    func has(_ name: String) -> Bool { self[name] != nil }

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var int: Int? { if case .number(_, let integer) = self { integer } else { nil } }
    var double: Double? { if case .number(let value, _) = self { value } else { nil } }
    var isObject: Bool { if case .object = self { true } else { false } }
    /// The items of an array; nil for anything else.
    var items: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    /// The members of an object, in document order; nil for anything else.
    var members: [(key: String, value: JSONValue)]? { if case .object(let members) = self { members } else { nil } }

    /// The byte reader. Over a buffer, never a copy of the document.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        func failure(_ why: String) -> Failure { Failure(description: "\(why) at byte \(index)") }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(Failure) -> JSONValue {
            skipSpace()
            guard index < bytes.count else { throw failure("ends where a value should be") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard depth < JSONValue.maxDepth else { throw failure("nests deeper than \(JSONValue.maxDepth)") }
                return try object(depth: depth + 1)
            case UInt8(ascii: "["):
                guard depth < JSONValue.maxDepth else { throw failure("nests deeper than \(JSONValue.maxDepth)") }
                return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw failure("has an unexpected character")
            }
        }

        mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count,
                UnsafeBufferPointer(start: word.utf8Start, count: count).elementsEqual(bytes[index..<index + count])
            else { throw failure("has an unknown word") }
            index += count
            return value
        }

        mutating func object(depth: Int) throws(Failure) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = []
            guard !opens(closingWith: "}") else { return .object(members) }
            repeat {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw failure("has an object member without a quoted name")
                }
                let key = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("misses a colon") }
                index += 1
                members.append((key, try value(depth: depth)))
            } while try continues(closingWith: "}")
            return .object(members)
        }

        mutating func array(depth: Int) throws(Failure) -> JSONValue {
            var items: [JSONValue] = []
            guard !opens(closingWith: "]") else { return .array(items) }
            repeat {
                items.append(try value(depth: depth))
            } while try continues(closingWith: "]")
            return .array(items)
        }

        /// Steps over `{` or `[`; true when the object or array closes at once (and steps over that too).
        mutating func opens(closingWith close: Unicode.Scalar) -> Bool {
            index += 1
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: close) else { return false }
            index += 1
            return true
        }

        /// After an item or member: true at a comma (another follows), false at `close`.
        mutating func continues(closingWith close: Unicode.Scalar) throws(Failure) -> Bool {
            skipSpace()
            guard index < bytes.count else { throw failure("ends inside an object or array") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                return true
            case UInt8(ascii: close):
                index += 1
                return false
            default: throw failure("misses a comma")
            }
        }

        /// A string from its opening quote; escapes decoded, UTF-8 checked.
        mutating func string() throws(Failure) -> String {
            index += 1
            let start = index
            // The usual string has no escape: one scan, then one validated copy.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    return try text(bytes[start..<index])
                }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { throw failure("has a control character in a string") }
                index += 1
            }
            var decoded = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return try decoded.withUnsafeBufferPointer { buffer throws(Failure) in try text(buffer[...]) }
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800...0xDBFF).contains(scalar) {
                            // A high surrogate must be followed by its low half.
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                                bytes[index + 1] == UInt8(ascii: "u")
                            else { throw failure("has half a surrogate pair") }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw failure("has half a surrogate pair") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw failure("has half a surrogate pair") }
                        decoded.append(contentsOf: UTF8.encode(unicode)!)
                    default: throw failure("has an unknown escape")
                    }
                default:
                    guard byte >= 0x20 else { throw failure("has a control character in a string") }
                    decoded.append(byte)
                    index += 1
                }
            }
            throw failure("ends inside a string")
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard index + 4 <= bytes.count else { throw failure("ends inside an escape") }
            var value: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure("has a bad \\u escape")
                }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }

        /// The bytes as a string, when they are UTF-8. Made with `String(decoding:)`, which repairs
        /// what is not UTF-8 and so changes the bytes only then: the generic `String(validating:)`
        /// looked up type metadata for each string, a tenth of reading a 5 000-entry feed.
        func text(_ slice: Slice<UnsafeBufferPointer<UInt8>>) throws(Failure) -> String {
            let bytes = UnsafeBufferPointer(rebasing: slice)
            var string = String(decoding: bytes, as: UTF8.self)
            let same = string.withUTF8 { $0.count == bytes.count && $0.elementsEqual(bytes) }
            guard same else { throw failure("is not UTF-8") }
            return string
        }

        /// A number as RFC 8259 writes it: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func number() throws(Failure) -> JSONValue {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - from
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let whole = index
            let count = digits()
            guard count > 0, count == 1 || bytes[whole] != UInt8(ascii: "0") else { throw failure("has a bad number") }
            var plain = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw failure("has a bad number") }
                plain = false
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits() > 0 else { throw failure("has a bad number") }
                plain = false
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let value = Double(text) else { throw failure("has a bad number") }
            // A whole number an Int holds, written as one (`12`) or not (`12.0`, `1.2e1`), as JSONDecoder reads it.
            let integer = plain ? Int(text) : (value.rounded() == value ? Int(exactly: value) : nil)
            return .number(value, integer: integer)
        }
    }
}
