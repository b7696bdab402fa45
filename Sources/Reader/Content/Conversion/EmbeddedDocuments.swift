/// The other content documents of the book that an `<iframe>` shows in place, and how much of
/// them has been shown: a chapter of a thousand frames of one large page would otherwise convert
/// that page a thousand times.
struct EmbeddedDocuments {
    /// The bytes of a content document of the book, by path; `nil` when it is not one the
    /// manifest lists.
    let source: (@Sendable (String) -> [UInt8]?)?
    /// How many documents deep inside frames the text being read is (one at most: a frame
    /// inside a frame's document is not followed).
    var depth = 0
    private var bytes = 0
    private static let bytesLimit = 8 << 20

    init(source: (@Sendable (String) -> [UInt8]?)?) {
        self.source = source
    }

    /// The bytes of the document at `path` for a frame in the document at `current`, counted
    /// against the limit; nil when the frame is not followed.
    mutating func bytes(of path: String, inside current: String) -> [UInt8]? {
        guard depth == 0, path != current, bytes < Self.bytesLimit, let document = source?(path),
            bytes + document.count <= Self.bytesLimit
        else { return nil }
        bytes += document.count
        return document
    }
}
