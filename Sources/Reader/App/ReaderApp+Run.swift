public import Foundation
import Localization
internal import Speech
public import Terminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ReaderApp {
    /// Opens a book and reads it full-screen until the reader presses q.
    ///
    /// The position, bookmarks, highlights, settings and pace go through `store`; the position
    /// is saved on every page turn and on the way out. The terminal is restored however the
    /// reader ends (q, Ctrl-C, a kill, a crash).
    ///
    /// - Parameters:
    ///   - path: the `.epub` file.
    ///   - store: where reading state is kept (Shelf's database, or ``InMemoryPositionStore``).
    ///   - badge: a short text for the status line, such as the days left on a loan (`12 days`).
    ///   - loanEnds: when the loan ends, for a borrowed book: reading aloud stops then.
    ///   - capabilities: the terminal's colour depth and Unicode support.
    ///   - environment: the process's environment (which picture protocol the terminal speaks),
    ///     when the caller has it already; else it is read.
    /// - Throws: `ReaderError` when the book cannot be opened or standard input/output is not a terminal.
    public static func run(
        path: String, store: any PositionStore, badge: String? = nil, loanEnds: Date? = nil,
        capabilities: TerminalCapabilities = .detect(), environment: [String: String]? = nil
    ) throws(ReaderError) {
        try run(
            path: path, store: store, badge: badge, loanEnds: loanEnds, capabilities: capabilities,
            environment: environment, firstFrameOnly: false)
    }

    /// Like ``run(path:store:badge:capabilities:)``, and with `firstFrameOnly` it draws the
    /// first page and returns (for measuring the time to the first page).
    public static func run(
        path: String, store: any PositionStore, badge: String?, loanEnds: Date? = nil,
        capabilities: TerminalCapabilities, environment: [String: String]? = nil, firstFrameOnly: Bool
    ) throws(ReaderError) {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw ReaderError(
                .notATerminal,
                tr("The reader needs a terminal; run bok read in a terminal window rather than through a pipe."))
        }
        let book = try openBook(path)
        let size = TerminalSize.current()
        // A screen reader hears a picture's description, and reads no cells of colour.
        let images =
            capabilities.screenReader
            ? nil
            : ImageCells.make(
                book: book, capabilities: capabilities,
                environment: environment ?? ProcessInfo.processInfo.environment)
        var session = ReaderSession(
            book: book, store: store, columns: size.columns, rows: size.rows - 1, drawsImages: images != nil)
        session.loanEnds = loanEnds?.timeIntervalSinceReferenceDate
        session.speechChoice = SpeechChoice(environment: environment ?? ProcessInfo.processInfo.environment)
        var view = ReaderView(
            session: session, capabilities: capabilities, badge: badge, columns: size.columns, rows: size.rows)
        view.images = images
        let terminal = ReaderTerminal(view: view, capabilities: capabilities, size: size)
        try terminal.run(firstFrameOnly: firstFrameOnly)
    }

    /// Tells the open reader that its book's bookmarks or highlights changed on the shelf (a sync
    /// merged another device's while it is open): it reads them again and draws the page again.
    /// Safe from any thread; nothing happens when no reader is open.
    public static func annotationsChanged() {
        ReaderTerminal.noteAnnotationsChanged()
    }
}
