import Catalog
import Foundation
import Localization

/// One line of a recording (`bok --record FILE`): a JSON object per event, so a recording can
/// be read while it is still being written and survives a session that ends abruptly.
struct RecordedEvent: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        /// The session began.
        case start
        /// A command was typed and run.
        case command
        /// `# task: TITLE` starts a task; `# end` ends one.
        case marker
        /// Any other `# …` line the tester typed.
        case note
        /// The session ended (quit or Ctrl-D).
        case end
    }

    var event: Kind
    /// When it happened (ISO 8601, with milliseconds).
    var at: String
    /// `start`: bok's version and the library's name.
    var bok: String?
    var library: String?
    /// `command`, `marker`, `note`: the line as typed, PINs as `••••`.
    var line: String?
    /// Seconds the patron took before pressing Enter, from the moment the prompt appeared.
    var think: Double?
    /// `command`: seconds the command took.
    var seconds: Double?
    /// `command`: what the screen showed, colour removed: answered prompts, answer lines, errors.
    var shown: [String]?
    /// `command`: the error lines among them.
    var errors: [String]?
    /// `command`: true for a use of `help`.
    var help: Bool?
    /// `marker`: the task's title, or nil for `# end`.
    var task: String?

    init(_ event: Kind, at: Date) {
        self.event = event
        // Milliseconds: think times of a fraction of a second matter.
        self.at = at.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The moment of `at`.
    var date: Date? { Timestamp.parse(at) }
}

/// A recording read back for `bok scenario report`.
struct Recording: Sendable {
    var file: String
    var events: [RecordedEvent]

    /// Reads a recording; a line that is not an event names its line number.
    static func read(file path: String) throws -> Recording {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UserError(tr("There is no recording {file}. Make one with bok --record {file}.", ["file": path]))
        }
        let decoder = JSONDecoder()
        var events: [RecordedEvent] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            guard let event = try? decoder.decode(RecordedEvent.self, from: Data(line.utf8)), event.date != nil else {
                throw UserError(
                    "\(path):\(index + 1): " + tr("not a line bok --record writes. Is this a recording?"))
            }
            events.append(event)
        }
        guard events.first?.event == .start else {
            throw UserError(
                tr(
                    "{file} is not a recording made with bok --record (it does not begin as one does).",
                    ["file": path]))
        }
        return Recording(file: path, events: events)
    }
}
