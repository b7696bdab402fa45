import Catalog
import Foundation
import Localization
import Reader
import Shelf

/// Bookmarks, highlights and notes through the sync server (issue 30): merged when a book opens
/// (within ``Session/syncWait``), sent as they are made while it is read, and with `sync now`.
extension Session {
    /// The annotation sync of the book at `path`, when it syncs (sync on, and a book from a calibre
    /// catalogue, or a loan whose library keeps annotations); nil otherwise.
    func annotationSync(path: String, deadline: TimeInterval = 5) async -> (any AnnotationSyncing, EPUBBook)? {
        guard isMaybeSynced(path), !syncIsOff, let store = try? shelfStore(),
            let book = try? EPUBBook.open(path: path)
        else { return nil }
        let bookID = BookID.opening(book, in: store)
        try? store.recordSyncFile(URL(fileURLWithPath: path), of: bookID)
        if let link = try? store.syncLink(of: bookID) {
            let client = syncClient(for: link, deadline: deadline)
            return (AnnotationSync(store: store, book: bookID, link: link, client: client), book)
        }
        guard let sync = await librarySync(bookID, store: store, deadline: deadline) else { return nil }
        return (sync, book)
    }

    /// Records that a loan's bookmarks, highlights and place are kept at its library, when the
    /// library in use lends through OPDS and its loans feed links an annotation service for the
    /// book (Palace's). Best effort: the book reads either way.
    func linkForLibrarySync(file: URL, productID: String) async {
        guard !syncIsOff, let lending = await library.opdsLending(), let card = shelfCard(),
            let store = try? shelfStore(), let book = try? EPUBBook.open(path: file.path)
        else { return }
        let bookID = BookID.opening(book, in: store)
        // A book calibre keeps stays calibre's; one linked already keeps its link and ids.
        guard (try? store.syncLink(of: bookID)) ?? nil == nil, (try? store.libraryLink(of: bookID)) ?? nil == nil,
            let link = await lending.annotationLink(productID: productID, card: card)
        else { return }
        try? store.linkForLibrarySync(bookID, to: link)
        try? store.recordSyncFile(file, of: bookID)
    }

    /// The library annotation sync of a loan, when its library keeps annotations and the patron's
    /// login for it is known (the library in use).
    func librarySync(_ bookID: BookID, store: ShelfStore, deadline: TimeInterval = 5) async -> LibraryAnnotationSync? {
        guard let link = try? store.libraryLink(of: bookID),
            let authorization = await library.opdsLending()?.authorization(for: link.service, card: shelfCard())
        else { return nil }
        let onLoan = (try? store.loans(includeEnded: false))?.contains { $0.productID == link.source } ?? true
        return LibraryAnnotationSync(
            store: store, book: bookID, link: link,
            client: LibraryAnnotations(authorization: authorization, deadline: deadline), device: syncDevice,
            onLoan: onLoan)
    }

    /// Before a book opens: the server's bookmarks and highlights are merged with the shelf's,
    /// beside the question about the place (both wait at most ``syncWait``, at the same time). An
    /// unanswered server leaves the shelf as it is (changes made here keep waiting).
    func startMergingAnnotations(path: String) async -> Task<Int, Never>? {
        guard let (sync, book) = await annotationSync(path: path, deadline: syncWaitSeconds) else { return nil }
        return Task.detached { (try? await sync.merge(BookContent(book: book)))?.unfit ?? 0 }
    }

    /// Waits for the merge, and says in a line how many of the server's annotations do not fit
    /// this copy of the book.
    func finishMergingAnnotations(_ merging: Task<Int, Never>?) async {
        guard let unfit = await merging?.value, unfit > 0 else { return }
        account.prompt?.tell(
            trn(
                "{n} bookmark or highlight on the server does not fit this copy of the book; it stays there.",
                "{n} bookmarks or highlights on the server do not fit this copy of the book; they stay there.",
                unfit))
    }

    /// `sync now`: every synced book whose file is on this machine merges its annotations with the
    /// server's; returns the first failure, if any (the rest go on).
    func syncAllAnnotations() async -> (any PatronFacingError)? {
        guard !syncIsOff, let store = try? shelfStore(), let books = try? store.syncedBooks() else { return nil }
        var failure: (any PatronFacingError)?
        for (bookID, link, file) in books {
            guard let file, let book = try? EPUBBook.open(path: file), BookID.opening(book, in: store) == bookID
            else { continue }
            let sync: any AnnotationSyncing
            if let link {
                sync = AnnotationSync(store: store, book: bookID, link: link, client: syncClient(for: link))
            } else if let library = await librarySync(bookID, store: store) {
                sync = library
            } else {
                continue
            }
            do {
                try await sync.merge(BookContent(book: book, cacheLimit: 2))
                try? store.setSetting(Self.syncLastSetting, to: String(Date().timeIntervalSince1970))
            } catch let error as LibraryAnnotations.Failure where error.kind == .notOnLoan {
                // A loan that ended: its changes wait until it is borrowed again, and that is no failure.
            } catch {
                failure = failure ?? (error as? any PatronFacingError)
            }
        }
        return failure
    }
}

/// Keeps an open book's bookmarks, highlights and notes in step with the server: what is made
/// here is sent within ``interval`` (a failure leaves it waiting), and every ``mergeInterval`` the
/// server's are merged, so a highlight made on the phone while the book is open here shows without
/// closing it (the reader reads them again and redraws).
struct AnnotationWatcher: Sendable {
    let sync: any AnnotationSyncing
    let path: String
    let interval: TimeInterval
    let mergeInterval: TimeInterval

    static let defaultMergeInterval: TimeInterval = 30

    func run() async {
        guard let book = try? EPUBBook.open(path: path) else { return }
        let content = BookContent(book: book, cacheLimit: 2)
        var merged = Date()
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(interval))
            guard !Task.isCancelled else { return }
            if Date().timeIntervalSince(merged) >= mergeInterval {
                merged = Date()
                if let outcome = try? await sync.merge(content), outcome.applied > 0, !Task.isCancelled {
                    ReaderApp.annotationsChanged()
                }
                continue
            }
            guard (try? sync.store.pendingAnnotationCount(of: sync.book)) ?? 0 > 0 else { continue }
            try? await sync.sendWaiting(content)
        }
    }
}

extension Session {
    /// After a book closes: annotation changes still waiting go out (the watcher may have stopped
    /// before the last one); a failure leaves them waiting.
    func sendSyncedAnnotations(path: String) async {
        guard let (sync, book) = await annotationSync(path: path),
            (try? sync.store.pendingAnnotationCount(of: sync.book)) ?? 0 > 0
        else { return }
        try? await sync.sendWaiting(BookContent(book: book, cacheLimit: 2))
    }
}
