/// What running one scenario file showed: per task, per step, the screen and any failed expectation.
///
/// `Encodable` so that `--json` is this structure as it is; reports are drawn from it.
struct ScenarioResult: Sendable, Encodable {
    var file: String
    var name: String
    /// Seconds for the whole file, the mock library's start included.
    var seconds: Double
    /// Why nothing could run (the mock did not start, the PIN could not be found); nil when it ran.
    var setupError: String?
    var tasks: [TaskResult]
    /// The language the scenario ran in (`language:`), which its part of the summary is in too.
    var language = "en"

    /// True when it ran and every task passed.
    var passed: Bool { setupError == nil && tasks.allSatisfy(\.passed) }

    enum CodingKeys: String, CodingKey {
        case file, name, seconds, setupError, tasks, passed
    }

    init(file: String, name: String, seconds: Double = 0, setupError: String? = nil, tasks: [TaskResult] = []) {
        self.file = file
        self.name = name
        self.seconds = seconds
        self.setupError = setupError
        self.tasks = tasks
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(name, forKey: .name)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(setupError, forKey: .setupError)
        try c.encode(tasks, forKey: .tasks)
        try c.encode(passed, forKey: .passed)
    }
}

/// One task of a scenario.
struct TaskResult: Sendable, Encodable {
    var title: String
    /// The line of `task:`.
    var line: Int
    var passed: Bool
    /// Seconds from its first step to the end of its last.
    var seconds: Double
    /// The steps that ran; after a failed step the task's other steps do not run.
    var steps: [StepResult]
    /// Steps left out after a failure, as `> command` lines.
    var notRun: [String]

    /// The first failure, for summaries.
    var firstFailure: (step: StepResult, failure: ExpectationFailure)? {
        for step in steps { if let failure = step.failures.first { return (step, failure) } }
        return nil
    }
}

/// One `> command` and what followed it.
struct StepResult: Sendable, Encodable {
    /// The line of `>`.
    var line: Int
    /// The command as typed.
    var command: String
    /// The screen after it, without colour: prompts answered, answer lines, error lines.
    var screen: [String]
    /// The error lines among them.
    var errors: [String]
    var seconds: Double
    var failures: [ExpectationFailure]
}

/// An expectation that did not hold: what was expected, and what the screen showed instead.
struct ExpectationFailure: Sendable, Encodable {
    /// The line of the expectation (or of the step, for an unexpected error).
    var line: Int
    /// The expectation as written, e.g. `contains: Borrowed`.
    var expected: String
    /// What was wrong, in words.
    var message: String
    /// The text looked at when it is not the step's screen (a `shelf:` expectation runs `shelf`).
    var shown: [String]?
}
