import Foundation
import Localization

/// `bok study report DIR`: every participant's recording of a study (`bok study run`) summed up
/// per task and per participant — success, time on task, errors, help, hesitations — with each
/// participant's System Usability Scale score and the mean.
struct StudyReport: Sendable {
    /// A pause before a line longer than this many seconds counts as a hesitation.
    static let hesitation = 10.0

    /// One participant's try at one task.
    struct Attempt: Sendable, Encodable, Equatable {
        var task: String
        var outcome: TaskOutcome
        var seconds: Double
        var commands = 0
        /// Commands that printed an error: refusals, unknown commands and all.
        var errors = 0
        /// Commands bok did not know (`serch`); `suggested` of them got "Did you mean …?".
        var unknown = 0
        var suggested = 0
        var help = 0
        /// Pauses over ``StudyReport/hesitation`` seconds before a line.
        var hesitations = 0
        /// Notes made during the task: `# notes` typed at the prompt, as typed, and the moderator's
        /// `bok study note`s, each after the time of day it was sent (`10:02:15 hesitated at PIN`).
        var notes: [String] = []
    }

    /// One recording.
    struct Participant: Sendable, Encodable {
        var participant: String
        var file: String
        var attempts: [Attempt]
        /// The ten answers, when the participant gave them all.
        var sus: [Int]?
        /// The moderator's notes sent while no task was under way (before the first, during the SUS).
        var notes: [String] = []
        var susScore: Double? { sus.flatMap(SystemUsabilityScale.score) }
        var successes: Int { attempts.filter { $0.outcome == .success }.count }

        enum CodingKeys: String, CodingKey { case participant, file, attempts, notes, sus, susScore }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(participant, forKey: .participant)
            try c.encode(file, forKey: .file)
            try c.encode(attempts, forKey: .attempts)
            try c.encode(notes, forKey: .notes)
            try c.encodeIfPresent(sus, forKey: .sus)
            try c.encodeIfPresent(susScore, forKey: .susScore)
        }
    }

    /// One task over every participant who tried it.
    struct TaskSummary: Sendable, Encodable, Equatable {
        var title: String
        var attempts: Int
        var successes: Int
        /// Successes over attempts, 0 to 1.
        var successRate: Double
        /// Time on task, seconds: the median, the shortest and the longest.
        var median: Double
        var shortest: Double
        var longest: Double
        var errors: Int
        var unknown: Int
        var suggested: Int
        var help: Int
        var hesitations: Int
        /// How many ended each way, by outcome.
        var outcomes: [String: Int]
        /// Every participant's notes on this task, `P3: hesitated at PIN`.
        var notes: [String] = []
    }

    var study: String
    /// The study's language (`sv`, `en`), in which the report is written.
    var language: String
    var participants: [Participant]
    var tasks: [TaskSummary]
    /// The mean of the participants' SUS scores, when any answered.
    var meanSUS: Double?

    /// Reads every recording of a study in `folder` (`*.jsonl`, in name order).
    /// - Throws: `UserError` when the folder holds none, or they are of different studies.
    static func read(folder: String) throws -> StudyReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UserError(
                tr("There is no folder {folder}. Give the folder of bok study run --out.", ["folder": folder]))
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".jsonl") }.sorted()
        var recordings: [Recording] = []
        for name in names {
            let recording = try Recording.read(file: (folder as NSString).appendingPathComponent(name), screens: false)
            if recording.events.first?.study != nil { recordings.append(recording) }
        }
        guard !recordings.isEmpty else {
            throw UserError(
                tr(
                    "{folder} holds no recordings of a study. "
                        + "Run one with bok study run FILE --participant P1 --out {folder}.",
                    ["folder": folder]))
        }
        let studies = Set(recordings.compactMap { $0.events.first?.study })
        guard studies.count == 1 else {
            throw UserError(
                tr(
                    "{folder} holds recordings of more than one study ({studies}); "
                        + "give each study a folder of its own.",
                    ["folder": folder, "studies": studies.sorted().joined(separator: ", ")]))
        }
        return StudyReport(recordings)
    }

    init(_ recordings: [Recording]) {
        let first = recordings.first?.events.first
        study = first?.study ?? ""
        language = first?.language ?? "en"
        let participants = recordings.map(Self.participant)
        self.participants = participants
        var titles: [String] = []
        for attempt in participants.flatMap(\.attempts) where !titles.contains(attempt.task) {
            titles.append(attempt.task)
        }
        tasks = titles.map { title in
            let attempts = participants.flatMap(\.attempts).filter { $0.task == title }
            let times = attempts.map(\.seconds)
            var outcomes: [String: Int] = [:]
            for attempt in attempts { outcomes[attempt.outcome.rawValue, default: 0] += 1 }
            let successes = attempts.filter { $0.outcome == .success }.count
            return TaskSummary(
                title: title, attempts: attempts.count, successes: successes,
                successRate: attempts.isEmpty ? 0 : Double(successes) / Double(attempts.count),
                median: Self.median(times), shortest: times.min() ?? 0, longest: times.max() ?? 0,
                errors: attempts.reduce(0) { $0 + $1.errors }, unknown: attempts.reduce(0) { $0 + $1.unknown },
                suggested: attempts.reduce(0) { $0 + $1.suggested }, help: attempts.reduce(0) { $0 + $1.help },
                hesitations: attempts.reduce(0) { $0 + $1.hesitations }, outcomes: outcomes,
                notes: participants.flatMap { p in
                    p.attempts.filter { $0.task == title }.flatMap { $0.notes.map { p.participant + ": " + $0 } }
                })
        }
        let scores = participants.compactMap(\.susScore)
        meanSUS = scores.isEmpty ? nil : scores.reduce(0, +) / Double(scores.count)
    }

    /// A recording's tasks: from each task's marker to the marker that ends it with an outcome.
    static func participant(_ recording: Recording) -> Participant {
        let start = recording.events.first
        let name =
            start?.participant ?? ((recording.file as NSString).lastPathComponent as NSString).deletingPathExtension
        var attempts: [Attempt] = []
        var sus: [Int]?
        var between: [String] = []
        var current: (attempt: Attempt, began: Date)?
        for event in recording.events {
            switch event.event {
            case .marker:
                // A study's task starts with its instruction; a tester's `# task:` typed at the prompt does not.
                if let title = event.task, event.instruction != nil, let date = event.date {
                    current = (Attempt(task: title, outcome: .gaveUp, seconds: 0), date)
                } else if var open = current, let outcome = event.outcome {
                    open.attempt.outcome = outcome
                    open.attempt.seconds = event.date.map { $0.timeIntervalSince(open.began) } ?? 0
                    if (event.think ?? 0) > hesitation { open.attempt.hesitations += 1 }
                    attempts.append(open.attempt)
                    current = nil
                }
            case .command:
                guard current != nil else { continue }
                current!.attempt.commands += 1
                if event.errors?.isEmpty == false { current!.attempt.errors += 1 }
                if event.unknown == true { current!.attempt.unknown += 1 }
                if event.suggested == true { current!.attempt.suggested += 1 }
                if event.help == true { current!.attempt.help += 1 }
                if (event.think ?? 0) > hesitation { current!.attempt.hesitations += 1 }
            case .sus:
                sus = event.sus
            case .note:
                guard var line = event.line else { continue }
                if event.moderator == true {
                    line = (event.date.map(RecordingSummary.clock).map { $0 + " " } ?? "") + line
                }
                if current != nil {
                    current!.attempt.notes.append(line)
                } else if event.moderator == true {
                    between.append(line)
                }
            case .start, .end:
                continue
            }
        }
        // A sitting that ended abruptly (bok killed, the terminal closed) leaves its task open: given
        // up, at the last moment the recording knows of.
        if var open = current, let last = recording.events.last?.date {
            open.attempt.seconds = last.timeIntervalSince(open.began)
            attempts.append(open.attempt)
        }
        return Participant(
            participant: name, file: recording.file, attempts: attempts,
            sus: sus.flatMap { SystemUsabilityScale.score($0) == nil ? nil : $0 }, notes: between)
    }

    /// The middle value (the mean of the two middle ones for an even count); 0 for none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
