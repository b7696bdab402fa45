import Localization
import Terminal

/// A row of the reader's keys: the keys as the `?` panel shows them, what they do, and the keys
/// bound to each action of the row.
///
/// ``all`` is the one table of the keys on the page: ``ReaderView`` acts on a key by it, the `?`
/// panel lists it, and a test holds the table in `docs/commands.md` to it. A key not named in a
/// row's ``keys`` may still be bound there (Ctrl-F, the mouse wheel), beside the keys it goes with.
struct ReaderKeyBinding {
    /// What a key does on the page. ``ReaderView`` switches over these exhaustively, and a test
    /// checks that each one has a key.
    enum Action: CaseIterable {
        case nextPage, previousPage
        /// A line in scroll flow, a page in paged flow.
        case lineDown, lineUp
        /// Three lines in scroll flow, a page in paged flow.
        case wheelDown, wheelUp
        case start, end
        /// The next search hit while a search is active, else the next chapter.
        case nextChapterOrHit
        /// The previous search hit while a search is active, else the previous chapter.
        case previousHitOrChapter
        case previousChapter
        case readAloud
        /// Stops reading aloud, else ends the search.
        case escape
        case contents, search, command, bookmark, bookmarks, highlight, followLink, back, brighter, dimmer, help, quit
    }

    /// The keys as the `?` panel and the docs show them: `space PgDn → l j`.
    let keys: String
    /// What they do, in English and marked for translation; shown with `tr`.
    let description: String
    /// Each action of the row with the keys bound to it.
    let actions: [(action: Action, keys: [Key])]

    init(_ keys: String, _ description: String, _ actions: [(action: Action, keys: [Key])]) {
        self.keys = keys
        self.description = description
        self.actions = actions
    }

    /// The keys in the order the `?` panel lists them.
    static let all: [ReaderKeyBinding] = [
        .init(
            "space PgDn → l j", N_("next page (j: next line when scrolling)"),
            [
                (.nextPage, [.character(" "), .pageDown, .right, .character("l"), .ctrl("f")]),
                (.lineDown, [.character("j"), .down]), (.wheelDown, [.wheelDown(row: 0, column: 0)]),
            ]),
        .init(
            "b PgUp ← h k", N_("previous page (k: previous line when scrolling)"),
            [
                (.previousPage, [.character("b"), .pageUp, .left, .character("h"), .ctrl("b")]),
                (.lineUp, [.character("k"), .up]), (.wheelUp, [.wheelUp(row: 0, column: 0)]),
            ]),
        .init(
            "g Home / G End", N_("start / end of the book"),
            [(.start, [.character("g"), .home]), (.end, [.character("G"), .end])]),
        .init(
            "n / p", N_("next / previous chapter"),
            [(.nextChapterOrHit, [.character("n")]), (.previousChapter, [.character("p")])]),
        // n is bound in the row above.
        .init(
            "n / N", N_("next / previous hit while a search is active"), [(.previousHitOrChapter, [.character("N")])]),
        .init("Esc", N_("end the search"), [(.escape, [.escape])]),
        .init("t", N_("contents, with page numbers once counted"), [(.contents, [.character("t")])]),
        .init("/", N_("search (regular expression, any case)"), [(.search, [.character("/")])]),
        .init("m", N_("bookmark this page (again: remove)"), [(.bookmark, [.character("m")])]),
        .init("'", N_("bookmarks: Enter to go, d to delete"), [(.bookmarks, [.character("'")])]),
        .init(
            "v", N_("choose a paragraph: colour 1–5 and note, or r to read it aloud"), [(.highlight, [.character("v")])]
        ),
        .init(
            "Enter f", N_("follow a link (a footnote opens over the page; a web link asks first)"),
            [(.followLink, [.enter, .character("f")])]),
        .init("Backspace u", N_("go back after a link or jump"), [(.back, [.backspace, .character("u")])]),
        .init(
            "+ / -", N_("brighter / dimmer"),
            [(.brighter, [.character("+"), .character("=")]), (.dimmer, [.character("-")])]),
        .init("r", N_("read aloud from this page (again: pause); Esc stops"), [(.readAloud, [.character("r")])]),
        // The `?` panel lists the `:` commands after this row.
        .init(":", N_("command line:"), [(.command, [.character(":")])]),
        .init("?", N_("this help"), [(.help, [.character("?"), .function(1)])]),
        .init("q", N_("close the book"), [(.quit, [.character("q"), .ctrl("c"), .ctrl("d")])]),
    ]

    /// The `?` panel's lines, untranslated: each row's keys and what they do, with the `:` commands
    /// after the key that opens the command line.
    static var panelLines: [(keys: String, description: String)] {
        all.flatMap { row in
            let commands = row.actions.contains { $0.action == .command } ? ReaderCommand.summary : []
            return [(row.keys, row.description)] + commands.map { (":" + $0.0, $0.1) }
        }
    }

    /// Each bound key and its action; the wheel is bound wherever the pointer is.
    private static let actionByKey: [Key: Action] = Dictionary(
        all.flatMap { row in row.actions.flatMap { pair in pair.keys.map { ($0, pair.action) } } },
        uniquingKeysWith: { first, _ in first })

    /// What `key` does on the page, if anything.
    static func action(for key: Key) -> Action? {
        switch key {
        case .wheelDown: actionByKey[.wheelDown(row: 0, column: 0)]
        case .wheelUp: actionByKey[.wheelUp(row: 0, column: 0)]
        default: actionByKey[key]
        }
    }
}
