import Catalog
import Foundation
import Localization
import Logging
import Reader
import Shelf
import Terminal

/// `read` and `notes`: the in-terminal reader, for a book on the shelf or any EPUB file.
@MainActor
enum ReadCommands {
    nonisolated static let read = Command(
        typedName: TypedWord("typed: command", "read"), aliases: ["open"],
        synopsis: N_("read N|FILE.epub [--aloud --to OUT.wav [--force]]"),
        summary: N_("Read a book from your shelf (N from shelf) or an EPUB file, full screen"),
        details: [
            N_(
                "A loan downloads the first time it is opened (with a progress bar), then opens from disk, "
                    + "also offline. The status line shows the days left on the loan. An ended loan does not open."),
            N_(
                "Keys: pages, chapters (n/p), contents (t), search (/), bookmarks (m, '), highlights (v), "
                    + ":goto 42%, :width 70, :theme night|day|sepia; ? lists them all, q comes back here."),
            N_("r reads aloud from the page (v, choose a paragraph, r: from there); it stops with the loan."),
            N_("The book opens where you left it; positions, bookmarks and highlights are kept on the shelf."),
            N_(
                "--aloud --to OUT.wav speaks the book into a WAV file instead (no terminal needed), in the voice "
                    + "of each chapter's language (eSpeak NG); --from a chapter number or words of its title, "
                    + "--rate 80–450 words a minute (175), --pitch 0–99 (50), --voice sv|en|… to choose another. "
                    + "A folder as --to gets TITLE.wav inside it; an existing file is replaced only with --force; "
                    + "a WAV over 2 GB is asked about first (--yes answers)."),
            N_("Examples:  read 1     read ~/Books/roman.epub     read 1 --aloud --to kapitel.wav --from 3"),
        ],
        valued: ReadAloud.valued,
        flags: ReadAloud.flags,
        inCatalogue: OPDSCommands.read,
        run: { arguments, session in
            let (path, badge, loanEnds) = try await book(arguments, command: "read", session: session)
            if arguments.flag("aloud") {
                return try ReadAloud.toFile(path, arguments: arguments, session: session)
            }
            guard isatty(0) == 1, isatty(1) == 1 else {
                throw UserError(
                    tr("read needs a terminal to draw on; run it at the bok prompt or as bok read in a terminal."))
            }
            // A place another machine left further on is offered first; this one's is sent after.
            // Meanwhile bookmarks, highlights and notes merge: the server's newer ones are applied,
            // this machine's sent.
            let merging = await session.startMergingAnnotations(path: path)
            await session.offerSyncedPlace(path: path)
            await session.finishMergingAnnotations(merging)
            await session.offerKOSyncPlace(path: path)
            // While it is open, the place goes out as it moves (at most every 25 s), and annotations as
            // they are made.
            let watcher = await session.placeWatcher(path: path).map { watcher in Task.detached { await watcher.run() }
            }
            defer { watcher?.cancel() }
            let annotations = await session.annotationWatcher(path: path).map { watcher in
                Task.detached { await watcher.run() }
            }
            defer { annotations?.cancel() }
            let store = session.openingReaderStore()
            try logged(session) {
                defer { session.keepReaderStore(store) }
                try ReaderApp.run(
                    path: path, store: store, badge: badge, loanEnds: loanEnds, capabilities: session.theme.caps,
                    environment: session.environment)
            }
            annotations?.cancel()
            await session.sendSyncedAnnotations(path: path)
            await session.sendSyncedPlace(path: path)
            await session.sendKOSyncPlace(path: path)
            return CommandOutput(lines: [], json: ["closed": path])
        })

    nonisolated static let notes = Command(
        typedName: TypedWord("typed: command", "notes"),
        synopsis: N_("notes N [--words] | notes FILE.epub"),
        summary: N_("Print a book's highlights, notes and bookmarks as Markdown"),
        details: [
            N_(
                "The words looked up in the book (:define in the reader) come last; --words prints only them, as a "
                    + "vocabulary list."),
            N_("Examples:  notes 1     notes ~/Books/roman.epub > anteckningar.md     notes 1 --words"),
        ],
        flags: ["words"],
        run: { arguments, session in
            let (path, _, _) = try await book(arguments, command: "notes", session: session)
            let markdown = try logged(session) {
                try ReaderApp.notesMarkdown(
                    bookPath: path, store: session.readerStore, onlyWords: arguments.flag("words"))
            }
            let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // For scripts, each note with the EPUB CFI that finds it in another reading system.
            let export = try logged(session) { try ReaderApp.notesExport(bookPath: path, store: session.readerStore) }
            return CommandOutput(
                lines: lines,
                json: NotesJSON(
                    markdown: markdown, title: export.title, highlights: export.highlights,
                    bookmarks: export.bookmarks, words: export.words))
        })

    /// Runs `body`; a book that cannot be opened leaves what exactly is wrong with it in the debug
    /// log (`BOK_LOG=debug`), while the patron sees the plain message.
    static func logged<T>(_ session: Session, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ReaderError {
            if let detail = error.detail {
                session.logger.debug(
                    "the book could not be read", metadata: ["kind": "\(error.kind)", "detail": "\(detail)"])
            }
            throw error
        }
    }

    /// What `read` opens: the file, the badge for the status line, and when a loan ends (on this machine's clock).
    typealias Opened = (path: String, badge: String?, loanEnds: Date?)

    /// The file to open, and the badge for the status line: shelf item N, or a path.
    static func book(_ arguments: Arguments, command: String, session: Session) async throws -> Opened {
        guard arguments.positional.count == 1, let word = arguments.positional.first else {
            throw UserError.usage(
                tr(
                    "Usage: {command} N (a number from shelf) or {command} FILE.epub",
                    ["command": Command.spoken(command)]))
        }
        let path = NSString(string: word).expandingTildeInPath
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard !isFolder.boolValue else {
                throw UserError.usage(
                    tr(
                        "{path} is a folder, not a book. Give the path of an .epub file, e.g. {command} "
                            + "~/Books/roman.epub.",
                        ["path": path, "command": Command.spoken(command)]))
            }
            return (path, nil, nil)
        }
        guard (Int(word) != nil && word.count <= 3) || word.lowercased().hasPrefix("id:") else {
            throw UserError(tr("There is no file {path}. Check the path.", ["path": path]))
        }
        let picked = try await session.pick(word, command: command, fallback: .shelf)
        let item = try await session.shelfItem(for: picked, word: word, command: command)
        // Notes stay the patron's after a loan ends: they are printed from the file still on disk.
        if command == "notes", item.kind == .ended,
            let record = try session.shelfStore().download(productID: item.entry.productID),
            FileManager.default.fileExists(atPath: record.path)
        {
            return (record.path, nil, nil)
        }
        return try await open(item, session: session)
    }

    /// The file of a shelf item, downloaded if need be; refuses what cannot be read and says what to do.
    static func open(_ item: ShelfItem, session: Session) async throws -> Opened {
        let entry = item.entry
        let q = session.theme.marks
        let title = q.quoted(entry.title)
        let store = try session.shelfStore()
        switch item.kind {
        case .loans:
            guard let loanID = entry.upstreamID else {
                throw UserError(tr("bok does not know this loan of {title} yet; type shelf --sync.", ["title": title]))
            }
            let file = try await session.bookOnDisk(productID: entry.productID, loanID: loanID, title: entry.title) {
                // Only the library that lent it can send the file.
                if let other = item.library {
                    if let profile = other.profile {
                        throw UserError(
                            tr(
                                "{title} is on loan from {library} and not on this computer yet: "
                                    + "library use {profile}, then read it.",
                                ["title": title, "library": other.name, "profile": profile]))
                    }
                    throw UserError(
                        tr(
                            "{title} is on loan from {library} and not on this computer yet: "
                                + "switch to that library to fetch it.", ["title": title, "library": other.name]))
                }
                return try await session.loanBookURL(loanID: loanID, title: entry.title)
            }
            // The loan ends when its last day does in the library's time zone; the library's clock
            // (the mock's may have been moved) is turned into this machine's.
            let loanEnds = entry.daysLeft.map { days in
                session.library.today.adding(days: days + 1).startDate(in: session.library.clock.timeZone)
                    .addingTimeInterval(Date().timeIntervalSince(session.library.clock.now()))
            }
            let badge = entry.badge.map { $0 == .lastDay ? tr("last day") : tr("{time} left", ["time": $0.text]) }
            // A library that keeps its patrons' bookmarks (Palace's) keeps this loan's.
            if item.library == nil { await session.linkForLibrarySync(file: file, productID: entry.productID) }
            return (file.path, badge, loanEnds)
        case .ended:
            let again = tr(
                "Type borrow id:{id} to borrow it again; your place and notes are kept.", ["id": entry.productID])
            guard let ended = entry.recent else {
                throw UserError(
                    tr("The loan of {title} ended, so it cannot be opened.", ["title": title]) + " " + again)
            }
            let day = Words.dayWithWeekday(
                DayDate(ended, in: session.library.clock.timeZone), today: session.library.today)
            throw UserError(
                tr("The loan of {title} ended on {day}, so it cannot be opened.", ["title": title, "day": day])
                    + " " + again)
        case .samples:
            let file = try await session.bookOnDisk(productID: entry.productID, loanID: nil, title: entry.title) {
                let product = try await session.library.service.product(id: entry.productID)
                guard let link = product.teaser?.url, let url = URL(string: link) else {
                    throw UserError(tr("The library no longer offers a sample of {title}.", ["title": title]))
                }
                return url
            }
            if let sample = try store.samples(card: session.listCard).first(where: { $0.productID == entry.productID }),
                sample.path != file.path
            {
                try store.addSample(
                    card: sample.card, productID: sample.productID, title: sample.title, authors: sample.authors,
                    path: file.path)
            }
            return (file.path, Badge.sample.text, nil)
        case .ready:
            throw UserError(
                tr(
                    "{title} is ready for you but not borrowed yet: type borrow id:{id} first.",
                    ["title": title, "id": entry.productID]))
        case .reserved:
            throw UserError(
                tr(
                    "{title} is reserved ({place}); it opens once you have borrowed it.",
                    ["title": title, "place": entry.badge?.text ?? tr("in the queue")]))
        case .toBeRead:
            throw UserError(
                tr(
                    "{title} is on your to-be-read list: borrow id:{id} or sample id:{id} first.",
                    ["title": title, "id": entry.productID]))
        }
    }
}

/// `notes N --json`: the Markdown, and each highlight and bookmark with its EPUB CFI.
struct NotesJSON: Encodable, Sendable {
    let markdown: String
    let title: String
    let highlights: [NotesExport.Highlight]
    let bookmarks: [NotesExport.Bookmark]
    let words: [NotesExport.Word]
}
