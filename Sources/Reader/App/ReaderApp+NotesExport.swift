public import Foundation
import TextSafety

/// A book's highlights, notes and bookmarks for `notes N --json`, each with the EPUB CFI that
/// finds it in any reading system (calibre, Thorium, Readium), not only in bok.
public struct NotesExport: Encodable, Sendable {
    public struct Highlight: Encodable, Sendable {
        public let id: String
        /// `epubcfi(/6/4!/4/2,/1:10,/1:42)`: a range from the first character to just after the last.
        public let cfi: String?
        public let text: String
        public let note: String?
        public let colour: String
        public let created: Date
    }

    public struct Bookmark: Encodable, Sendable {
        public let id: String
        public let cfi: String?
        public let snippet: String
        public let created: Date
    }

    /// A word looked up in the book (`:define`), with where it was looked up last.
    public struct Word: Encodable, Sendable {
        public let word: String
        public let found: String
        public let meaning: String
        public let dictionary: String
        public let cfi: String?
        public let times: Int
        public let first: Date
        public let last: Date
    }

    public let title: String
    public let highlights: [Highlight]
    public let bookmarks: [Bookmark]
    public let words: [Word]
}

extension ReaderApp {
    /// The notes of the book at `bookPath`, with their CFIs.
    public static func notesExport(bookPath: String, store: any PositionStore) throws(ReaderError) -> NotesExport {
        let book = try openBook(bookPath)
        let id = BookID.opening(book, in: store)
        let content = BookContent(book: book)
        let highlights = ((try? store.highlights(bookID: id)) ?? []).map { highlight in
            NotesExport.Highlight(
                id: highlight.id.description, cfi: rangeCFI(content, from: highlight.start, to: highlight.end),
                text: highlight.text, note: highlight.note, colour: "\(highlight.color)", created: highlight.created)
        }
        let bookmarks = ((try? store.bookmarks(bookID: id)) ?? []).map { mark in
            NotesExport.Bookmark(
                id: mark.id.description, cfi: content.cfi(for: mark.locator)?.string,
                snippet: SafeText.line(mark.locator.snippet ?? ""), created: mark.created)
        }
        let words = ((try? store.lookedUpWords(bookID: id)) ?? []).map { word in
            NotesExport.Word(
                word: word.word, found: word.found, meaning: word.meaning, dictionary: word.dictionary,
                cfi: word.locator.flatMap { content.cfi(for: $0)?.string }, times: word.times, first: word.first,
                last: word.last)
        }
        return NotesExport(
            title: SafeText.line(book.metadata.title), highlights: highlights, bookmarks: bookmarks, words: words)
    }

    /// A range CFI (EPUB CFI 1.1, section 3.6): the common path, then each end's own steps.
    static func rangeCFI(_ content: BookContent, from start: Locator, to end: Locator) -> String? {
        guard let first = content.cfi(for: start), let last = content.cfi(for: end) else { return nil }
        guard first.spineIndex == last.spineIndex else { return first.string }
        let common = zip(first.path, last.path).prefix { $0 == $1 }.count
        // The last common step may not be the terminal one: each end keeps at least one step.
        let shared = min(common, first.path.count - 1, last.path.count - 1)
        var parent = first
        parent.path = Array(first.path.prefix(shared))
        parent.offset = nil
        func local(_ cfi: EPUBCFI) -> String {
            cfi.path.dropFirst(shared).map { step in
                "/\(step.index)" + (step.assertion.map { "[\(EPUBCFI.escape($0))]" } ?? "")
            }.joined() + (cfi.offset.map { ":\($0)" } ?? "")
        }
        return String(parent.string.dropLast()) + ",\(local(first)),\(local(last)))"
    }
}
