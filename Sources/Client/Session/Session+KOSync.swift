import Catalog
import Foundation
import Localization
import Reader
import Shelf

/// Reading places through KOReader's progress sync (kosync, `[sync NAME] kind = kosync` in the
/// config file): any EPUB, named by KOReader's partial MD5 of the file, so the same file on a
/// KOReader device and in bok is one document. The same rules as calibre's: a place further on
/// is offered when the book opens (at most ``syncWait``), one behind never applied silently,
/// this machine's place sent while reading and on close, and kept on the shelf until the server
/// has it.
extension Session {
    /// The setting that keeps this machine's kosync device id (KOReader sends one with each place).
    static let kosyncDeviceIDSetting = "sync.kosyncDeviceID"

    /// The KOReader sync servers of the config file (none when it cannot be read).
    var kosyncServers: [SyncServerConfig] {
        guard let file = paths?.configFile, let profiles = try? LibraryProfiles.load(file: file) else { return [] }
        return profiles.syncServers.filter { $0.kind == .kosync }
    }

    /// The server called `name`, or the error that lists those there are.
    func kosyncServer(named name: String) throws -> SyncServerConfig {
        let servers = kosyncServers
        if let found = servers.first(where: { $0.name == name }) { return found }
        let known = servers.map(\.name)
        throw UserError.usage(
            known.isEmpty
                ? tr(
                    "There is no sync server called {name}: add a [sync {name}] section with kind = kosync, url and "
                        + "user to the config file (docs/sync.md).",
                    ["name": name])
                : tr(
                    "There is no sync server called {name}; the config file has {known}.",
                    ["name": name, "known": Words.list(known, last: tr("and"))]))
    }

    /// A client for a server with the key kept for its user (none: nothing is sent).
    func kosyncClient(_ server: SyncServerConfig, deadline: TimeInterval = 5) -> KOSync {
        let key = try? account.credentialStore.kosyncKey(for: server.url, user: server.user)
        return KOSync(server: server.url, name: server.name, user: server.user, key: key, deadline: deadline)
    }

    /// The servers a key is kept for: the ones places go to.
    var kosyncServersLoggedIn: [SyncServerConfig] {
        kosyncServers.filter { (try? account.credentialStore.kosyncKey(for: $0.url, user: $0.user)) != nil }
    }

    /// This machine's device id for KOReader's servers, made once.
    var kosyncDeviceID: String {
        let store = try? shelfStore()
        if let id = try? store?.setting(Self.kosyncDeviceIDSetting), !id.isEmpty { return id }
        let id = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        try? store?.setSetting(Self.kosyncDeviceIDSetting, to: id)
        return id
    }

    /// What syncing the book at `path` with KOReader's servers takes, when sync is on and a server
    /// is logged in to: those servers, the shelf, the book, its id there and its KOReader document.
    private func kosyncBook(
        _ path: String
    ) -> (
        servers: [SyncServerConfig], store: ShelfStore, book: EPUBBook, bookID: BookID, document: String
    )? {
        guard !syncIsOff else { return nil }
        let servers = kosyncServersLoggedIn
        guard !servers.isEmpty, let store = try? shelfStore(), let book = try? EPUBBook.open(path: path),
            let document = KOSync.documentID(of: URL(fileURLWithPath: path))
        else { return nil }
        return (servers, store, book, BookID.opening(book, in: store), document)
    }

    /// Before a book opens: the place KOReader (or bok on another machine) left in it, offered as
    /// calibre's is. A server that refuses the key says so in one line; nothing is sent to it.
    func offerKOSyncPlace(path: String) async {
        guard let (servers, store, book, bookID, document) = kosyncBook(path) else { return }
        let deviceID = kosyncDeviceID
        let content = BookContent(book: book)
        for server in servers {
            let remote: KOSyncProgress?
            do {
                remote = try await kosyncClient(server, deadline: syncWaitSeconds).progress(of: document)
            } catch {
                if error.kind == .loginRefused { account.prompt?.tell(error.patronMessage) }
                continue
            }
            guard let remote, remote.deviceID != deviceID else { continue }
            offerPlace(
                device: remote.device.isEmpty ? server.name : remote.device, fraction: remote.percentage,
                time: remote.time, content: content, bookID: bookID, store: store
            ) { content.locator(forXPointer: remote.progress) ?? content.locator(atFraction: remote.percentage) }
        }
    }

    /// After a book closes: its place goes to each KOReader sync server (kept on the shelf until
    /// the server has it), with any other places still waiting.
    func sendKOSyncPlace(path: String) async {
        guard let (servers, store, book, bookID, document) = kosyncBook(path) else { return }
        guard let saved = try? store.position(bookID: bookID.rawValue),
            let pointer = BookContent(book: book).xpointer(
                for: Locator(spineIndex: saved.spineIndex, offset: saved.offset))
        else { return }
        for server in servers {
            try? store.queueKOSync(
                KOSyncPendingRecord(
                    server: CredentialStore.kosyncSection(server.url, user: server.user), document: document,
                    progress: pointer, percentage: saved.percent / 100, madeAt: Date()))
        }
        _ = await sendWaitingKOSync()
    }

    /// Sends the KOReader places waiting on the shelf; returns the first failure, if any (the rest
    /// wait). A place for a server no longer in the config file, or without a key, waits.
    @discardableResult
    func sendWaitingKOSync() async -> KOSync.Failure? {
        guard let store = try? shelfStore(), let waiting = try? store.pendingKOSync(), !waiting.isEmpty else {
            return nil
        }
        let servers = Dictionary(
            kosyncServers.map { (CredentialStore.kosyncSection($0.url, user: $0.user), $0) },
            uniquingKeysWith: { first, _ in first })
        let (device, deviceID) = (syncDevice, kosyncDeviceID)
        var failure: KOSync.Failure?
        for place in waiting {
            guard let server = servers[place.server] else { continue }
            do {
                try await kosyncClient(server).send(
                    KOSyncProgress(
                        progress: place.progress, percentage: place.percentage, device: device, deviceID: deviceID),
                    of: place.document)
                try? store.koSyncSent(place)
                try? store.setSetting(Self.syncLastSetting, to: String(Date().timeIntervalSince1970))
            } catch {
                failure = failure ?? error
            }
        }
        return failure
    }
}
