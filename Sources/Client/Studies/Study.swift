import Foundation
import Localization

/// A usability study: the tasks each participant is given, with an instruction in the
/// participant's language, a condition bok checks when they say they are done, and a time limit.
///
/// A study file is of the scenario format's family (docs/studies.md); `StudyParser` reads it.
struct Study: Sendable, Equatable {
    /// The file it was read from, as given on the command line.
    var file: String
    /// `study: NAME`.
    var name: String
    /// The mock library and patron, as a scenario's setup; `language:` is the participant's.
    var setup: Scenario.Setup
    var tasks: [StudyTask]
}

/// `task: TITLE` with its instruction, success condition and time limit.
struct StudyTask: Sendable, Equatable {
    var title: String
    /// The line of `task:`.
    var line: Int
    /// What the participant is told, in their language (`instruction:` lines, joined).
    var instruction: String
    /// What must hold when the participant types `done` (all of them).
    var success: [StudyCondition]
    /// Seconds the participant has; the first line typed after it ends the task as timed out.
    var timeLimit: Double

    /// Ten minutes, when the file gives none.
    static let defaultTimeLimit = 600.0
}

/// A task's success condition (`success:`), checked when the participant says done.
enum StudyCondition: Sendable, Equatable {
    /// `shelf: TITLE | BADGE` or `not shelf: TITLE`: what `shelf` shows, as in a scenario.
    case shelf(Expectation.Kind)
    /// `reading: TITLE | CHAPTER`: the book's place is in a chapter whose title has CHAPTER.
    case reading(title: String, chapter: String)
    /// `highlight: TITLE`: the book has a highlight.
    case highlight(title: String)
}

/// How a task ended for one participant.
enum TaskOutcome: String, Sendable, Codable, CaseIterable {
    /// `done`, and the condition held.
    case success
    /// `done`, but the condition did not hold.
    case failed
    /// `give up` (or `quit`, or the end of input).
    case gaveUp = "gave up"
    /// The time limit had passed when the participant next typed a line.
    case timedOut = "timed out"

    /// The outcome in words of the interface language.
    var inWords: String {
        switch self {
        case .success: tr("success")
        case .failed: tr("not done")
        case .gaveUp: tr("gave up")
        case .timedOut: tr("timed out")
        }
    }
}

/// The System Usability Scale (John Brooke, 1986): ten statements, each answered from 1
/// (strongly disagree) to 5 (strongly agree), scored 0 to 100.
enum SystemUsabilityScale {
    /// The ten statements in the interface language: Brooke's in English; in Swedish, the wording
    /// Swedish usability testers use (to be checked against the validated version of Åvik Persson
    /// et al., JMIR Human Factors 2025, before a formal study: docs/studies.md).
    static var statements: [String] {
        [
            tr("I think that I would like to use this system frequently."),
            tr("I found the system unnecessarily complex."),
            tr("I thought the system was easy to use."),
            tr("I think that I would need the support of a technical person to be able to use this system."),
            tr("I found the various functions in this system were well integrated."),
            tr("I thought there was too much inconsistency in this system."),
            tr("I would imagine that most people would learn to use this system very quickly."),
            tr("I found the system very cumbersome to use."),
            tr("I felt very confident using the system."),
            tr("I needed to learn a lot of things before I could get going with this system."),
        ]
    }

    /// The published arithmetic: odd items score − 1, even items 5 − score, the sum × 2.5;
    /// nil unless there are ten answers from 1 to 5.
    static func score(_ answers: [Int]) -> Double? {
        guard answers.count == 10, answers.allSatisfy({ (1...5).contains($0) }) else { return nil }
        let sum = answers.enumerated().reduce(0) { total, item in
            total + (item.offset % 2 == 0 ? item.element - 1 : 5 - item.element)
        }
        return Double(sum) * 2.5
    }
}
