import Foundation
import Testing

@testable import Terminal

@Suite("Line editor history and prompts")
struct LineEditorTests {
    /// A history file in a fresh folder that does not exist yet.
    static func temporaryHistoryFile() -> URL {
        FileManager.default.temporaryDirectory
            .appending(path: "bok-terminal-tests-\(UUID().uuidString)", directoryHint: .isDirectory)
            .appending(path: "nested/history", directoryHint: .notDirectory)
    }

    static func fileLines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    @Test("Accepted lines go to history and to the file, which a new editor reads back")
    func historyPersists() throws {
        let file = Self.temporaryHistoryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }

        let editor = LineEditor(historyFile: file)
        #expect(editor.history.isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.path(percentEncoded: false)))
        #expect(editor.addHistory("search author:Lindgren"))
        #expect(editor.addHistory("borrow 3"))
        #expect(editor.addHistory("info 3"))
        #expect(try Self.fileLines(file) == ["search author:Lindgren", "borrow 3", "info 3"])

        let reopened = LineEditor(historyFile: file)
        #expect(reopened.history == ["search author:Lindgren", "borrow 3", "info 3"])
    }

    @Test("Empty lines, repeats and lines typed with a leading space are not recorded")
    func historyFilters() throws {
        let file = Self.temporaryHistoryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }

        let editor = LineEditor(historyFile: file)
        #expect(editor.addHistory("shelf"))
        #expect(!editor.addHistory("shelf"))
        #expect(!editor.addHistory(""))
        #expect(!editor.addHistory("   "))
        #expect(!editor.addHistory(" pin 1234"))
        #expect(!editor.addHistory("two\nlines"))
        #expect(editor.addHistory("search Åsa"))
        #expect(editor.addHistory("shelf"))  // not consecutive any more
        #expect(editor.history == ["shelf", "search Åsa", "shelf"])
        #expect(try Self.fileLines(file) == ["shelf", "search Åsa", "shelf"])
        #expect(try !String(contentsOf: file, encoding: .utf8).contains("1234"))

        // The repeat check also holds against the last line loaded from the file.
        let reopened = LineEditor(historyFile: file)
        #expect(!reopened.addHistory("shelf"))
    }

    @Test("History is capped in memory and in the file, keeping the newest lines")
    func historyCapped() throws {
        let file = Self.temporaryHistoryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }

        let editor = LineEditor(historyFile: file, maxHistory: 3)
        for number in 1...5 { editor.addHistory("info \(number)") }
        #expect(editor.history == ["info 3", "info 4", "info 5"])
        #expect(try Self.fileLines(file) == ["info 3", "info 4", "info 5"])
        #expect(LineEditor(historyFile: file, maxHistory: 2).history == ["info 4", "info 5"])
    }

    @Test("The history file is private to its owner")
    func historyFileMode() throws {
        let file = Self.temporaryHistoryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent().deletingLastPathComponent()) }

        _ = LineEditor(historyFile: file)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path(percentEncoded: false))
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
    }

    @Test("Without a history file, history stays in memory")
    func memoryOnly() {
        let editor = LineEditor(historyFile: nil)
        #expect(editor.addHistory("search"))
        #expect(editor.history == ["search"])
        #expect(editor.historyFile == nil)
    }

    @Test("Escape codes in a prompt are marked invisible for readline")
    func promptMarkers() {
        let caps = TerminalCapabilities(isTTY: true, colorDepth: .ansi16, unicode: true)
        let prompt = Ansi.paint("bok", TextStyle(foreground: .cyan, bold: true), caps: caps) + "> "
        let marked = LineEditor.readlinePrompt(prompt)
        #expect(marked == "\u{01}\u{1B}[1;36m\u{02}bok\u{01}\u{1B}[0m\u{02}> ")
        // What remains outside the markers is exactly what the user sees.
        let visible = marked.replacing(/\x{01}[^\x{02}]*\x{02}/, with: "")
        #expect(visible == "bok> ")
        #expect(LineEditor.readlinePrompt(marked) == marked)
        #expect(LineEditor.readlinePrompt("plain> ") == "plain> ")
    }
}
