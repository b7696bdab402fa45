import Catalog
import Foundation
import Localization
import Reader
import Shelf

/// Bookmarks, highlights and notes through the sync server (issue 30): merged when a book opens
/// (within ``Session/syncWait``), sent as they are made while it is read, and with `sync now`.
extension Session {
    /// The annotation sync of the book at `path`, when it syncs (a book from a calibre catalogue,
    /// sync on); nil otherwise.
    func annotationSync(path: String, deadline: TimeInterval = 5) -> (AnnotationSync, EPUBBook)? {
        guard Self.mayBeSynced(path), !syncIsOff, let store = try? shelfStore(),
            let book = try? EPUBBook.open(path: path)
        else { return nil }
        let bookID = BookID.opening(book, in: store)
        guard let link = try? store.syncLink(of: bookID) else { return nil }
        try? store.recordSyncFile(URL(fileURLWithPath: path), of: bookID)
        let client = syncClient(for: link, deadline: deadline)
        return (AnnotationSync(store: store, book: bookID, link: link, client: client), book)
    }

    /// Before a book opens: the server's bookmarks and highlights are merged with the shelf's,
    /// beside the question about the place (both wait at most ``syncWait``, at the same time). An
    /// unanswered server leaves the shelf as it is (changes made here keep waiting).
    func startMergingAnnotations(path: String) -> Task<Int, Never>? {
        guard let (sync, book) = annotationSync(path: path, deadline: Self.syncWait) else { return nil }
        return Task.detached { (try? await sync.merge(BookContent(book: book))) ?? 0 }
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
    func syncAllAnnotations() async -> CalibreSync.Failure? {
        guard !syncIsOff, let store = try? shelfStore(), let books = try? store.syncedBooks() else { return nil }
        var failure: CalibreSync.Failure?
        for (bookID, link, file) in books {
            guard let file, let book = try? EPUBBook.open(path: file), BookID.opening(book, in: store) == bookID
            else { continue }
            let sync = AnnotationSync(store: store, book: bookID, link: link, client: syncClient(for: link))
            do {
                try await sync.merge(BookContent(book: book, cacheLimit: 2))
                try? store.setSetting(Self.syncLastSetting, to: String(Date().timeIntervalSince1970))
            } catch {
                failure = failure ?? error
            }
        }
        return failure
    }
}

/// Sends the bookmarks, highlights and notes made in an open book as they are made: it looks at
/// the shelf's queue every ``interval`` and sends what waits (a failure leaves it waiting).
struct AnnotationWatcher: Sendable {
    let sync: AnnotationSync
    let path: String
    let interval: TimeInterval

    func run() async {
        guard let book = try? EPUBBook.open(path: path) else { return }
        let content = BookContent(book: book, cacheLimit: 2)
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(interval))
            guard !Task.isCancelled, (try? sync.store.pendingAnnotationCount(of: sync.book)) ?? 0 > 0 else { continue }
            try? await sync.sendWaiting(content)
        }
    }
}

extension Session {
    /// After a book closes: annotation changes still waiting go out (the watcher may have stopped
    /// before the last one); a failure leaves them waiting.
    func sendSyncedAnnotations(path: String) async {
        guard let (sync, book) = annotationSync(path: path),
            (try? sync.store.pendingAnnotationCount(of: sync.book)) ?? 0 > 0
        else { return }
        try? await sync.sendWaiting(BookContent(book: book, cacheLimit: 2))
    }
}
