internal import Foundation
import Localization
public import Terminal

/// The full-screen reading view without the terminal: it takes keys and gives frames.
///
/// The terminal loop (``ReaderApp``) reads keys, hands them to ``handle(_:)`` and writes what
/// ``frame()`` draws; tests drive the same view with keys and read its frames as text.
///
/// The keys on the page and in the panels are the tables ``ReaderKeys/page`` and ``ReaderKeys/panel``,
/// which `?` lists (``handle(_:)`` acts on them).
public struct ReaderView {
    /// What has the keyboard.
    enum Mode {
        case reading
        case help(ListState)
        case contents(ListState, [TOCItem])
        case bookmarks(ListState)
        case links(ListState, [VisibleLink])
        case highlight(ListState, [HighlightTarget])
        case prompt(Prompt)
        /// A link out of the book, waiting for y to open it.
        case confirmOpen(String)
        /// A footnote shown over the page: its text's lines, the first shown, and where it is.
        case note(ListState, [String], LinkDestination)
        /// A word's dictionary entry (`:define`): its lines as wrapped, the first shown, and the entry.
        case definition(ListState, [String], ReaderSession.Definition)
        /// The page's pictures, one on the whole screen (`z`): which, of them.
        case picture(Int, [PagePicture])
    }

    /// A picture on the page, and the chapter it is in.
    struct PagePicture {
        let image: ImageReference
        let spineIndex: Int
    }

    /// A line being typed in the status row.
    struct Prompt {
        enum Kind {
            case search
            case command
            case note(HighlightTarget, HighlightColor)
        }
        var kind: Kind
        var text = ""

        var label: String {
            switch kind {
            case .search: "/"
            case .command: ":"
            case .note: tr("Note (Enter to save, empty for none): ")
            }
        }
    }

    /// The selected row of a list panel, the first row shown, and the digits of a row's number
    /// being typed (`12` then Enter chooses the twelfth).
    struct ListState: Equatable {
        var selected = 0
        var top = 0
        var typed = ""
    }

    /// The reading session the view shows.
    public internal(set) var session: ReaderSession
    let capabilities: TerminalCapabilities
    let badge: String?
    var mode: Mode = .reading
    /// What was typed before Tab completed a word of the page (`:define hu` → `huset`), so that Tab
    /// again offers the next word with that start.
    var completionStem: String?
    private(set) var screenColumns: Int
    private(set) var screenRows: Int
    var images: (any ImageRows)?
    /// Opens a link out of the book; tests put their own here.
    var openLink: (String) -> Bool = LinkOpener.open
    /// Whether the status line may wait for the book's contents (chapter titles, print pages).
    /// The first frame does not: until the contents are read it names the chapter by its own
    /// title, and the terminal draws again once they are (``ReaderTerminal``).
    var waitsForContents = true

    /// Creates a view of a session on a screen of `columns × rows` cells (the last row is the status line).
    public init(session: ReaderSession, capabilities: TerminalCapabilities, badge: String?, columns: Int, rows: Int) {
        self.session = session
        self.capabilities = capabilities
        self.badge = badge
        self.screenColumns = max(20, columns)
        self.screenRows = max(3, rows)
        self.session.resize(columns: self.screenColumns, rows: self.screenRows - rowsBesideThePage)
    }

    /// Takes a new window size.
    public mutating func resize(columns: Int, rows: Int) {
        screenColumns = max(20, columns)
        screenRows = max(3, rows)
        session.resize(columns: screenColumns, rows: screenRows - rowsBesideThePage)
    }

    /// Rows of the window that are not the page's: the status line; for a screen reader, the
    /// line that says where the page is, and room for its headings, links and pictures in
    /// words, so that the page's first line is still in the window when the cursor goes there.
    var rowsBesideThePage: Int { capabilities.screenReader ? 4 : 1 }

    /// Shows page numbers that were counted since an open panel was made.
    public mutating func pageCountsChanged() {
        if case .contents(let list, _) = mode { mode = .contents(list, session.tableOfContents()) }
    }

    /// Saves the position; called on the way out (reading aloud stops at once).
    public mutating func close() {
        if session.isReadingAloud { session.stopReadingAloud() }
        session.savePosition()
    }

    /// While reading aloud: the page follows the voice. Returns whether the frame changed.
    mutating func followReadingAloud() -> Bool {
        session.followReadingAloud()
    }
}
