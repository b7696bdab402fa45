import Foundation
import Reader
import Terminal

/// `read FILE` and `notes FILE`: the in-terminal reader.
@MainActor
enum ReadCommands {
    static let read = Command(
        name: "read", aliases: ["open"],
        synopsis: "read FILE.epub",
        summary: "Read an EPUB full screen in the terminal (? shows the keys, q goes back)",
        details: [
            "Pages, chapters (n/p), table of contents (t), search (/), bookmarks (m, '), highlights (v),",
            ":goto 42%, :width 70, :theme night|day|sepia. The book opens where you left it.",
            "Positions, bookmarks and highlights are kept for this session; the shelf will keep them for good.",
            "Example:  read ~/Books/roman.epub",
        ],
        run: { arguments, session in
            let path = try bookPath(arguments, command: "read")
            guard isatty(0) == 1, isatty(1) == 1 else {
                throw UserError("read needs a terminal to draw on; run it at the bok prompt or as bok read FILE in a terminal.")
            }
            do {
                try ReaderApp.run(path: path, store: session.positionStore, badge: nil)
            } catch let error as ReaderError {
                throw UserError(error.message)
            }
            return CommandOutput(lines: [], json: ["closed": path])
        })

    static let notes = Command(
        name: "notes",
        synopsis: "notes FILE.epub",
        summary: "Print a book's highlights, notes and bookmarks as Markdown",
        details: ["Example:  notes ~/Books/roman.epub > anteckningar.md"],
        run: { arguments, session in
            let path = try bookPath(arguments, command: "notes")
            do {
                let markdown = try ReaderApp.notesMarkdown(bookPath: path, store: session.positionStore)
                return CommandOutput(lines: markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                                     json: ["markdown": markdown])
            } catch let error as ReaderError {
                throw UserError(error.message)
            }
        })

    static func bookPath(_ arguments: Arguments, command: String) throws -> String {
        guard arguments.positional.count == 1, let word = arguments.positional.first else {
            throw UserError.usage("Usage: \(command) FILE.epub")
        }
        let path = NSString(string: word).expandingTildeInPath
        guard FileManager.default.fileExists(atPath: path) else {
            throw UserError("There is no file \(path). Check the path.")
        }
        return path
    }
}
