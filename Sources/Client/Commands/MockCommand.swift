import Catalog
import Foundation
import Localization
import Logging
import Terminal
import TextSafety

/// `mock clock|reset|fault|state`: rehearsing with the mock library. Refused against a real one.
@MainActor
enum MockCommand {
    nonisolated static let mock = Command(
        typedName: TypedWord("typed: command", "mock"),
        synopsis: N_("mock clock [WHEN] | mock reset | mock fault … | mock state"),
        summary: N_("Control the mock library: move its clock, reset it, inject faults, show its state"),
        details: [
            N_("mock clock shows the day and time at the mock library, and how far that is from today."),
            N_(
                "mock clock WHEN moves it: +14d or +2w moves it on (h and m work too), -3d moves it back; "
                    + "tomorrow, yesterday, today, monday or next monday (any weekday), in 3 days or "
                    + "2026-12-01 set it to that day. Days in words count from today. "
                    + "Loans run out and reservations come due as the clock passes their days."),
            N_("In Swedish: i morgon, i går, i dag, nästa måndag, måndag, om 3 dagar."),
            N_("mock reset takes the mock library back to its seed: loans, queues, clock and faults."),
            N_(
                "mock fault latency 2000, errors 0.3, malformed, drop or drop-after-commit makes the library slow "
                    + "or failing; mock fault off ends it."),
            N_("mock fault corrupt-books | cut-books 5000 give damaged or cut-off book downloads."),
            N_("mock fault hostile puts terminal escape codes in titles, names and descriptions (shown inert)."),
            N_("mock state shows loans and queues as the library sees them."),
            N_("Only with bok --mock or a bok mock-server; a real library refuses these."),
            N_("Examples:  mock clock +2w     mock clock next monday     mock clock 2026-12-24"),
        ],
        completion: .words(
            ["clock", "reset", "fault", "state"],
            then: [
                "latency", "errors", "malformed", "drop", "drop-after-commit", "corrupt-books", "cut-books", "hostile",
                "off",
            ]),
        run: { arguments, session in
            do {
                return try await run(arguments.positional, session: session)
            } catch let failure as MockControl.Failure {
                session.logger.debug("mock control: \(failure.detail)")
                throw UserError(failure.message)
            }
        })

    static func run(_ words: [String], session: Session) async throws -> CommandOutput {
        let control = try await session.library.mockControl()
        switch words.first?.lowercased() {
        case "clock"?:
            let date: Date
            if words.count > 1 {
                date = try await control.moveClock(
                    try clockRequest(Array(words.dropFirst()), session: session),
                    timeZone: session.library.clock.timeZone)
            } else {
                date = try await control.now()
            }
            session.library.clock.follow(date)
            // Loans ran out and reservations came due meanwhile: the shelf follows, and says what changed.
            if words.count > 1 { await session.syncAfterChange() }
            return CommandOutput(
                lines: [clockLine(date, session: session)], json: ["now": Timestamp.format(date)])
        case "reset"?:
            // What became of a shared state file that could not be used: `Rebuilt`, `Rejoined`, `NotRebuilt`.
            let sharedState = try await control.reset()["Reset"] as? String ?? "Shared"
            // Said here, in the reset's own words, and not again after it.
            let told = sharedState == "Shared" ? nil : session.library.mock?.stateInbox.take()
            let now = try await control.now()
            session.library.clock.follow(now)
            session.lists.loanList = []
            session.lists.reservationList = []
            await session.shelfFollowsReset(at: now)
            if sharedState == "NotRebuilt", let problem = await session.library.mock?.stateProblem() ?? told {
                throw UserError(MockStateWords.notRebuilt(problem))
            }
            let line: String
            switch sharedState {
            case "Rebuilt":
                line = tr(
                    "bok rebuilt the mock library's shared state, which could not be used: the mock library is back "
                        + "at its seed (loans, queues, clock and faults), shared by every bok --mock again.")
            case "Rejoined":
                line = tr(
                    "The mock library is back at its seed (loans, queues, clock and faults), shared by every "
                        + "bok --mock again.")
            default:
                line = tr("The mock library is back at its seed: loans, queues, clock and faults.")
            }
            return CommandOutput(lines: [line], json: ["reset": true])
        case "fault"?, "faults"?:
            let (faults, description) = try parseFault(Array(words.dropFirst()))
            try await control.setFaults(faults)
            return CommandOutput(lines: [description], json: ["faults": faults.map { $0.keys.sorted() } ?? []])
        case "state"?:
            let state = try await control.state()
            let data = try JSONSerialization.data(withJSONObject: state, options: [.prettyPrinted, .sortedKeys])
            return CommandOutput(
                lines: String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init),
                json: try? JSONDecoder().decode(JSONValue.self, from: data))
        default:
            throw UserError.usage(
                tr("Usage: mock clock [WHEN] | mock reset | mock fault … | mock state. See help mock."))
        }
    }

    /// What `mock clock WORDS` asks for, with days in words counted from the patron's today (the
    /// real one, or a scenario's).
    /// - Throws: a one-line usage error naming the forms, for words that are none of them.
    static func clockRequest(_ words: [String], session: Session) throws -> ClockRequest {
        let text = words.joined(separator: " ")
        let now = session.library.clock.patronNow()
        guard
            let request = ClockRequest.parse(
                text, today: DayDate(now, in: session.library.clock.timeZone), now: now,
                timeZone: session.library.clock.timeZone)
        else {
            throw UserError.usage(
                tr(
                    "bok cannot tell which day \"{value}\" means. mock clock takes {forms}.",
                    ["value": SafeText.line(text), "forms": ClockRequest.forms]))
        }
        return request
    }

    /// `The mock library's clock is now Tuesday 1 December 2026, 10:00 (6 days from today).`
    static func clockLine(_ date: Date, session: Session) -> String {
        let day = DayDate(date, in: session.library.clock.timeZone)
        return tr(
            "The mock library's clock is now {day} {year}, {time} ({distance}).",
            [
                "day": Words.dayWithWeekday(day), "year": day.year, "time": time(date, session: session),
                "distance": distance(
                    DayDate(session.library.clock.patronNow(), in: session.library.clock.timeZone).days(until: day)),
            ])
    }

    /// `today`, `6 days from today`, `3 days before today`.
    static func distance(_ days: Int) -> String {
        if days == 0 { return tr("today") }
        return days > 0
            ? trn("{n} day from today", "{n} days from today", days)
            : trn("{n} day before today", "{n} days before today", -days)
    }

    static func parseFault(_ words: [String]) throws -> ([String: any Sendable]?, String) {
        guard let kind = words.first?.lowercased() else {
            throw UserError.usage(
                tr(
                    "Say which fault: mock fault latency MS | errors RATE | malformed | drop | drop-after-commit | "
                        + "corrupt-books | cut-books N | hostile | off."))
        }
        switch kind {
        case "off", "none", "clear": return (nil, tr("Faults off: the mock library answers normally."))
        case "latency":
            guard words.count == 2, let ms = Int(words[1]), ms >= 0 else {
                throw UserError.usage(
                    tr("mock fault latency takes milliseconds, e.g. mock fault latency 2000 (2 seconds)."))
            }
            return (
                ["LatencyMs": ms],
                tr("Every library call now waits {ms} ms before answering.", ["ms": ms])
            )
        case "errors", "error-rate":
            guard words.count == 2, let rate = Double(words[1]), (0...1).contains(rate) else {
                throw UserError.usage(tr("mock fault errors takes a rate from 0 to 1, e.g. mock fault errors 0.3."))
            }
            return (
                ["ErrorRate": rate],
                tr(
                    "About {percent}% of library calls now fail as if the library had an internal error.",
                    ["percent": Int(rate * 100)])
            )
        case "malformed", "garbage":
            return (["Malformed": true], tr("Library calls now answer with a web page that bok cannot read."))
        case "drop": return (["Drop": true], tr("Library calls now drop the connection without answering."))
        case "drop-after-commit":
            return (
                ["DropAfterCommit": true],
                tr("Borrowing now makes the loan and then drops the connection, so the answer is lost.")
            )
        case "corrupt-books":
            return (
                ["CorruptContent": true], tr("Book downloads now arrive damaged; bok should refuse them.")
            )
        case "hostile":
            return (
                ["Hostile": true],
                tr(
                    "Titles, names and descriptions now carry terminal escape codes; bok shows them as ␛ and similar, "
                        + "inert.")
            )
        case "cut-books":
            guard words.count == 2, let bytes = Int(words[1]), bytes > 0 else {
                throw UserError.usage(
                    tr("mock fault cut-books takes a number of bytes, e.g. mock fault cut-books 5000."))
            }
            return (
                ["CutContentAfter": bytes],
                trn(
                    "Book downloads now stop after the first {n} byte; the next try resumes.",
                    "Book downloads now stop after the first {n} bytes; the next try resumes.", bytes)
            )
        default:
            throw UserError.usage(
                tr(
                    "Unknown fault \"{kind}\". Faults are latency, errors, malformed, drop, drop-after-commit, "
                        + "corrupt-books, cut-books, hostile, off.",
                    ["kind": SafeText.line(kind)]))
        }
    }

    static func time(_ date: Date, session: Session) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = session.library.clock.timeZone
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0)
    }
}

/// A JSON value as `JSONSerialization` read it, encoded again as itself: `mock state --json` is
/// the mock's state object, not a string holding it.
enum JSONValue: Codable, Sendable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
