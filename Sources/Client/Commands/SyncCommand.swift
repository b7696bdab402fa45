import Catalog
import Foundation
import Localization
import Shelf

/// `sync`: where reading places go between machines (issue 30), and the switch for it.
@MainActor
enum SyncCommand {
    nonisolated static let sync = Command(
        typedName: TypedWord("typed: command", "sync"),
        synopsis: N_(
            "sync | sync now | sync device NAME | sync off | sync on | sync login SERVER | sync register SERVER"),
        summary: N_("Where your reading places sync to, and what waits to be sent"),
        details: [
            N_(
                "A book you got from a calibre content server where you are logged in (login --remember) keeps "
                    + "its place there: when you open it, a place another device left further on is offered "
                    + "(Enter goes there), and when you close it, your place is sent."),
            N_(
                "A place that could not be sent waits on the shelf and goes with the next sync; sync now sends "
                    + "what waits. sync device NAME names this machine's places (the host's name by default)."),
            N_(
                "Bookmarks, highlights and notes sync with the book too: the server's newer ones are applied when "
                    + "the book opens, yours are sent as you make, change or delete them; sync now does both for "
                    + "every synced book."),
            N_(
                "At a library that keeps its patrons' bookmarks (Palace's), a loan's place, bookmarks, highlights "
                    + "and notes sync through your card once you choose it: sync on sets that choice at the library."),
            N_(
                "A KOReader sync server ([sync SERVER] with kind = kosync, url and user in the config file) keeps "
                    + "the place of any EPUB, as KOReader does: sync login SERVER asks for the password (not "
                    + "shown) and keeps only its key; sync register SERVER makes the user there first. "
                    + "--password-file F reads the password from a file only you may read."),
            N_("Examples:  sync     sync now     sync device laptop     sync off     sync login reader"),
        ],
        valued: ["password-file"],
        completion: .words(Word.allCases.map(\.typed.english), then: []),
        run: { arguments, session in
            let words = arguments.positional
            let store = try session.shelfStore()
            guard let first = words.first else { return try state(store, session) }
            switch Word(first) {
            case .now?:
                let places = await session.sendWaitingPlaces()
                let annotations = await session.syncAllAnnotations()
                if let failure = places ?? annotations { throw UserError(failure.patronMessage) }
                if let failure = await session.sendWaitingKOSync() { throw UserError(failure.patronMessage) }
                var output = try state(store, session)
                output.lines.insert(tr("Synced."), at: 0)
                return output
            case .device?:
                let name = words.dropFirst().joined(separator: " ").trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, name.count <= 60, !name.unicodeScalars.contains(where: { $0.value < 0x20 })
                else { throw UserError.usage(tr("Give this machine a name of 1–60 characters: sync device laptop")) }
                try store.setSetting(Session.syncDeviceSetting, to: name)
                return CommandOutput(
                    lines: [tr("Places from this machine are now called {name}.", ["name": name])],
                    json: ["device": name])
            case .off?, .on?:
                let off = Word(first) == .off
                if off {
                    try store.setSetting(Session.syncOffSetting, to: "1")
                } else {
                    try store.removeSetting(Session.syncOffSetting)
                }
                var lines = [off ? tr("Sync is off: places stay on this machine.") : tr("Sync is on.")]
                // The patron's opt-in at a library that keeps its patrons' bookmarks (Palace's).
                if !off, let said = await optInAtLibrary(session) { lines.append(said) }
                return CommandOutput(lines: lines, json: ["on": !off])
            case .login?, .register?:
                guard words.count == 2 else {
                    throw UserError.usage(
                        tr("Name the sync server of the config file: sync {word} reader", ["word": first]))
                }
                return try await login(words[1], register: Word(first) == .register, arguments, session)
            default:
                throw UserError.usage(
                    tr(
                        "Usage: sync, sync now, sync device NAME, sync off, sync on, sync login SERVER or "
                            + "sync register SERVER."))
            }
        })

    /// The words after `sync`, in English or the interface language (`synka nu`).
    enum Word: CaseIterable {
        case now, device, off, on, login, register

        var typed: TypedWord {
            switch self {
            case .now: TypedWord("typed: sync", "now")
            case .device: TypedWord("typed: sync", "device")
            case .off: TypedWord("typed: sync", "off")
            case .on: TypedWord("typed: sync", "on")
            case .login: TypedWord("typed: sync", "login")
            case .register: TypedWord("typed: sync", "register")
            }
        }

        init?(_ word: String) {
            guard let found = Self.allCases.first(where: { $0.typed.isNamed(word) }) else { return nil }
            self = found
        }
    }

    /// `sync on` at a library whose patron profile holds the choice to keep bookmarks there: the
    /// choice made, and a line saying so (or why it could not be); nil at any other library.
    static func optInAtLibrary(_ session: Session) async -> String? {
        guard let lending = await session.library.opdsLending(), let profile = await lending.profile(),
            let authorization = lending.authorization(for: profile, card: session.shelfCard())
        else { return nil }
        do {
            try await LibraryAnnotations(authorization: authorization).setOptIn(true, profile: profile)
            return tr(
                "{library} keeps the bookmarks, highlights and place of your loans now, for your other devices.",
                ["library": session.library.name])
        } catch {
            return error.patronMessage
        }
    }

    /// `sync login SERVER` (or `register`): the password, asked with echo off or read from a
    /// private file, checked with the server (or registered there first), and only its key kept
    /// in the credentials file. A refusal is one line, and nothing is kept or sent.
    static func login(
        _ name: String, register: Bool, _ arguments: Arguments, _ session: Session
    ) async throws
        -> CommandOutput
    {
        let server = try session.kosyncServer(named: name)
        let user = server.user
        let password: String
        if let path = arguments.option("password-file") {
            let url = try session.confinement?.secretFile(path) ?? URL(fileURLWithPath: path)
            let text = try CredentialStore.readPrivate(url, what: tr("The password file"))
            guard let line = text.split(whereSeparator: \.isNewline).first.map(String.init), !line.isEmpty else {
                throw UserError(tr("{file} holds no password on its first line.", ["file": path]))
            }
            password = line
        } else if let prompt = session.account.prompt,
            let typed = prompt.askSecret(tr("Password for {user} at {server}: ", ["user": user, "server": name])),
            !typed.isEmpty
        {
            password = typed
        } else {
            throw UserError(
                tr(
                    "sync login needs the password: type it at the question, or give --password-file F (mode 600)."))
        }
        let key = KOSync.key(password: password)
        let client = KOSync(server: server.url, name: name, user: user, key: key)
        do {
            if register { try await client.register(password: password) }
            try await client.authorize()
        } catch {
            throw UserError(error.patronMessage)
        }
        try session.account.credentialStore.saveKosyncKey(key, for: server.url, user: user)
        return CommandOutput(
            lines: [
                register
                    ? tr("{user} is registered at {name}; your places sync there.", ["user": user, "name": name])
                    : tr("Logged in to {name} as {user}; your places sync there.", ["user": user, "name": name])
            ],
            json: SyncServerJSON(name: name, kind: "kosync", user: user, loggedIn: true))
    }

    /// What is synced where, from this machine, and what waits.
    static func state(_ store: ShelfStore, _ session: Session) throws -> CommandOutput {
        let (books, loans, calibreWaiting) = try store.syncCounts()
        let waitingAnnotations = try store.pendingAnnotationCount()
        let device = session.syncDevice
        let on = !session.syncIsOff
        let last = try store.setting(Session.syncLastSetting).flatMap(Double.init).map(
            Date.init(timeIntervalSince1970:))
        var lines = [
            on
                ? tr("Sync is on; this machine's places are called {device}.", ["device": device])
                : tr("Sync is off: places stay on this machine (sync on turns it on)."),
            books == 0
                ? tr("No book syncs yet: a book you get from a calibre content server where you are logged in does.")
                : trn(
                    "{n} book keeps its place on a calibre server.", "{n} books keep their place on a calibre server.",
                    books),
        ]
        // A KOReader server or a library keeps places too: "no book syncs" would not be true.
        if books == 0, !session.kosyncServers.isEmpty || loans > 0 { lines.removeLast() }
        if loans > 0 {
            lines.append(
                trn(
                    "{n} loan keeps its bookmarks, highlights and place at its library.",
                    "{n} loans keep their bookmarks, highlights and place at their library.", loans))
        }
        let kosyncWaiting = (try? store.pendingKOSync().count) ?? 0
        let waiting = calibreWaiting + kosyncWaiting
        var servers: [SyncServerJSON] = []
        for server in session.kosyncServers {
            let key = try? session.account.credentialStore.kosyncKey(for: server.url, user: server.user)
            let address = server.url.host.map { host in server.url.port.map { "\(host):\($0)" } ?? host } ?? ""
            servers.append(SyncServerJSON(name: server.name, kind: "kosync", user: server.user, loggedIn: key != nil))
            lines.append(
                key != nil
                    ? tr(
                        "{name}: KOReader sync at {server}, logged in as {user}; every EPUB you read keeps its place "
                            + "there.",
                        ["name": server.name, "server": address, "user": server.user])
                    : tr(
                        "{name}: KOReader sync at {server}, not logged in (sync login {name}).",
                        ["name": server.name, "server": address]))
        }
        if waiting > 0 {
            lines.append(
                trn(
                    "{n} place waits to be sent (sync now sends it).",
                    "{n} places wait to be sent (sync now sends them).",
                    waiting))
        }
        if waitingAnnotations > 0 {
            lines.append(
                trn(
                    "{n} change to bookmarks, highlights or notes waits to be sent (sync now sends it).",
                    "{n} changes to bookmarks, highlights or notes wait to be sent (sync now sends them).",
                    waitingAnnotations))
        }
        if let last {
            // The machine's clock: a place is sent in real time, whatever the library's clock says.
            let zone = TimeZone.current
            let parts = Calendar(identifier: .gregorian).dateComponents(in: zone, from: last)
            let day = Words.dayWithWeekday(DayDate(last, in: zone), today: DayDate(Date(), in: zone))
            let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
            lines.append(tr("Last sent {day} {time}.", ["day": day, "time": time]))
        }
        return CommandOutput(
            lines: lines,
            json: SyncJSON(
                on: on, device: device, books: books, loans: loans, waiting: waiting,
                waitingAnnotations: waitingAnnotations,
                lastSent: last, servers: servers))
    }
}

/// `sync --json`.
struct SyncJSON: Encodable, Sendable {
    let on: Bool
    let device: String
    /// Books whose place and annotations a calibre server keeps.
    let books: Int
    /// Loans whose place and annotations their lending library keeps.
    let loans: Int
    /// Places waiting to be sent.
    let waiting: Int
    /// Changes to bookmarks, highlights and notes waiting to be sent.
    let waitingAnnotations: Int
    let lastSent: Date?
    /// The KOReader sync servers of the config file.
    let servers: [SyncServerJSON]
}

/// A sync server in `sync --json` (never its key).
struct SyncServerJSON: Encodable, Sendable {
    let name: String
    let kind: String
    let user: String
    let loggedIn: Bool
}
