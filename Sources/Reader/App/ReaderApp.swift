import Localization
internal import TextSafety

/// The reader as the `bok` client calls it: open a file, read it full-screen, and list notes.
public enum ReaderApp {
    /// The highlights and notes of a book as Markdown, for `bok notes FILE`.
    ///
    /// - Throws: `ReaderError` when the book cannot be opened.
    public static func notesMarkdown(
        bookPath: String, store: any PositionStore, onlyWords: Bool = false
    ) throws(ReaderError) -> String {
        let book = try openBook(bookPath)
        return onlyWords ? wordsMarkdown(book: book, store: store) : notesMarkdown(book: book, store: store)
    }

    /// The words looked up in a book (`:define`), as a Markdown table: the vocabulary list of
    /// `notes N --words`.
    public static func wordsMarkdown(book: EPUBBook, store: any PositionStore) -> String {
        let id = BookID.opening(book, in: store)
        let words = (try? store.lookedUpWords(bookID: id)) ?? []
        var lines = ["# " + isolated(SafeText.line(book.metadata.title), book.metadata.titleDirection), ""]
        guard !words.isEmpty else {
            return (lines + [tr("No words looked up yet; :define WORD in the reader looks one up.")])
                .joined(separator: "\n") + "\n"
        }
        lines += vocabulary(words)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The vocabulary list's table.
    static func vocabulary(_ words: [LookedUpWord]) -> [String] {
        // A table cell is one line, and a bar would end it.
        func cell(_ text: String) -> String {
            SafeText.line(text).split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
        }
        var lines = [
            "| " + tr("Word") + " | " + tr("Base form") + " | " + tr("Meaning") + " | " + tr("Times") + " |",
            "|---|---|---|---:|",
        ]
        for word in words {
            lines.append(
                "| \(cell(word.word)) | \(word.found == word.word ? "" : cell(word.found)) | \(cell(word.meaning)) | "
                    + "\(word.times) |")
        }
        return lines
    }

    /// `text` between the Unicode isolate controls of `direction` (RLI or LRI … PDI); as it is without one.
    static func isolated(_ text: String, _ direction: TextDirection?) -> String {
        switch direction {
        case .rightToLeft?: "\u{2067}\(text)\u{2069}"
        case .leftToRight?: "\u{2066}\(text)\u{2069}"
        case nil: text
        }
    }

    /// The highlights and notes of an opened book as Markdown: a heading per chapter, each
    /// highlight as a quote with its colour, its note below it, and the bookmarks at the end.
    public static func notesMarkdown(book: EPUBBook, store: any PositionStore) -> String {
        let id = BookID.opening(book, in: store)
        let highlights = (try? store.highlights(bookID: id)) ?? []
        let bookmarks = (try? store.bookmarks(bookID: id)) ?? []
        let words = (try? store.lookedUpWords(bookID: id)) ?? []
        // Headings and list items are one line each: a title with a line break would end its heading.
        // A title or name the package marks right to left (or left to right) is an isolate, so a
        // Markdown viewer sets it in its own direction without moving what is around it.
        var lines = ["# " + isolated(SafeText.line(book.metadata.title), book.metadata.titleDirection)]
        let authors = book.metadata.creators.map { isolated(SafeText.line($0.name), $0.direction) }
        if !authors.isEmpty { lines += ["", "*\(authors.joined(separator: ", "))*"] }
        if highlights.isEmpty && bookmarks.isEmpty && words.isEmpty {
            return (lines + ["", tr("No highlights, notes or bookmarks yet.")]).joined(separator: "\n") + "\n"
        }
        let titles = chapterTitles(book)
        var lastChapter: Int?
        for highlight in highlights {
            if highlight.start.spineIndex != lastChapter {
                lastChapter = highlight.start.spineIndex
                let title =
                    titles[highlight.start.spineIndex]
                    ?? tr("Section {number}", ["number": highlight.start.spineIndex + 1])
                lines += ["", "## \(SafeText.line(title))"]
            }
            let quoted = highlight.text.split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }
            lines += [""] + quoted + ["", tr("— {colour} highlight", ["colour": highlight.color.name])]
            if let note = highlight.note, !note.isEmpty { lines += ["", "**" + tr("Note:") + "** " + note] }
        }
        if !bookmarks.isEmpty {
            lines += ["", "## " + tr("Bookmarks"), ""]
            for mark in bookmarks {
                let chapter =
                    titles[mark.locator.spineIndex] ?? tr("Section {number}", ["number": mark.locator.spineIndex + 1])
                lines.append("- \(SafeText.line(chapter)): “\(SafeText.line(mark.locator.snippet ?? ""))…”")
            }
        }
        if !words.isEmpty { lines += ["", "## " + tr("Words looked up"), ""] + vocabulary(words) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func openBook(_ path: String) throws(ReaderError) -> EPUBBook {
        do {
            return try EPUBBook.open(path: path)
        } catch let error as ReaderError {
            throw error
        } catch {
            throw ReaderError(
                .unreadableFile,
                tr("bok could not read {path}; check that the file exists and that you may read it.", ["path": path]),
                detail: "\(error)")
        }
    }

    /// The first table-of-contents title of each spine item.
    private static func chapterTitles(_ book: EPUBBook) -> [Int: String] {
        var titles: [Int: String] = [:]
        for item in book.tableOfContents.flatMap({ $0.flattened() }) {
            if let spine = item.entry.spineIndex, titles[spine] == nil { titles[spine] = item.entry.title }
        }
        return titles
    }
}
