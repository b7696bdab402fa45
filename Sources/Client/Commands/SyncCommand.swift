import Catalog
import Foundation
import Localization
import Shelf

/// `sync`: where reading places go between machines (issue 30), and the switch for it.
@MainActor
enum SyncCommand {
    nonisolated static let sync = Command(
        typedName: TypedWord("typed: command", "sync"),
        synopsis: N_("sync | sync now | sync device NAME | sync off | sync on"),
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
            N_("Examples:  sync     sync now     sync device laptop     sync off"),
        ],
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
                return CommandOutput(
                    lines: [off ? tr("Sync is off: places stay on this machine.") : tr("Sync is on.")],
                    json: ["on": !off])
            default:
                throw UserError.usage(tr("Usage: sync, sync now, sync device NAME, sync off or sync on."))
            }
        })

    /// The words after `sync`, in English or the interface language (`synka nu`).
    enum Word: CaseIterable {
        case now, device, off, on

        var typed: TypedWord {
            switch self {
            case .now: TypedWord("typed: sync", "now")
            case .device: TypedWord("typed: sync", "device")
            case .off: TypedWord("typed: sync", "off")
            case .on: TypedWord("typed: sync", "on")
            }
        }

        init?(_ word: String) {
            guard let found = Self.allCases.first(where: { $0.typed.isNamed(word) }) else { return nil }
            self = found
        }
    }

    /// What is synced where, from this machine, and what waits.
    static func state(_ store: ShelfStore, _ session: Session) throws -> CommandOutput {
        let (books, waiting) = try store.syncCounts()
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
                on: on, device: device, books: books, waiting: waiting, waitingAnnotations: waitingAnnotations,
                lastSent: last))
    }
}

/// `sync --json`.
struct SyncJSON: Encodable, Sendable {
    let on: Bool
    let device: String
    let books: Int
    /// Places waiting to be sent.
    let waiting: Int
    /// Changes to bookmarks, highlights and notes waiting to be sent.
    let waitingAnnotations: Int
    let lastSent: Date?
}
