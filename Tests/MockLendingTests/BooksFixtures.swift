import Catalog
import Foundation
import Reader

@testable import MockLending

/// Books of the default catalogue chosen to cover what the generator does differently, and
/// ways to look inside an EPUB without trusting the code that wrote it.
enum BookFixtures {
    static let products = Fixtures.catalog.products
    static let seed = Fixtures.catalog.seed

    static func first(_ description: String, _ matches: (Product) -> Bool) -> Product {
        guard let product = products.first(where: matches) else {
            fatalError("The seed-1 catalogue has no \(description); the book tests need one.")
        }
        return product
    }

    static func kind(_ product: Product) -> BookKind { BookKind(categories: product.categories) }
    static func ordinary(_ product: Product) -> Bool { (product.pages ?? 0) < BookPlan.novelPages }

    static let swedishNovel = first("Swedish crime novel") {
        $0.language == "sv" && $0.translators.isEmpty && kind($0) == .crime && ordinary($0)
    }
    static let englishNovel = first("English crime or family novel") {
        $0.language == "en" && [.crime, .family].contains(kind($0)) && ordinary($0)
    }
    static let translatedNovel = first("translated novel") {
        !$0.translators.isEmpty && $0.originalTitle != nil && kind($0) != .children && ordinary($0)
    }
    static let childrensBook = first("children's book") { kind($0) == .children && ordinary($0) }
    static let factsBook = first("non-fiction book") { kind($0) == .facts }
    static let poetryBook = first("poetry book") { kind($0) == .poetry }
    static let biography = first("biography") { kind($0) == .biography }
    static let fantasyBook = first("fantasy book") { kind($0) == .fantasy && ordinary($0) }
    static let otherLanguageBook = first("book in Danish, Norwegian, Finnish, German, French or Spanish") {
        !["sv", "en"].contains($0.language ?? "sv")
    }
    static let novelLength = products.filter { !ordinary($0) }

    static func epub(_ product: Product, sample: Bool = false) -> Data {
        MockBooks.epub(for: product, seed: seed, sample: sample)
    }

    /// An entry of an EPUB as text, read by the Reader's own zip reader.
    static func text(_ epub: Data, _ path: String) throws -> String {
        let book = try EPUBBook(bytes: [UInt8](epub))
        return String(decoding: try book.resource(at: path), as: UTF8.self)
    }

    /// The names of the entries, in the order of the zip's local headers.
    static func entryNames(_ epub: Data) -> [String] {
        let bytes = [UInt8](epub)
        var names: [String] = []
        var offset = 0
        while offset + 30 <= bytes.count, le32(bytes, offset) == 0x0403_4B50 {
            let compressed = Int(le32(bytes, offset + 18))
            let nameLength = Int(le16(bytes, offset + 26))
            let extraLength = Int(le16(bytes, offset + 28))
            names.append(String(decoding: bytes[(offset + 30)..<(offset + 30 + nameLength)], as: UTF8.self))
            offset += 30 + nameLength + extraLength + compressed
        }
        return names
    }

    static func le16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
    static func le32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(le16(b, at)) | UInt32(le16(b, at + 2)) << 16 }
    static func be32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    /// CRC-32 (IEEE), written out here so the PNG check does not lean on the zlib the writer uses.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The text of an XHTML document without its tags (entities left as they are).
    static func plainText(_ xhtml: String) -> String {
        var out = ""
        out.reserveCapacity(xhtml.utf8.count)
        var inTag = false
        for scalar in xhtml.unicodeScalars {
            if scalar == "<" {
                inTag = true
            } else if scalar == ">" {
                inTag = false
            } else if !inTag {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Every match of a regular expression's first capture group.
    static func captures(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
