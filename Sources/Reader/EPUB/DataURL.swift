import Foundation

/// A `data:` URL (RFC 2397) as a picture's source: `data:image/png;base64,iVBOR…`.
///
/// EPUB 3.3 lets content documents carry images inline this way. Decoded by hand because
/// Foundation's `URL` gives no access to the payload on Linux and `Data(contentsOf:)` would
/// treat it as a fetch; the payload is capped, so a book cannot make bok decode an unbounded
/// string.
enum DataURL {
    /// The most bytes an inline picture may decode to: a picture, not a book.
    static let maxBytes = 16 << 20

    /// Whether `source` is a data URL (`data:`, in any case).
    static func isDataURL(_ source: String) -> Bool {
        source.utf8.prefix(5).map { $0 | 0x20 } == Array("data:".utf8)
    }

    /// The media type and the bytes of a data URL; nil when it is not one, is malformed, or
    /// would decode to more than ``maxBytes``.
    static func decode(_ source: String) -> (mediaType: String, bytes: [UInt8])? {
        guard isDataURL(source), let comma = source.firstIndex(of: ",") else { return nil }
        let header = source[source.index(source.startIndex, offsetBy: 5)..<comma]
        let payload = source[source.index(after: comma)...]
        var parameters = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let isBase64 = parameters.last?.lowercased() == "base64"
        if isBase64 { parameters.removeLast() }
        let mediaType = parameters.first.map { $0.lowercased() }.flatMap { $0.contains("/") ? $0 : nil } ?? "text/plain"
        if isBase64 {
            // Four characters make three bytes: refuse before decoding what would be too big.
            guard payload.utf8.count / 4 * 3 <= maxBytes else { return nil }
            let text = String(payload).removingPercentEncoding ?? String(payload)
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !data.isEmpty else {
                return nil
            }
            return (mediaType, [UInt8](data))
        }
        guard payload.utf8.count <= maxBytes * 3, let text = String(payload).removingPercentEncoding else {
            return nil
        }
        let bytes = Array(text.utf8)
        return bytes.count <= maxBytes ? (mediaType, bytes) : nil
    }
}
