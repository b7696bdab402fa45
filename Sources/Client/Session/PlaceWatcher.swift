import Catalog
import Foundation
import Reader
import Shelf

/// Sends the place of a book being read to its sync server while the reader is open, at most once
/// per ``interval`` and only when it moved, so another device sees it without this one closing the
/// book (issue 30: "at most once per 25 s"). It runs beside the reader, which holds the main
/// thread: everything it needs is taken before, and it writes nothing to the terminal.
struct PlaceWatcher: Sendable {
    let store: ShelfStore
    let bookID: BookID
    let link: CalibreBookLink
    let client: CalibreSync
    let device: String
    let path: String
    /// Seconds between looks at the place; `BOK_SYNC_INTERVAL` shortens it for tests.
    let interval: TimeInterval

    static let defaultInterval: TimeInterval = 25

    /// Looks at the saved place every ``interval`` until cancelled; a place that moved is queued on
    /// the shelf and sent (a failure leaves it queued for the next look or the close).
    func run() async {
        guard let book = try? EPUBBook.open(path: path) else { return }
        let content = BookContent(book: book, cacheLimit: 2)
        var last = try? store.position(bookID: bookID.rawValue)
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(interval))
            guard !Task.isCancelled, let saved = try? store.position(bookID: bookID.rawValue), saved != last,
                let cfi = content.cfi(for: Locator(spineIndex: saved.spineIndex, offset: saved.offset), form: .calibre)
            else { continue }
            last = saved
            let pending = PendingPositionRecord(
                bookID: bookID.rawValue, cfi: cfi.string, fraction: saved.percent / 100, madeAt: Date())
            try? store.queuePosition(pending)
            do {
                try await client.send(pending.cfi, fraction: pending.fraction, device: device, of: link)
                try? store.positionSent(pending)
            } catch {
                continue
            }
        }
    }
}

extension Session {
    /// A watcher for the book at `path`, when its place syncs (a book from a calibre catalogue,
    /// sync on, a login known); nil otherwise.
    func placeWatcher(path: String) -> PlaceWatcher? {
        guard Self.mayBeSynced(path), !syncIsOff, let store = try? shelfStore(),
            let book = try? EPUBBook.open(path: path)
        else { return nil }
        let bookID = BookID.opening(book, in: store)
        guard let link = try? store.syncLink(of: bookID) else { return nil }
        let interval = environment["BOK_SYNC_INTERVAL"].flatMap(Double.init).map { max(0.2, $0) }
        return PlaceWatcher(
            store: store, bookID: bookID, link: link, client: syncClient(for: link), device: syncDevice, path: path,
            interval: interval ?? PlaceWatcher.defaultInterval)
    }

    /// A watcher sending the annotations made in the book at `path`, when it syncs; nil otherwise.
    func annotationWatcher(path: String) -> AnnotationWatcher? {
        guard let (sync, _) = annotationSync(path: path) else { return nil }
        let interval = environment["BOK_SYNC_INTERVAL"].flatMap(Double.init).map { max(0.2, $0) }
        return AnnotationWatcher(sync: sync, path: path, interval: min(interval ?? 1, 1))
    }
}
