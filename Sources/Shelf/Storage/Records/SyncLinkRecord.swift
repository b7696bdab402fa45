public import Catalog
public import Foundation
public import GRDB

/// Where a book lives on a sync server: for calibre's content server, the library and the book's id.
public struct SyncLinkRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    /// The book, as the reader names it (``BookID``).
    public var bookID: String
    /// The server's address up to where its own paths begin.
    public var server: String
    /// The calibre library's id.
    public var library: String
    /// The book's id there.
    public var serverBookID: Int
    /// The format (`EPUB`).
    public var format: String
    /// `calibre`, or `library`: a lending library's annotation service, whose address is `server`.
    public var kind: String
    /// A library's name for the book (its id in the catalogue).
    public var source: String?
    /// A library's patron profile, which holds the patron's opt-in.
    public var profile: String?

    public static let databaseTableName = "syncLink"

    public init(bookID: String, link: CalibreBookLink) {
        self.bookID = bookID
        server = link.server.absoluteString
        library = link.library
        serverBookID = link.bookID
        format = link.format
        kind = "calibre"
    }

    public init(bookID: String, link: LibraryAnnotationLink) {
        self.bookID = bookID
        server = link.service.absoluteString
        library = ""
        serverBookID = 0
        format = "EPUB"
        kind = "library"
        source = link.source
        profile = link.profile?.absoluteString
    }

    /// The calibre link, or nil when the book syncs elsewhere or the stored address is not one.
    public var link: CalibreBookLink? {
        guard kind == "calibre" else { return nil }
        return URL(string: server).map {
            CalibreBookLink(server: $0, library: library, bookID: serverBookID, format: format)
        }
    }

    /// The lending library's link, or nil when the book syncs elsewhere.
    public var libraryLink: LibraryAnnotationLink? {
        guard kind == "library", let service = URL(string: server), let source else { return nil }
        return LibraryAnnotationLink(service: service, source: source, profile: profile.flatMap(URL.init(string:)))
    }
}

/// A place waiting to be sent to the book's sync server: the newest one only.
public struct PendingPositionRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ShelfDates {
    public var bookID: String
    /// The place as calibre reads it (calibre's form of an EPUB CFI).
    public var cfi: String
    /// How far into the book, 0–1.
    public var fraction: Double
    /// When it was made (the reader closed the book there).
    public var madeAt: Date

    public static let databaseTableName = "pendingPosition"

    public init(bookID: String, cfi: String, fraction: Double, madeAt: Date) {
        self.bookID = bookID
        self.cfi = cfi
        self.fraction = fraction
        self.madeAt = madeAt
    }
}
