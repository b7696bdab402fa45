import Terminal

/// Asks the patron for their card and PIN, when there is someone to ask.
@MainActor
protocol PatronPrompt: AnyObject {
    /// Asks a visible question (the card number); nil when cancelled.
    func ask(_ prompt: String) -> String?
    /// Asks for a secret with echo off (the PIN); nil when cancelled.
    func askSecret(_ prompt: String) -> String?
}

/// Asks at the terminal: the card through readline (kept out of the history), the PIN with echo off.
@MainActor
final class TerminalPatronPrompt: PatronPrompt {
    private let editor: LineEditor

    init(editor: LineEditor) { self.editor = editor }

    func ask(_ prompt: String) -> String? { editor.readLine(prompt: prompt, cancelOnInterrupt: true) }
    func askSecret(_ prompt: String) -> String? { editor.readSecret(prompt: prompt) }
}

/// Answers given up front, for scenarios and tests.
@MainActor
final class ScriptedPatronPrompt: PatronPrompt {
    var answers: [String]
    var secrets: [String]
    /// Prompts shown, in order (never the answers).
    private(set) var asked: [String] = []

    init(answers: [String] = [], secrets: [String] = []) {
        self.answers = answers
        self.secrets = secrets
    }

    func ask(_ prompt: String) -> String? {
        asked.append(prompt)
        return answers.isEmpty ? nil : answers.removeFirst()
    }

    func askSecret(_ prompt: String) -> String? {
        asked.append(prompt)
        return secrets.isEmpty ? nil : secrets.removeFirst()
    }
}
