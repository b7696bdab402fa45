import Catalog
import Foundation
import Localization
import Terminal

/// `mock clock|reset|fault|state`: rehearsing with the mock library. Refused against a real one.
@MainActor
enum MockCommand {
    nonisolated static let mock = Command(
        name: "mock",
        synopsis: N_("mock clock [+14d|+3h|DATE] | mock reset | mock fault … | mock state"),
        summary: N_("Control the mock library: move its clock, reset it, inject faults, show its state"),
        details: [
            "mock clock            shows the library's date and time",
            "mock clock +14d       moves it 14 days on (h and m work too): loans run out, reservations come due",
            "mock clock 2026-12-24 sets it",
            "mock reset            back to the seed: loans, queues, clock and faults",
            "mock fault latency 2000 | errors 0.3 | malformed | drop | drop-after-commit | off",
            "mock fault corrupt-books | cut-books 5000   damaged or cut-off book downloads",
            "mock fault hostile    titles, names and descriptions carry terminal escape codes (shown inert)",
            "mock state            loans and queues as the library sees them",
            "Only with bok --mock or a bok mock-server; a real library refuses these.",
        ],
        completion: .words(
            ["clock", "reset", "fault", "state"],
            then: [
                "latency", "errors", "malformed", "drop", "drop-after-commit", "corrupt-books", "cut-books", "hostile",
                "off",
            ]),
        run: { arguments, session in
            let control = try await session.mockControl()
            let words = arguments.positional
            switch words.first?.lowercased() {
            case "clock"?:
                let date = words.count > 1 ? try await control.moveClock(words[1]) : try await control.now()
                session.followLibraryClock(date)
                // Loans ran out and reservations came due meanwhile: the shelf follows, and says what changed.
                if words.count > 1 { await session.syncAfterChange() }
                let today = session.today
                return CommandOutput(
                    lines: [
                        """
                        The mock library's clock: \(Words.dayWithWeekday(today)) \(today.year), \
                        \(time(date, session: session)).
                        """
                    ],
                    json: ["now": Timestamp.format(date)])
            case "reset"?:
                try await control.reset()
                session.followLibraryClock(try await control.now())
                session.lists.loanList = []
                session.lists.reservationList = []
                await session.syncAfterChange()
                _ = session.notices.take()  // the seed's state is a fresh start, not news
                return CommandOutput(
                    lines: ["The mock library is back at its seed: loans, queues, clock and faults."],
                    json: ["reset": true])
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
                    "Usage: mock clock [+14d|DATE] | mock reset | mock fault … | mock state. See help mock.")
            }
        })

    static func parseFault(_ words: [String]) throws -> ([String: any Sendable]?, String) {
        guard let kind = words.first?.lowercased() else {
            throw UserError.usage(
                """
                Say which fault: mock fault latency MS | errors RATE | malformed | drop | drop-after-commit | \
                corrupt-books | cut-books N | hostile | off.
                """
            )
        }
        switch kind {
        case "off", "none", "clear": return (nil, "Faults off: the mock library answers normally.")
        case "latency":
            guard words.count == 2, let ms = Int(words[1]), ms >= 0 else {
                throw UserError.usage("mock fault latency takes milliseconds, e.g. mock fault latency 2000.")
            }
            return (["LatencyMs": ms], "Every library call now waits \(ms) ms before answering.")
        case "errors", "error-rate":
            guard words.count == 2, let rate = Double(words[1]), (0...1).contains(rate) else {
                throw UserError.usage("mock fault errors takes a rate from 0 to 1, e.g. mock fault errors 0.3.")
            }
            return (["ErrorRate": rate], "About \(Int(rate * 100))% of library calls now fail with HTTP 500.")
        case "malformed", "garbage":
            return (["Malformed": true], "Library calls now answer with an HTML page instead of JSON.")
        case "drop": return (["Drop": true], "Library calls now drop the connection without answering.")
        case "drop-after-commit":
            return (
                ["DropAfterCommit": true],
                "Borrowing now makes the loan and then drops the connection, so the answer is lost."
            )
        case "corrupt-books":
            return (["CorruptContent": true], "Book downloads now arrive with a damaged byte; bok should refuse them.")
        case "hostile":
            return (
                ["Hostile": true],
                """
                Titles, names and descriptions now carry terminal escape codes; bok shows them as ␛ and similar, \
                inert.
                """
            )
        case "cut-books":
            guard words.count == 2, let bytes = Int(words[1]), bytes > 0 else {
                throw UserError.usage("mock fault cut-books takes a number of bytes, e.g. mock fault cut-books 5000.")
            }
            return (["CutContentAfter": bytes], "Book downloads now stop after \(bytes) bytes; the next try resumes.")
        default:
            throw UserError.usage(
                """
                Unknown fault \"\(kind)\". Faults are latency, errors, malformed, drop, drop-after-commit, \
                corrupt-books, cut-books, hostile, off.
                """
            )
        }
    }

    static func time(_ date: Date, session: Session) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = session.timeZone
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
