import Catalog
import Foundation
import Localization
import Terminal
import TextSafety

/// `loans --ics`: the loans' last days as an iCalendar file (RFC 5545) that a calendar program
/// imports (khal, Thunderbird, GNOME Calendar, a phone's calendar): one all-day event per loan
/// on its last day, with a reminder the day before, as Libby puts due dates in a calendar.
///
/// Written here rather than with a library: no Swift package on this machine writes iCalendar,
/// and the part bok needs — a few properties, text escaping and line folding — is small.
struct LoanCalendar {
    /// The library's name, in the calendar's name and each event's description.
    let library: String
    /// The library's host, which makes each event's UID unique across libraries.
    let host: String
    /// When the calendar was made (DTSTAMP).
    let now: Date

    /// The whole calendar, lines ending in CRLF as RFC 5545 asks.
    func text(_ loans: [Loan]) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bok//bok \(Bok.version)//EN", "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH", "X-WR-CALNAME:" + Self.escaped(tr("Loans at {library}", ["library": library])),
        ]
        for loan in loans { lines += event(loan) }
        lines.append("END:VCALENDAR")
        return lines.flatMap(Self.folded).map { $0 + "\r\n" }.joined()
    }

    private func event(_ loan: Loan) -> [String] {
        // A calendar shows any character: quoted as the interface language quotes.
        let title = Marks(unicode: true).quoted(SafeText.line(loan.title))
        let summary = tr("Last day of {title}", ["title": title])
        let description = tr(
            "Your loan of {title} from {library} ends at the end of this day.", ["title": title, "library": library])
        return [
            "BEGIN:VEVENT",
            "UID:" + Self.escaped("loan-\(loan.id)@\(host)"),
            "DTSTAMP:" + Self.stamp(now),
            "DTSTART;VALUE=DATE:" + Self.day(loan.expiryDate),
            "DTEND;VALUE=DATE:" + Self.day(loan.expiryDate.adding(days: 1)),
            "SUMMARY:" + Self.escaped(summary),
            "DESCRIPTION:" + Self.escaped(description),
            // An all-day reminder, not a busy day.
            "TRANSP:TRANSPARENT",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + Self.escaped(summary), "TRIGGER:-P1D", "END:VALARM",
            "END:VEVENT",
        ]
    }

    /// `20261219`.
    static func day(_ day: DayDate) -> String { String(format: "%04d%02d%02d", day.year, day.month, day.day) }

    /// `20261128T143000Z`.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0,
            c.second ?? 0)
    }

    /// A TEXT value (RFC 5545 3.3.11): backslash, semicolon, comma and line breaks escaped, other
    /// controls dropped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case _ where scalar.properties.generalCategory == .control: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A content line folded after at most 75 octets (RFC 5545 3.1), never inside a character:
    /// each continuation starts with a space.
    static func folded(_ line: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var octets = 0
        for character in line {
            let size = character.utf8.count
            // The first line holds 75 octets; a continuation 74 after its leading space.
            if octets + size > 75 {
                lines.append(current)
                current = " "
                octets = 1
            }
            current.append(character)
            octets += size
        }
        lines.append(current)
        return lines
    }
}
