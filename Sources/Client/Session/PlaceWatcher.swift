import Catalog
import Foundation
import Reader
import Shelf

/// Sends the place of a book being read to its sync servers while the reader is open, at most once
/// per ``interval`` and only when it moved, so another device sees it without this one closing the
/// book (issue 30: "at most once per 25 s"). It runs beside the reader, which holds the main
/// thread: everything it needs is taken before, and it writes nothing to the terminal.
struct PlaceWatcher: Sendable {
    /// A KOReader sync server the place goes to, and the document the book is there.
    struct KOSyncTarget: Sendable {
        let client: KOSync
        /// Its key in the shelf's queue (``CredentialStore/kosyncSection(_:user:)``).
        let section: String
        let document: String
        let deviceID: String
    }

    let store: ShelfStore
    let bookID: BookID
    /// The calibre server the book came from, if it did.
    let calibre: (link: CalibreBookLink, client: CalibreSync)?
    /// The lending library that keeps the place of the loan, if it does.
    let library: LibraryAnnotationSync?
    let kosync: [KOSyncTarget]
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
            guard !Task.isCancelled, let saved = try? store.position(bookID: bookID.rawValue), saved != last else {
                continue
            }
            last = saved
            let place = Locator(spineIndex: saved.spineIndex, offset: saved.offset)
            if let calibre, let cfi = content.cfi(for: place, form: .calibre) {
                let pending = PendingPositionRecord(
                    bookID: bookID.rawValue, cfi: cfi.string, fraction: saved.percent / 100, madeAt: Date())
                try? store.queuePosition(pending)
                if (try? await calibre.client.send(
                    pending.cfi, fraction: pending.fraction, device: device, of: calibre.link)) != nil
                {
                    try? store.positionSent(pending)
                }
            }
            if let library, let cfi = content.cfi(for: place, form: .standard) {
                let pending = PendingPositionRecord(
                    bookID: bookID.rawValue, cfi: cfi.string, fraction: saved.percent / 100, madeAt: Date())
                try? store.queuePosition(pending)
                if (try? await library.sendPlace(pending)) != nil { try? store.positionSent(pending) }
            }
            guard let pointer = kosync.isEmpty ? nil : content.xpointer(for: place) else { continue }
            for target in kosync {
                let pending = KOSyncPendingRecord(
                    server: target.section, document: target.document, progress: pointer,
                    percentage: saved.percent / 100, madeAt: Date())
                try? store.queueKOSync(pending)
                let progress = KOSyncProgress(
                    progress: pointer, percentage: pending.percentage, device: device, deviceID: target.deviceID)
                if (try? await target.client.send(progress, of: target.document)) != nil {
                    try? store.koSyncSent(pending)
                }
            }
        }
    }
}

extension Session {
    /// A watcher for the book at `path`, when its place syncs (a book from a calibre catalogue with
    /// a login known, or a KOReader sync server logged in to; sync on); nil otherwise.
    func placeWatcher(path: String) async -> PlaceWatcher? {
        guard !syncIsOff, let store = try? shelfStore() else { return nil }
        let servers = kosyncServersLoggedIn
        let maybe = isMaybeSynced(path)
        guard maybe || !servers.isEmpty, let book = try? EPUBBook.open(path: path) else { return nil }
        let bookID = BookID.opening(book, in: store)
        let link = maybe ? (try? store.syncLink(of: bookID)) ?? nil : nil
        let library = maybe && link == nil ? await librarySync(bookID, store: store) : nil
        var kosync: [PlaceWatcher.KOSyncTarget] = []
        if !servers.isEmpty, let document = KOSync.documentID(of: URL(fileURLWithPath: path)) {
            let deviceID = kosyncDeviceID
            kosync = servers.map { server in
                PlaceWatcher.KOSyncTarget(
                    client: kosyncClient(server),
                    section: CredentialStore.kosyncSection(server.url, user: server.user),
                    document: document, deviceID: deviceID)
            }
        }
        guard link != nil || library != nil || !kosync.isEmpty else { return nil }
        let interval = environment["BOK_SYNC_INTERVAL"].flatMap(Double.init).map { max(0.2, $0) }
        return PlaceWatcher(
            store: store, bookID: bookID, calibre: link.map { ($0, syncClient(for: $0)) }, library: library,
            kosync: kosync,
            device: syncDevice, path: path, interval: interval ?? PlaceWatcher.defaultInterval)
    }

    /// A watcher sending the annotations made in the book at `path`, when it syncs; nil otherwise.
    func annotationWatcher(path: String) async -> AnnotationWatcher? {
        guard let (sync, _) = await annotationSync(path: path) else { return nil }
        let interval = environment["BOK_SYNC_INTERVAL"].flatMap(Double.init).map { max(0.2, $0) }
        return AnnotationWatcher(
            sync: sync, path: path, interval: min(interval ?? 1, 1),
            mergeInterval: interval ?? AnnotationWatcher.defaultMergeInterval)
    }
}
