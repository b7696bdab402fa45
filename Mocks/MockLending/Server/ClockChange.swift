import Catalog
import Foundation

/// A move of the virtual clock, as `POST /mock/clock` takes it: `{"Advance": "14d"}` or
/// `{"Set": "2026-12-01T10:00:00Z"}`.
enum ClockChange: Sendable, Hashable {
    /// Forward by this many seconds.
    case advance(TimeInterval)
    /// To this moment.
    case set(Date)

    /// What to tell a tester whose body this is not.
    static let usage =
        #"Send {"Advance": "14d"} (units d, h and m, e.g. "1d12h" or "90m") or {"Set": "2026-12-01T10:00:00Z"}."#

    /// The latest time the clock may be moved to. Loans and reservations fall due weeks after
    /// the clock, and a due date in the year 10000 has no four-digit ISO 8601 form that clients
    /// can read, so the clock stops a year short of that.
    static let latest = Date(timeIntervalSince1970: 253_370_764_800)  // 9999-01-01T00:00:00Z

    /// Why a move past `latest` is refused.
    static let tooLate =
        """
        The clock goes no later than 9999-01-01 (loans made later would fall due in the year 10000); pick an \
        earlier date
        """

    /// Reads a JSON body.
    /// - Throws: a reason for the tester when the body is neither form.
    init(json: Data) throws(APIFailure) {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw .badRequest(Said(verbatim: Self.usage))
        }
        if let text = object["Advance"] as? String, object["Set"] == nil {
            guard let seconds = Self.seconds(text) else {
                throw .badRequest(Said(verbatim: "\"\(text)\" is not a time to advance by. " + Self.usage))
            }
            self = .advance(seconds)
        } else if let text = object["Set"] as? String, object["Advance"] == nil {
            guard let date = Timestamp.parse(text) else {
                throw .badRequest(Said(verbatim: "\"\(text)\" is not an ISO 8601 time. " + Self.usage))
            }
            self = .set(date)
        } else {
            throw .badRequest(Said(verbatim: Self.usage))
        }
    }

    /// Seconds in `14d`, `3h`, `90m` or a sequence of them (`1d12h30m`); nil when malformed.
    static func seconds(_ text: String) -> TimeInterval? {
        var total: TimeInterval = 0
        var number = ""
        var sawUnit = false
        for character in text where !character.isWhitespace {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            guard let value = Double(number), number.count <= 9 else { return nil }
            switch character.lowercased() {
            case "d": total += value * 86_400
            case "h": total += value * 3_600
            case "m": total += value * 60
            default: return nil
            }
            number = ""
            sawUnit = true
        }
        return number.isEmpty && sawUnit ? total : nil
    }
}
