import Catalog
import Foundation
import Localization
import Reader
import Shelf

/// Reading places through a sync server, so a book opens on one machine where it was left on
/// another (issue 30; calibre's content server so far). Silent when it works: a place another
/// device left ahead of this one is offered in one question before the book opens, and this
/// machine's place is sent when the book closes, or kept on the shelf until the server has it.
extension Session {
    /// Settings keys.
    static let syncDeviceSetting = "sync.device"
    static let syncOffSetting = "sync.off"
    static let syncLastSetting = "sync.last"

    /// How long the place is waited for before a book opens: then it opens from its own.
    static let syncWait: TimeInterval = 1.5

    /// ``syncWait``, or `BOK_SYNC_WAIT` seconds (0.1–30), which tests on a loaded machine lengthen.
    var syncWaitSeconds: TimeInterval {
        environment["BOK_SYNC_WAIT"].flatMap(Double.init).map { min(30, max(0.1, $0)) } ?? Self.syncWait
    }

    /// The name this machine's places carry on the server: `sync device NAME`, else the host's name.
    var syncDevice: String {
        if let named = try? shelfStore().setting(Self.syncDeviceSetting), !named.isEmpty { return named }
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return "bok" }
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return host.isEmpty ? "bok" : host
    }

    /// Whether a file can be a book with a place on a sync server: only books got from a catalogue
    /// are (`opds-….epub`), so opening any other book costs nothing more (`bok read` starts as fast).
    static func mayBeSynced(_ path: String) -> Bool {
        URL(fileURLWithPath: path).lastPathComponent.hasPrefix("opds-")
    }

    /// Whether a file can be a book that syncs: one got from a catalogue, or a loan in bok's books
    /// folder (its library may keep its annotations and place).
    func isMaybeSynced(_ path: String) -> Bool {
        Self.mayBeSynced(path)
            || URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
                == booksDirectory.standardizedFileURL.path
    }

    /// Whether the patron turned sync off (`sync off`).
    var syncIsOff: Bool { (try? shelfStore().setting(Self.syncOffSetting)) == "1" }

    /// Records that the book in `file` came from a calibre server, when `acquisition` is one of
    /// calibre's links; best effort (the book reads either way).
    func linkForSync(file: URL, acquisition: URL) {
        guard let link = CalibreBookLink(acquisition: acquisition), let store = try? shelfStore(),
            let book = try? EPUBBook.open(path: file.path)
        else { return }
        let bookID = BookID.opening(book, in: store)
        try? store.linkForSync(bookID, to: link)
        try? store.recordSyncFile(file, of: bookID)
    }

    /// A client for the server with the login known for it: the catalogue's in use when it is
    /// that server, else one remembered with `login --remember`; none, and nothing is sent.
    func syncClient(for link: CalibreBookLink, deadline: TimeInterval = 5) -> CalibreSync {
        if let authorization = library.catalogue?.client.authorization(for: link.server) {
            return CalibreSync(authorization: authorization, deadline: deadline)
        }
        let remembered = try? account.credentialStore.catalogueLogin(for: link.server)
        return CalibreSync(user: remembered?.user, password: remembered?.password, deadline: deadline)
    }

    /// Before a book opens: the newest place another device left, when it is ahead of this one,
    /// is offered (`Enter` goes there). One behind is never applied silently: when it was left
    /// after this machine's (the patron went back there on the other device), it is offered
    /// with no as the answer Enter gives; an older one behind is the past, and not mentioned.
    /// Waits at most ``syncWait``.
    func offerSyncedPlace(path: String) async {
        guard isMaybeSynced(path), !syncIsOff, let store = try? shelfStore(),
            let book = try? EPUBBook.open(path: path)
        else { return }
        let bookID = BookID.opening(book, in: store)
        if let library = await librarySync(bookID, store: store, deadline: syncWaitSeconds) {
            let content = BookContent(book: book)
            guard let left = try? await library.place(in: content) else { return }
            offerPlace(
                device: left.device, fraction: left.fraction, time: left.time, content: content, bookID: bookID,
                store: store
            ) { left.place }
            return
        }
        guard let link = try? store.syncLink(of: bookID),
            let positions = try? await syncClient(for: link, deadline: syncWaitSeconds).positions(of: link)
        else { return }
        let device = syncDevice
        guard let newest = positions.first(where: { $0.device != device }) else { return }
        let content = BookContent(book: book)
        offerPlace(
            device: newest.device, fraction: newest.fraction, time: newest.time, content: content, bookID: bookID,
            store: store
        ) { EPUBCFI(newest.cfi).flatMap(content.locator(for:)) }
    }

    /// Offers the place another device left, when it is ahead of this machine's saved place (Enter
    /// goes there), or behind it but left after it (Enter stays); an older place behind is the
    /// past, and not mentioned. `find` finds it in bok's copy (nil: it cannot, which is told).
    func offerPlace(
        device: String, fraction: Double, time: Date, content: BookContent, bookID: BookID, store: ShelfStore,
        find: () -> Locator?
    ) {
        let saved = try? store.position(bookID: bookID.rawValue)
        let here = (saved?.percent ?? 0) / 100
        let ahead = fraction > here + 0.001
        let wentBack = fraction < here - 0.001 && time > (saved?.updatedAt ?? .distantFuture)
        guard ahead || wentBack else { return }
        guard let place = find() else {
            account.prompt?.tell(
                tr(
                    "{device} left a place in this book that bok cannot find in its copy; it opens where you were.",
                    ["device": device]))
            return
        }
        // The very place this machine keeps, its percentage estimated otherwise: nothing to offer.
        if let saved, saved.spineIndex == place.spineIndex, saved.offset == place.offset { return }
        let chapter = content.document(at: place.spineIndex).title ?? tr("chapter {n}", ["n": place.spineIndex + 1])
        let percent = Self.percentText(fraction)
        let question =
            ahead
            ? tr(
                "{device} is at {chapter}, {percent} — go there? [Y/n] ",
                ["device": device, "chapter": chapter, "percent": percent])
            : tr(
                "{device} went back to {chapter}, {percent}, after you read to {here} here — go back there? [y/N] ",
                ["device": device, "chapter": chapter, "percent": percent, "here": Self.percentText(here)])
        // Ahead, Enter (or yes) goes there; behind, only yes does. No, or nobody to ask, stays.
        guard let answer = account.prompt?.ask(question)?.trimmingCharacters(in: .whitespaces),
            answer.isEmpty ? ahead : TerminalPatronPrompt.yes.contains(where: { $0.isNamed(answer) })
        else { return }
        let located = content.locator(spineIndex: place.spineIndex, offset: place.offset)
        try? store.savePosition(located, percent: fraction * 100, bookID: bookID)
    }

    /// After a book closes: its place goes to the server (kept on the shelf until it has it), with
    /// any other places still waiting.
    func sendSyncedPlace(path: String) async {
        guard isMaybeSynced(path), !syncIsOff, let store = try? shelfStore(),
            let book = try? EPUBBook.open(path: path)
        else { return }
        let bookID = BookID.opening(book, in: store)
        let calibre = (try? store.syncLink(of: bookID)) != nil
        guard calibre || (try? store.libraryLink(of: bookID)) != nil,
            let saved = try? store.position(bookID: bookID.rawValue),
            let cfi = BookContent(book: book).cfi(
                for: Locator(spineIndex: saved.spineIndex, offset: saved.offset), form: calibre ? .calibre : .standard)
        else { return }
        try? store.queuePosition(
            PendingPositionRecord(
                bookID: bookID.rawValue, cfi: cfi.string, fraction: saved.percent / 100, madeAt: Date()))
        _ = await sendWaitingPlaces()
    }

    /// Sends the places waiting on the shelf; returns the first failure, if any (the rest wait).
    @discardableResult
    func sendWaitingPlaces() async -> (any PatronFacingError)? {
        guard let store = try? shelfStore(), let waiting = try? store.pendingPositions() else { return nil }
        let device = syncDevice
        var failure: (any PatronFacingError)?
        // Loans whose library keeps the place.
        for (bookID, link, _) in (try? store.syncedBooks()) ?? [] where link == nil {
            guard let position = try? store.pendingPosition(of: bookID),
                let library = await librarySync(bookID, store: store)
            else { continue }
            do {
                try await library.sendPlace(position)
                try? store.positionSent(position)
                try? store.setSetting(Self.syncLastSetting, to: String(Date().timeIntervalSince1970))
            } catch  where error.kind == .notOnLoan {
                // The loan ended: the library keeps no place of it now; the shelf keeps it.
                try? store.positionSent(position)
            } catch {
                failure = failure ?? error
            }
        }
        for (position, link) in waiting {
            do {
                try await syncClient(for: link).send(
                    position.cfi, fraction: position.fraction, device: device, of: link)
                try? store.positionSent(position)
                try? store.setSetting(Self.syncLastSetting, to: String(Date().timeIntervalSince1970))
            } catch {
                failure = failure ?? error
            }
        }
        return failure
    }

    /// `43 %`, in the interface language's way.
    static func percentText(_ fraction: Double) -> String {
        tr("{n} %", ["n": Int((fraction * 100).rounded())])
    }
}
