import Foundation
import Localization
import Terminal
import TextSafety

/// Asks the patron for their card and PIN, when there is someone to ask.
@MainActor
protocol PatronPrompt: AnyObject {
    /// Asks a visible question (the card number); nil when cancelled.
    func ask(_ prompt: String) -> String?
    /// Asks for a secret with echo off (the PIN); nil when cancelled.
    func askSecret(_ prompt: String) -> String?
    /// Asks a yes-or-no question (`Return “Title” now? [y/N] `); nil when there is nobody to ask.
    func confirm(_ question: String) -> Bool?
    /// Shows a line before the questions that follow (a catalogue's words about its login).
    func tell(_ line: String)
    /// Whether `text` is a secret answered here in this session, right or wrong: typed again at the
    /// command prompt by mistake, it is kept out of the history.
    func answeredSecret(_ text: String) -> Bool
}

extension PatronPrompt {
    func answeredSecret(_ text: String) -> Bool { false }
}

/// Asks at the terminal: the card through readline (kept out of the history), the PIN with echo off.
@MainActor
final class TerminalPatronPrompt: PatronPrompt {
    private let editor: LineEditor

    /// The secrets typed here (in memory only).
    private var answered: Set<String> = []

    init(editor: LineEditor) { self.editor = editor }

    func ask(_ prompt: String) -> String? { editor.readLine(prompt: fitted(prompt), cancelOnInterrupt: true) }

    func askSecret(_ prompt: String) -> String? {
        let answer = editor.readSecret(prompt: fitted(prompt))
        if let answer, !answer.isEmpty { answered.insert(answer.trimmingCharacters(in: .whitespaces)) }
        return answer
    }

    func answeredSecret(_ text: String) -> Bool { answered.contains(text) }

    /// A line of its own, wrapped between words at the window's width (a refusal before the
    /// question is asked again must not run into it, or be broken mid-word by the terminal).
    func tell(_ line: String) {
        let text = Self.wrapped(line).joined(separator: "\n")
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// A question wider than the window: its first lines told, wrapped between words; the last
    /// line (with the space the answer follows) is the prompt.
    private func fitted(_ prompt: String) -> String {
        var lines = Self.wrapped(prompt)
        guard lines.count > 1, var last = lines.popLast() else { return prompt }
        for line in lines { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        if prompt.hasSuffix(" "), !last.hasSuffix(" ") { last += " " }
        return last
    }

    /// `line` made safe and wrapped to the terminal's width (whole when output is not a terminal).
    private static func wrapped(_ line: String) -> [String] {
        let width = isatty(STDOUT_FILENO) == 1 ? TerminalSize.current(fd: STDOUT_FILENO).columns : 0
        return DisplayWidth.wrapLine(SafeText.guardingOutput(line), width: width)
    }

    /// Yes only for y or yes (or yes in any language bok speaks: the Swedish j, ja); Return,
    /// anything else or Ctrl-C is no.
    func confirm(_ question: String) -> Bool? {
        guard let answer = editor.readLine(prompt: question, cancelOnInterrupt: true) else { return false }
        let word = answer.trimmingCharacters(in: .whitespaces)
        return Self.yes.contains { $0.isNamed(word) }
    }

    /// Yes, as a patron answers a question, marked for the catalogues.
    static let yes = [TypedWord("typed: answer", "y"), TypedWord("typed: answer", "yes")]
}

/// Answers given up front, for scenarios and tests.
@MainActor
final class ScriptedPatronPrompt: PatronPrompt {
    var answers: [String]
    var secrets: [String]
    /// Answers to yes-or-no questions; with none left, there is nobody to ask (as when piped).
    var confirmations: [Bool] = []
    /// Prompts shown, in order (never the answers).
    private(set) var asked: [String] = []
    /// Lines shown before the prompts (``tell(_:)``), in order.
    private(set) var told: [String] = []

    init(answers: [String] = [], secrets: [String] = []) {
        self.answers = answers
        self.secrets = secrets
    }

    func ask(_ prompt: String) -> String? {
        asked.append(prompt)
        return answers.isEmpty ? nil : answers.removeFirst()
    }

    /// The secrets handed out so far.
    private var given: Set<String> = []

    func askSecret(_ prompt: String) -> String? {
        asked.append(prompt)
        guard !secrets.isEmpty else { return nil }
        given.insert(secrets[0])
        return secrets.removeFirst()
    }

    func answeredSecret(_ text: String) -> Bool { given.contains(text) }

    func tell(_ line: String) { told.append(line) }

    func confirm(_ question: String) -> Bool? {
        guard !confirmations.isEmpty else { return nil }
        asked.append(question)
        return confirmations.removeFirst()
    }
}
