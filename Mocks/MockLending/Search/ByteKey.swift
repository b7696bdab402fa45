internal import Foundation

/// A string as a dictionary key that hashes and compares its UTF-8 bytes.
///
/// `String`'s own hashing normalises to NFC first, which for the Swedish texts of the catalogue
/// is the slow path and was a quarter of building the index. The generator writes every text
/// from the same literals, so equal texts have equal bytes; a text that did not would only be
/// folded once more, never matched wrongly.
struct ByteKey: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }

    static func == (lhs: ByteKey, rhs: ByteKey) -> Bool {
        let fast = lhs.text.utf8.withContiguousStorageIfAvailable { a in
            rhs.text.utf8.withContiguousStorageIfAvailable { b in
                a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            }
        }
        return (fast ?? nil) ?? lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }
}
