import Catalog
import Foundation
import Localization
import Reader
import Shelf
import Terminal

/// The commands of an OPDS catalogue (calibre's content server, a public-domain catalogue):
/// `browse`, `search`, `more`, `back`, `info N`, `get N` and `read N`. The numbers are the
/// entries of the feed on screen. In an Elib library, `browse` and `get` say what to use instead.
@MainActor
enum OPDSCommands {
    nonisolated static let browse = Command(
        typedName: TypedWord("typed: command", "browse"), aliases: ["catalogue", "catalog"],
        synopsis: N_("browse [N]"),
        summary: N_("An OPDS catalogue's sections: browse shows the top, browse N opens section N"),
        details: [
            N_(
                "Numbers are the entries on screen: a section (▸) opens with browse N, a book shows with info N, "
                    + "downloads with get N and opens with read N. more and back page through long lists."),
            N_(
                "A library that lends through its catalogue (Palace) marks each book available, out with the "
                    + "patrons waiting, or ready for you: borrow N borrows it with your login and downloads it, "
                    + "reserve N joins the queue for a book that is out."),
            N_("Examples:  browse     browse 2     search lagerlöf     get 1"),
        ],
        completion: .resultNumbers,
        run: { arguments, session in
            guard let browser = session.library.catalogue else {
                throw UserError(
                    tr(
                        "browse is for OPDS catalogues; {library} is a lending library: use search, top and new.",
                        ["library": session.library.name]))
            }
            guard let word = arguments.positional.first else {
                return render(try await browser.open(), session: session)
            }
            let entry = try await Self.entry(word, browser: browser, command: "browse")
            guard let section = entry.navigation else {
                throw UserError(
                    tr(
                        "{title} is a book, not a section: info {number} shows it, get {number} downloads it.",
                        ["title": session.theme.marks.quoted(entry.title), "number": word]))
            }
            return render(try await browser.open(section.href), session: session)
        })

    nonisolated static let get = Command(
        typedName: TypedWord("typed: command", "get"), aliases: ["download"],
        synopsis: N_("get N"),
        summary: N_("Download book N of an OPDS catalogue to your shelf's folder, to read with read N"),
        details: [N_("Examples:  get 3     read 3")],
        completion: .resultNumbers,
        run: { arguments, session in
            guard let browser = session.library.catalogue else {
                throw UserError(
                    tr(
                        "get is for OPDS catalogues; in {library}, borrow N gets a book.",
                        ["library": session.library.name]))
            }
            guard let word = arguments.positional.first, arguments.positional.count == 1 else {
                throw UserError.usage(tr("Usage: get N"))
            }
            if numbersMeanShelfItems(session), Int(word) != nil {
                throw UserError(
                    tr(
                        "Numbers now mean the list on screen, not the catalogue's books: read {number} opens it "
                            + "(downloading it first); browse or search shows the catalogue's books again.",
                        ["number": word]))
            }
            let file = try await download(try await entry(word, browser: browser, command: "get"), session: session)
            return CommandOutput(
                lines: [tr("Downloaded to {file}: read {number} opens it.", ["file": file.path, "number": word])],
                json: ["file": file.path])
        })

    /// Whether a number means an item of the shelf, `loans` or `reservations` on screen rather
    /// than a book of the feed: then `borrow N`, `reserve N`, `info N` and `read N` run as the
    /// lending library's own commands (a ready hold is borrowed, a loan read) through the
    /// catalogue's lending service.
    static func numbersMeanShelfItems(_ session: Session) -> Bool {
        switch session.lists.numbered {
        case .shelf?, .loans?, .reservations?: return true
        case .books?, nil: return false
        }
    }

    /// `library` in a catalogue: its root feed; `library add|use|remove|list` as anywhere.
    static func library(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        guard !LibraryProfileCommands.isSubcommand(arguments), let browser = session.library.catalogue else {
            return nil
        }
        return render(try await browser.open(), session: session)
    }

    static func notInCatalogue(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        throw UserError(
            tr(
                "{library} is an OPDS catalogue: browse shows its sections (calibre's include By Newest), search "
                    + "finds books.",
                ["library": session.library.name]))
    }
}

/// One entry in `--json`.
struct OPDSEntryJSON: Encodable, Sendable {
    let number: Int
    let id: String
    let title: String
    let authors: [String]
    let section: Bool
    let formats: [String]
    let summary: String?
    let epub: String?
    /// A lending library's state of the book (`available`, `unavailable`, `reserved`, `ready`), when it lends it.
    let availability: String?
    /// Whether `borrow N` borrows it (the entry has a borrow link).
    let borrowable: Bool

    init(number: Int, entry: OPDSEntry) {
        self.number = number
        id = entry.id
        title = entry.title
        authors = entry.authors
        section = entry.navigation != nil
        formats = entry.formats
        summary = entry.summary ?? entry.content
        epub = entry.epub?.href.absoluteString
        availability = entry.lending?.state.rawValue
        borrowable = entry.borrowLink != nil
    }
}

/// `borrow N` in a catalogue in `--json`: the loan or hold the library answered with.
struct OPDSLoanJSON: Encodable, Sendable {
    let title: String
    let state: String?
    let until: String?
    let position: Int?
    let file: String?

    init(entry: OPDSEntry, file: String?) {
        title = entry.title
        state = entry.lending?.state.rawValue
        until = entry.lending?.until?.description
        position = entry.lending?.position
        self.file = file
    }
}

/// `login` in a catalogue in `--json` (never the password).
struct OPDSLoginJSON: Encodable, Sendable {
    let user: String
    let remembered: Bool
}

/// A feed in `--json`.
struct OPDSFeedJSON: Encodable, Sendable {
    let title: String
    let query: String?
    let entries: [OPDSEntryJSON]
    let next: String?

    init(feed: OPDSFeed, query: String?, firstNumber: Int = 1) {
        title = feed.title
        self.query = query
        entries = feed.entries.enumerated().map {
            OPDSEntryJSON(number: firstNumber + $0.offset, entry: $0.element)
        }
        next = feed.link("next")?.href.absoluteString
    }
}
