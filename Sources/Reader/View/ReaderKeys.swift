import Localization
import Terminal

/// The reader's keys, each in one table: ``ReaderView`` acts on a key by them, the `?` panel lists
/// them, and a test holds the table in `docs/commands.md` to them and checks that every action
/// has a key and no key does two things.
enum ReaderKeys {
    /// What a key does on the page. ``ReaderView`` switches over these exhaustively.
    enum PageAction: CaseIterable {
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
        /// The command line with `define ` typed: a word to look up.
        case define
        case nextHeading, previousHeading
        /// Reading aloud 25 words a minute faster or slower.
        case faster, slower
        /// The page's picture on the whole screen.
        case zoomPicture
        /// A picture book's words beside its page, or the page alone.
        case popOutWords
    }

    /// What a key does in a panel over the page (contents, bookmarks, links, a paragraph's
    /// colours, a footnote, the `?` help).
    enum PanelAction: CaseIterable {
        case down, up, pageDown, pageUp, first, last
        /// Go to the chosen place, follow the chosen link or footnote.
        case choose
        /// Delete the chosen bookmark or highlight.
        case delete
        /// Read the chosen paragraph aloud.
        case readAloud
        /// A digit of the number of the entry to choose (then Enter).
        case number
        case close
    }

    /// The keys on the page.
    static let page = KeyTable<PageAction>([
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
        .init(
            "] / [", N_("next / previous heading"),
            [(.nextHeading, [.character("]")]), (.previousHeading, [.character("[")])]),
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
        .init(
            "> / <", N_("read aloud faster / slower"),
            [(.faster, [.character(">")]), (.slower, [.character("<")])]),
        .init("d", N_("look a word up in the dictionaries (:define WORD)"), [(.define, [.character("d")])]),
        .init(
            "z", N_("the page's picture on the whole screen, with its label (z again: the next; Esc: back)"),
            [(.zoomPicture, [.character("z")])]),
        .init(
            "w", N_("a picture book's page: its words beside the picture (again: the picture alone)"),
            [(.popOutWords, [.character("w")])]),
        // The `?` panel lists the `:` commands after this row.
        .init(":", N_("command line:"), [(.command, [.character(":")])]),
        .init("?", N_("this help"), [(.help, [.character("?"), .function(1)])]),
        .init("q", N_("close the book"), [(.quit, [.character("q"), .ctrl("c"), .ctrl("d")])]),
    ])

    /// The keys inside a panel, listed after the keys on the page.
    static let panel = KeyTable<PanelAction>([
        .init(
            "↓ j Tab / ↑ k", N_("in a panel: next / previous line"),
            [
                (.down, [.down, .character("j"), .tab, .wheelDown(row: 0, column: 0)]),
                (.up, [.up, .character("k"), .backTab, .wheelUp(row: 0, column: 0)]),
            ]),
        .init(
            "space PgDn / b PgUp", N_("in a panel: a screen down / up"),
            [(.pageDown, [.character(" "), .pageDown]), (.pageUp, [.character("b"), .pageUp])]),
        .init(
            "g Home / G End", N_("in a panel: first / last line"),
            [(.first, [.character("g"), .home]), (.last, [.character("G"), .end])]),
        .init("Enter f", N_("in a panel: go there, follow the link"), [(.choose, [.enter, .character("f")])]),
        .init(
            "1 2 3", N_("in a list: the number of an entry, then Enter to go there"),
            [(.number, (0...9).map { Key.character(Character(String($0))) })]),
        .init(
            "d x Delete", N_("in a panel: delete the bookmark or highlight"),
            [(.delete, [.character("d"), .character("x"), .delete])]),
        .init("r", N_("in a panel: read the paragraph aloud"), [(.readAloud, [.character("r")])]),
        .init(
            "q Esc", N_("in a panel: close it (so does the key that opened it)"),
            [(.close, [.escape, .character("q"), .ctrl("c"), .ctrl("g")])]),
    ])

    /// The `?` panel's lines, untranslated: each row's keys and what they do, with the `:` commands
    /// after the key that opens the command line, then the keys inside a panel.
    static var helpLines: [(keys: String, description: String)] {
        page.rows.flatMap { row in
            let commands = row.actions.contains { $0.action == .command } ? ReaderCommand.summary : []
            return [(row.keys, row.description)] + commands.map { (":" + $0.0, $0.1) }
        } + panel.rows.map { ($0.keys, $0.description) }
    }
}
