internal import Foundation

/// An XML document's bytes as UTF-8, from the encoding it is written in.
///
/// XML says how to tell (Appendix F of the XML 1.0 recommendation): a byte-order mark first, else
/// the first bytes of `<?xml` in UTF-16, else the `encoding` its declaration names; UTF-8 when it
/// names none. Every catalogue seen writes UTF-8, but a server may still send ISO-8859-1 or a
/// Windows code page, which libxml2 read; they are read here too.
package enum XMLEncoding {
    /// `bytes` as UTF-8, without a byte-order mark.
    ///
    /// UTF-8 that is not valid keeps its bad bytes (the tokenizer reads each as U+FFFD).
    /// `ISO-8859-1` is read as Windows-1252, as the WHATWG Encoding standard and browsers do: it
    /// differs only in 0x80–0x9F, which are controls in ISO-8859-1 and typographic marks
    /// (`“`, `—`, `€`) in what is sent under its name. Other encodings Foundation knows by their
    /// IANA name (`windows-1251`, `ISO-8859-2`, `Shift_JIS`, ...) are converted by it. A name it
    /// does not know, or bytes that are not in the named encoding, are read as UTF-8, so that a
    /// feed's ASCII stays readable.
    package static func utf8(from bytes: [UInt8]) -> [UInt8] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        if bytes.starts(with: [0xFF, 0xFE]) { return utf16(bytes.dropFirst(2), littleEndian: true) }
        if bytes.starts(with: [0xFE, 0xFF]) { return utf16(bytes.dropFirst(2), littleEndian: false) }
        if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return utf16(bytes[...], littleEndian: true) }
        if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return utf16(bytes[...], littleEndian: false) }
        guard let name = declaredEncoding(bytes) else { return bytes }
        // A declaration read in ASCII cannot be true of UTF-16 or UTF-32 (their `<?xml` would have
        // been caught above): the document is in an ASCII superset, most likely UTF-8.
        if name.hasPrefix("utf-16") || name.hasPrefix("utf-32") || name.hasPrefix("ucs-") { return bytes }
        switch name {
        case "utf-8", "utf8", "us-ascii", "ascii":
            return bytes
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "windows-1252", "cp1252", "x-cp1252":
            return windows1252(bytes)
        default:
            guard let encoding = String.Encoding(ianaName: name), encoding != .utf8,
                let text = String(bytes: bytes, encoding: encoding)
            else { return bytes }
            return Array(text.utf8)
        }
    }

    /// The lower-cased `encoding` of a leading `<?xml ...?>` declaration.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let head = bytes.prefix(256).prefix(while: { $0 != UInt8(ascii: ">") })
        let declaration = String(decoding: head, as: UTF8.self)
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
        guard rest.first == "=" else { return nil }
        let value = rest.dropFirst().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
        guard let quote = value.first, quote == "\"" || quote == "'" else { return nil }
        let name = value.dropFirst().prefix(while: { $0 != quote })
        return name.isEmpty ? nil : name.lowercased()
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(littleEndian ? first | second << 8 : first << 8 | second)
            index += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    private static func windows1252(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                out.append(byte)
                continue
            }
            let scalar = HTMLEntities.windows1252[UInt32(byte)] ?? Unicode.Scalar(byte)
            out.append(contentsOf: String(Character(scalar)).utf8)
        }
        return out
    }
}
