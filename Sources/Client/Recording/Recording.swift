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
        /// Any other `# …` line the tester typed, or a moderator's `bok study note` (``RecordedEvent/moderator``).
        case note
        /// The session ended (quit or Ctrl-D).
        case end
        /// `bok study run`: the participant's System Usability Scale answers.
        case sus
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
    /// `command`: the command's name is none bok knows (`serch`).
    var unknown: Bool?
    /// `command`: an unknown command for which bok said "Did you mean …?".
    var suggested: Bool?
    /// `start` of `bok study run`: the study's name, the participant and their language.
    var study: String?
    var participant: String?
    var language: String?
    /// `marker` starting a study's task: the instruction the participant was shown.
    var instruction: String?
    /// `marker` ending a study's task: how it ended (`success`, `failed`, `gave up`, `timed out`).
    var outcome: TaskOutcome?
    /// `marker` starting a study's task: its time limit in seconds.
    var limit: Double?
    /// `sus`: the ten answers, 1 to 5, in the order of the statements.
    var sus: [Int]?
    /// `note`: true for a note the moderator sent with `bok study note` (its `line` is the note,
    /// its `task` the task then under way); the participant never saw it.
    var moderator: Bool?

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
    ///
    /// Read as a stream, a megabyte at a time: a recording of a long session may hold gigabytes of
    /// screens, which a summary does not need (with `screens: false` each event's `shown` is
    /// dropped as it is read, and its `errors` but the first), so memory stays with the events.
    static func read(file path: String, screens: Bool = true) throws -> Recording {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw UserError(tr("There is no recording {file}. Make one with bok --record {file}.", ["file": path]))
        }
        defer { try? handle.close() }
        let decoder = JSONDecoder()
        var events: [RecordedEvent] = []
        var number = 0
        func take(_ line: ArraySlice<UInt8>) throws {
            number += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
            guard var event = try? decoder.decode(RecordedEvent.self, from: Data(line)), event.date != nil,
                events.isEmpty == (event.event == .start)
            else {
                throw UserError(
                    events.isEmpty
                        ? tr(
                            "{file} is not a recording made with bok --record (it does not begin as one does).",
                            ["file": path])
                        : "\(path):\(number): " + tr("not a line bok --record writes. Is this a recording?"))
            }
            if !screens {
                event.shown = nil
                event.errors = event.errors.map { Array($0.prefix(1)) }
            }
            events.append(event)
        }
        var pending: [UInt8] = []
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            pending += chunk
            var start = 0
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                try take(pending[start..<newline])
                start = newline + 1
            }
            pending.removeFirst(start)
            guard pending.count <= Self.longestLine else {
                throw UserError(
                    "\(path):\(number + 1): " + tr("not a line bok --record writes. Is this a recording?"))
            }
        }
        if !pending.isEmpty { try take(pending[...]) }
        guard !events.isEmpty else {
            throw UserError(
                tr("{file} is not a recording made with bok --record (it does not begin as one does).", ["file": path]))
        }
        return Recording(file: path, events: events)
    }

    /// The longest line a recording may have: one command's screen, far above any real one.
    static let longestLine = 64 << 20
}
