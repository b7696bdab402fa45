import Foundation
import Terminal

/// Where the REPL's lines come from: readline at a terminal, a list of lines in tests.
@MainActor
protocol LineSource: AnyObject {
    /// The next line, or nil at end of input (Ctrl-D).
    func readLine(prompt: String) -> String?
    /// Keeps `line` in the history (the source decides whether it has one).
    func remember(_ line: String)
}

/// GNU readline: line editing, persistent history, Ctrl-R and tab completion.
@MainActor
final class ReadlineSource: LineSource {
    /// The editor, shared with the PIN prompt so readline has one state.
    let editor: LineEditor

    init(historyFile: URL?, completer: @escaping @Sendable (_ line: String, _ word: String) -> [String]) {
        editor = LineEditor(historyFile: historyFile)
        editor.setCompleter(completer)
    }

    func readLine(prompt: String) -> String? { editor.readLine(prompt: prompt) }
    func remember(_ line: String) { editor.addHistory(line) }
}

/// Lines given up front, for tests and piped input.
@MainActor
final class ScriptedSource: LineSource {
    private var lines: [String]
    /// Lines that would have gone into the history.
    private(set) var history: [String] = []

    init(_ lines: [String]) { self.lines = lines }

    func readLine(prompt: String) -> String? { lines.isEmpty ? nil : lines.removeFirst() }
    func remember(_ line: String) { history.append(line) }
}
