public import Localization

/// A book that cannot be opened or read, with a one-line message that says what is wrong and what to do.
///
/// A struct over a kind rather than a public enum, so kinds can be added without breaking callers
/// (as async-http-client's `HTTPClientError` does). Compare with `error.kind == .drm`.
public struct ReaderError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The file could not be read from disk at all.
        public static let unreadableFile = Kind("unreadableFile")
        /// The file is empty (0 bytes).
        public static let emptyFile = Kind("emptyFile")
        /// The file is not a zip archive, so not an EPUB.
        public static let notEPUB = Kind("notEPUB")
        /// The zip archive ends early (an interrupted download).
        public static let truncated = Kind("truncated")
        /// The zip archive is damaged in some other way (a bad checksum, say).
        public static let damaged = Kind("damaged")
        /// The zip archive is sound, but compressed by a method bok cannot unpack (Deflate64, bzip2).
        public static let unsupportedCompression = Kind("unsupportedCompression")
        /// `META-INF/container.xml` is missing or names no package document.
        public static let missingContainer = Kind("missingContainer")
        /// The container names a package document that is not in the archive.
        public static let missingPackage = Kind("missingPackage")
        /// The package document is there but cannot be understood.
        public static let unreadablePackage = Kind("unreadablePackage")
        /// Content documents are encrypted (DRM).
        public static let drm = Kind("drm")
        /// The archive would decompress to more than the allowed size.
        public static let tooLarge = Kind("tooLarge")
        /// Nothing in the book can be shown.
        public static let noContent = Kind("noContent")
        /// The reading view needs a terminal, and standard input or output is not one.
        public static let notATerminal = Kind("notATerminal")
        /// A search pattern is not a valid regular expression.
        public static let invalidSearch = Kind("invalidSearch")
    }

    /// The kind of failure.
    public let kind: Kind
    /// The one-line message for the reader, in the interface language: what is wrong and what to do.
    public let message: String
    /// What exactly went wrong (a file inside the book, a count, a library's error), for the debug
    /// log rather than the patron.
    public let detail: String?

    /// Creates an error; `message` is already translated (``tr(_:)``), `detail` stays English.
    public init(_ kind: Kind, _ message: String, detail: String? = nil) {
        self.kind = kind
        self.message = message
        self.detail = detail
    }

    public var description: String { message }
}

extension ReaderError: PatronFacingError {
    public var patronMessage: String { message }
}
