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
enum CatalogueCommands {
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
            let entry = try Self.entry(word, browser: browser, command: "browse")
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
            if meansShelfItem("get", session: session), Int(word) != nil {
                throw UserError(
                    tr(
                        "Numbers now mean the list on screen, not the catalogue's books: read {number} opens it "
                            + "(downloading it first); browse or search shows the catalogue's books again.",
                        ["number": word]))
            }
            let file = try await download(try entry(word, browser: browser, command: "get"), session: session)
            return CommandOutput(
                lines: [tr("Downloaded to {file}: read {number} opens it.", ["file": file.path, "number": word])],
                json: ["file": file.path])
        })

    /// The commands that mean something else in a catalogue, by name.
    static let overrides: [String: @MainActor @Sendable (Arguments, Session) async throws -> CommandOutput] = [
        "search": search, "more": more, "back": back, "info": info, "read": read, "borrow": borrow, "reserve": reserve,
        "top": notInCatalogue, "new": notInCatalogue, "login": login, "logout": logout, "sort": facet, "filter": facet,
        "library": { _, session in
            guard let browser = session.library.catalogue else { return CommandOutput() }
            return render(try await browser.open(), session: session)
        },
    ]

    /// Whether `borrow N`, `reserve N`, `info N`, `read N` or `get N` means an item of the shelf, `loans` or
    /// `reservations` on screen rather than a book of the feed: then the lending library's own command
    /// runs (a ready hold is borrowed, a loan read) through the catalogue's lending service.
    static func meansShelfItem(_ command: String, session: Session) -> Bool {
        guard ["borrow", "reserve", "info", "read", "get"].contains(command) else { return false }
        switch session.lists.numbered {
        case .shelf?, .loans?, .reservations?: return true
        case .books?, nil: return false
        }
    }

    /// `login` in a catalogue that asks for a password (HTTP Basic, as calibre's content server
    /// with --enable-auth, or the basic flow of an OPDS authentication document, as Palace servers
    /// send): the user name, then the password with echo off, checked on the root feed. The
    /// password goes only in an `Authorization` header to the catalogue's own address, never in a
    /// URL, the history or a recording; it is kept for this session, or with `--remember` in the
    /// 0600 credentials file under the catalogue's origin.
    static func login(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput {
        guard let browser = session.library.catalogue else { return CommandOutput() }
        let name = browser.client.displayName
        var notes: [String] = []
        // How the catalogue wants to be logged in to, asked without any login (a 401 carries it).
        var document: OPDSAuthentication?
        do {
            document = try await browser.client.with(user: nil, password: nil).authentication()
        } catch is OPDSAuthentication.Failure {
            notes.append(
                session.theme.dim(
                    tr(
                        "The catalogue at {server} describes its login in a way bok cannot read, so bok asked for a "
                            + "user name and password.",
                        ["server": name])))
        }
        if let document, document.basic == nil {
            throw UserError(OPDSClient.unsupported(document, server: name))
        }
        let loginLabel = document?.basic?.loginLabel
        let passwordLabel = document?.basic?.passwordLabel
        let prompt = session.account.prompt
        /// The catalogue's own words about logging in, once, before the first question.
        func introduce() {
            guard let document, let prompt, !browser.introShown else { return }
            prompt.tell(session.theme.bold(document.title))
            if let description = document.description { prompt.tell(description) }
            browser.introShown = true
        }
        let user: String
        if let given = arguments.option("user"), !given.isEmpty {
            user = given
        } else if let prompt {
            introduce()
            let question = loginLabel.map { $0 + ": " } ?? tr("User name for {server}: ", ["server": name])
            guard let answer = prompt.ask(question)?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else {
                throw UserError(tr("No user name given; nothing was done."))
            }
            user = answer
        } else {
            throw UserError(
                tr(
                    "login to {server} needs a user name: give --user NAME with --password-file FILE (mode 600) or "
                        + "--password-stdin.",
                    ["server": name]))
        }
        let passwordQuestion =
            passwordLabel.map { $0 + ": " } ?? tr("Password for {user} at {server}: ", ["user": user, "server": name])
        var password: String
        var typed = false
        if let path = arguments.option("password-file") {
            let url = try session.confinement?.secretFile(path) ?? URL(fileURLWithPath: path)
            let text = try CredentialStore.readPrivate(url, what: tr("The password file"))
            guard
                let line = text.split(whereSeparator: \.isNewline).first?.trimmingCharacters(
                    in: .whitespacesAndNewlines), !line.isEmpty
            else {
                throw UserError(
                    tr("The password file {file} is empty. Put the password on its first line.", ["file": path]))
            }
            password = line
        } else if arguments.flag("password-stdin") {
            if session.confinement != nil { throw ScenarioConfinement.standardInputRefused("password-stdin") }
            guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !line.isEmpty
            else {
                throw UserError(
                    tr("--password-stdin was given but standard input had no password on its first line."))
            }
            password = line
        } else if let prompt {
            introduce()
            guard let secret = prompt.askSecret(passwordQuestion), !secret.isEmpty else {
                throw UserError(tr("No password given; nothing was done."))
            }
            password = secret
            typed = true
        } else {
            throw UserError(
                tr(
                    "login to {server} needs the password, and there is no terminal to ask on: give "
                        + "--password-file FILE (mode 600) or --password-stdin.",
                    ["server": name]))
        }
        // Checked at once on the root feed: a wrong password says so now, not at the next browse. One typed
        // at the prompt is asked for again with the catalogue's refusal, as a wrong PIN is.
        var attempt = 1
        var next: CatalogueBrowser
        var feed: OPDSFeed
        while true {
            next = CatalogueBrowser(client: browser.client.with(user: user, password: password))
            do {
                feed = try await next.open()
                // A lending catalogue's feeds answer anyone (Palace's do): its shelf is what checks the login.
                if let shelf = feed.link(OPDSFeed.shelfRelation) { _ = try await next.client.feed(shelf.href) }
                break
            } catch let error as LendingError where error.kind == .unauthorized {
                guard typed, error.status == 401, attempt < maxPasswordTries, let prompt,
                    let again = prompt.askSecret(error.message + " " + passwordQuestion), !again.isEmpty
                else { throw error }
                password = again
                attempt += 1
            }
        }
        next.introShown = browser.introShown
        session.attach(next)
        // The login is also the card the catalogue's loans and shelf are kept under.
        next.use(user: user, password: password)
        let remember = arguments.flag("remember")
        var lines = notes
        if remember {
            try session.account.credentialStore.save(.init(user: user, password: password), for: next.client.root)
            lines += [
                tr("Logged in to {server} as {user}.", ["server": name, "user": user]),
                session.theme.dim(
                    tr(
                        "The login for {server} is saved in {file} (readable only by you); logout forgets it.",
                        ["server": name, "file": session.account.credentialStore.file.path])),
            ]
        } else {
            lines.append(
                tr(
                    "Logged in to {server} as {user}. The password is kept for this session only.",
                    ["server": name, "user": user]))
        }
        return CommandOutput(
            lines: lines + [""] + render(feed, session: session).lines,
            json: CatalogueLoginJSON(user: user, remembered: remember))
    }

    /// Passwords asked for in one login at most (a catalogue may lock a card after a few).
    static let maxPasswordTries = 3

    /// `logout` in a catalogue: the login of this session and the one remembered for it are forgotten.
    static func logout(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput {
        guard let browser = session.library.catalogue else { return CommandOutput() }
        let had = browser.client.user != nil
        browser.use(user: nil, password: nil)
        let forgot = session.account.credentialStore.forgetCatalogueLogin(for: browser.client.root)
        var line =
            had || forgot
            ? tr("Logged out of {server}.", ["server": browser.client.displayName]) : tr("You were not logged in.")
        if forgot { line += " " + tr("The remembered login is deleted.") }
        return CommandOutput(lines: [line], json: ["loggedOut": true])
    }

    static func notInCatalogue(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput {
        throw UserError(
            tr(
                "{library} is an OPDS catalogue: browse shows its sections (calibre's include By Newest), search "
                    + "finds books.",
                ["library": session.library.name]))
    }

    // MARK: Lending (Library Simplified / Palace extensions)

    /// `borrow N` in a catalogue: a book the library lends (it has a borrow link) is borrowed with
    /// the catalogue's login, then its EPUB downloaded; a free book is downloaded as `get N` does.
    /// A book that is out says why, and that `reserve N` joins the queue.
    static func borrow(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput {
        guard let browser = session.library.catalogue else { return CommandOutput() }
        guard let word = arguments.positional.first, arguments.positional.count == 1 else {
            throw UserError.usage(tr("Usage: borrow N"))
        }
        let entry = try entry(word, browser: browser, command: "borrow")
        guard let link = entry.borrowLink else { return try await get.run(arguments, session) }
        let title = session.theme.marks.quoted(entry.title)
        switch entry.lending?.state {
        case .unavailable?:
            let reason = session.availabilityWords.words(entry.lending!.availability)
            throw UserError(
                tr(
                    "Cannot borrow {title} now: {reason}. Type reserve {number} to join the queue.",
                    ["title": title, "reason": reason, "number": word]))
        case .reserved?:
            throw UserError(queuedWords(entry, title: title))
        default:
            return try await follow(link, entry: entry, word: word, session: session)
        }
    }

    /// `reserve N` in a catalogue: the borrow link of a book that is out places a hold.
    static func reserve(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput {
        guard let browser = session.library.catalogue else { return CommandOutput() }
        guard let word = arguments.positional.first, arguments.positional.count == 1 else {
            throw UserError.usage(tr("Usage: reserve N"))
        }
        let entry = try entry(word, browser: browser, command: "reserve")
        let title = session.theme.marks.quoted(entry.title)
        guard let link = entry.borrowLink else {
            throw UserError(
                entry.epub != nil
                    ? tr("{title} is free to download: get {number}.", ["title": title, "number": word])
                    : tr("The catalogue offers no way to reserve {title}.", ["title": title]))
        }
        switch entry.lending?.state {
        case .reserved?: throw UserError(queuedWords(entry, title: title))
        case .unavailable?: return try await follow(link, entry: entry, word: word, session: session)
        default:
            throw UserError(
                tr("{title} is available now: borrow {number} borrows it.", ["title": title, "number": word]))
        }
    }

    /// `You are #2 in the queue for “X”; borrow N works once it is ready.`
    static func queuedWords(_ entry: OPDSEntry, title: String) -> String {
        guard let place = entry.lending?.position, place > 0 else {
            return tr("You are in the queue for {title} already; borrow it once it is ready.", ["title": title])
        }
        return tr(
            "You are #{place} in the queue for {title} already; borrow it once it is ready.",
            ["title": title, "place": place])
    }

    /// Follows `link` and says what the library made of it: a loan (then the file is downloaded) or a hold.
    static func follow(
        _ link: OPDSLink, entry: OPDSEntry, word: String, session: Session
    ) async throws
        -> CommandOutput
    {
        let browser = session.library.catalogue!
        try browser.takeUpRememberedLogin()
        var answer = try await browser.client.borrow(link)
        // The entry on screen becomes the loan (its file's link), under the same id: read N reaches it.
        answer.id = entry.id
        if answer.title.isEmpty { answer.title = entry.title }
        if answer.authors.isEmpty { answer.authors = entry.authors }
        if let number = Int(word) { browser.replace(number, with: answer) }
        let theme = session.theme
        let title = theme.marks.quoted(answer.title)
        let lending = answer.lending
        switch lending?.state {
        case .reserved?, .unavailable?:
            let line =
                lending?.position.map {
                    tr("Reserved {title}. You are #{place} in the queue.", ["title": title, "place": $0])
                } ?? tr("Reserved {title}; the library keeps your place in the queue.", ["title": title])
            return CommandOutput(lines: [theme.green(line)], json: CatalogueLoanJSON(entry: answer, file: nil))
        default:
            break
        }
        var lines: [String]
        if let until = lending?.until {
            lines = [
                theme.green(
                    tr(
                        "Borrowed {title}. Due {day} — {days}.",
                        [
                            "title": title, "day": Words.dayWithWeekday(until, today: session.library.today),
                            "days": Words.daysLeft(max(0, session.library.today.days(until: until))),
                        ]))
            ]
        } else {
            lines = [theme.green(tr("Borrowed {title}.", ["title": title]))]
        }
        var file: URL?
        do {
            file = try await download(answer, session: session)
            lines.append(tr("Downloaded to {file}: read {number} opens it.", ["file": file!.path, "number": word]))
        } catch let error as UserError {
            // No EPUB bok can open (a DRM licence, another format): said as get N says it.
            lines.append(theme.yellow(error.message))
        } catch {
            // The loan stands whatever happened to the file.
            lines.append(
                theme.yellow(
                    tr(
                        "The book did not download: {reason} {command} tries again.",
                        ["reason": ErrorReport.message(for: error), "command": "get \(word)"])))
        }
        return CommandOutput(lines: lines, json: CatalogueLoanJSON(entry: answer, file: file?.path))
    }

    /// The lending library's mark for a book a catalogue lends: green `✓ Available`, red
    /// `✗ all 3 copies on loan, 2 waiting`, `#2 in queue`, `ready — borrow by Friday 4 December`.
    static func lendingMark(_ entry: OPDSEntry, session: Session) -> String? {
        guard let lending = entry.lending else { return nil }
        let theme = session.theme
        let words = session.availabilityWords
        switch lending.state {
        case .available:
            // Palace marks the patron's own loan available until its last day, with no borrow link.
            if entry.borrowLink == nil, lending.until != nil {
                return theme.green("\(theme.marks.check) " + tr("on loan to you"))
            }
            return words.mark(lending.availability)
        case .unavailable:
            return words.mark(lending.availability)
        case .reserved:
            guard let place = lending.position, place > 0 else { return theme.yellow(tr("in the queue")) }
            return ShelfStyle.paint(.queued(place: place, estimate: nil), theme: theme, padded: false)
        case .ready:
            guard let until = lending.until else { return words.mark(lending.availability) }
            return theme.paint(
                tr("ready — borrow by {day}", ["day": Words.dayWithWeekday(until, today: session.library.today)]),
                .init(foreground: .green, bold: true))
        }
    }

    static func search(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput {
        let terms = arguments.positional.joined(separator: " ")
        guard !terms.isEmpty else { throw UserError.usage(tr("Say what to look for: search lagerlöf")) }
        return render(try await session.library.catalogue!.search(terms), session: session)
    }

    static func more(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput {
        let browser = session.library.catalogue!
        guard let next = browser.feed?.link("next") else {
            throw UserError(
                browser.feed == nil
                    ? tr("Nothing on screen yet: browse or search first.")
                    : tr("This is the last page; back goes to the one before."))
        }
        return render(try await browser.open(next.href), session: session)
    }

    /// `sort NAME` / `filter NAME` in a catalogue: follows the facet of the feed on screen whose
    /// title begins with NAME (calibre and OPDS 2 feeds offer orders and groups this way);
    /// alone, lists the facets.
    static func facet(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput {
        let browser = session.library.catalogue!
        let facets = browser.feed?.facets ?? []
        let wanted = arguments.positional.joined(separator: " ").lowercased()
        guard !facets.isEmpty else {
            throw UserError(
                browser.feed == nil
                    ? tr("Nothing on screen yet: browse or search first.")
                    : tr("This page of the catalogue offers no orders or filters (facets); browse N and search work."))
        }
        guard !wanted.isEmpty else {
            return CommandOutput(
                lines: facetLines(facets, session: session), json: ["facets": facets.compactMap(\.title)])
        }
        let matches = facets.filter { ($0.title ?? "").lowercased().hasPrefix(wanted) }
        guard let chosen = matches.first(where: { ($0.title ?? "").lowercased() == wanted }) ?? matches.first else {
            let names = facets.compactMap(\.title).joined(separator: ", ")
            throw UserError.usage(
                tr("No facet called \"{name}\" here. This page offers: {names}.", ["name": wanted, "names": names]))
        }
        return render(try await browser.open(chosen.href), session: session)
    }

    /// `Sort by: Title · Newest` — one line a facet group, the one in force in bold.
    static func facetLines(_ facets: [OPDSLink], session: Session) -> [String] {
        let theme = session.theme
        var groups: [(name: String, links: [OPDSLink])] = []
        for facet in facets {
            let name = facet.facetGroup ?? tr("Facets")
            if let index = groups.firstIndex(where: { $0.name == name }) {
                groups[index].links.append(facet)
            } else {
                groups.append((name, [facet]))
            }
        }
        return groups.map { group in
            theme.dim(group.name + ": ")
                + group.links.map { link in
                    let title = link.title ?? link.href.lastPathComponent
                    return link.isActiveFacet ? theme.bold(title) : title
                }.joined(separator: " \(theme.marks.middleDot) ")
        }
    }

    static func back(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput {
        guard let feed = session.library.catalogue!.back() else {
            throw UserError(tr("Nowhere to go back to; browse shows the catalogue's top."))
        }
        return render(feed, session: session)
    }

    static func info(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput {
        guard let word = arguments.positional.first, arguments.positional.count == 1 else {
            throw UserError.usage(tr("Usage: info N"))
        }
        let entry = try entry(word, browser: session.library.catalogue!, command: "info")
        let theme = session.theme
        var lines = [theme.bold(entry.title)]
        if !entry.authors.isEmpty {
            lines.append(tr("by {authors}", ["authors": entry.authors.joined(separator: ", ")]))
        }
        lines.append("")
        let formats = entry.formats.joined(separator: ", ")
        let rows: [(String, String?)] = [
            (tr("Series"), entry.series),
            (tr("Publisher"), entry.publisher),
            (tr("Issued"), entry.issued.map { String($0.prefix(10)) }),
            (tr("Language"), entry.language),
            (tr("Subjects"), entry.subjects.isEmpty ? nil : entry.subjects.joined(separator: ", ")),
            (tr("Identifier"), entry.identifiers.first),
            (
                tr("Formats"),
                entry.formats.isEmpty
                    ? (entry.navigation != nil
                        ? tr("a section: browse {number}", ["number": word]) : tr("none offered"))
                    : entry.epub == nil && entry.borrowLink == nil
                        ? tr("{formats} (bok reads EPUB)", ["formats": formats]) : formats
            ),
            (
                tr("Size"),
                entry.epub?.length.map { ByteCountFormatter.string(fromByteCount: Int64($0), countStyle: .file) }
            ),
        ]
        // The labels' column: 13 wide in English, wider when a language's labels need it.
        let column = max(13, (rows.map { DisplayWidth.of($0.0) }.max() ?? 0) + 2)
        for (label, value) in rows {
            guard let value, !value.isEmpty else { continue }
            lines.append(DisplayWidth.pad(label, to: column) + value)
        }
        if let lending = entry.lending, let mark = lendingMark(entry, session: session) {
            var line = DisplayWidth.pad(tr("Availability"), to: column) + mark
            if lending.state == .available, let copies = lending.copies, entry.borrowLink != nil {
                line += theme.dim(" (" + trn("{n} copy", "{n} copies", copies) + ")")
            } else if lending.state == .available, let until = lending.until {
                line += theme.dim(
                    " \(theme.marks.middleDot) "
                        + tr("due {day}", ["day": Words.dayWithWeekday(until, today: session.library.today)]))
            }
            lines.append(line)
        }
        if let text = entry.summary ?? entry.content, !text.isEmpty { lines += [""] + theme.wrap(text) }
        return CommandOutput(lines: lines, json: CatalogueEntryJSON(number: Int(word) ?? 0, entry: entry))
    }

    static func read(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput {
        guard let word = arguments.positional.first, arguments.positional.count == 1, Int(word) != nil else {
            // A file path reads as anywhere else.
            return try await ReadCommands.read.run(arguments, session)
        }
        let file = try await download(
            try entry(word, browser: session.library.catalogue!, command: "read"), session: session)
        return try await ReadCommands.read.run(try Arguments([file.path], valued: []), session)
    }

    // MARK: -

    static func entry(_ word: String, browser: CatalogueBrowser, command: String) throws -> OPDSEntry {
        guard let number = Int(word) else {
            throw UserError.usage(
                tr("{command} takes the number of an entry on screen, e.g. {command} 2.", ["command": command]))
        }
        guard let entry = browser.entry(number) else {
            let count = browser.feed?.entries.count ?? 0
            throw UserError(
                count == 0
                    ? tr("Nothing on screen to number: browse or search first.")
                    : trn(
                        "There is no entry {number} on screen (there is {n}).",
                        "There is no entry {number} on screen (there are {n}).", count, ["number": number]))
        }
        return entry
    }

    /// The book's EPUB on disk, downloaded (with the progress bar) the first time.
    static func download(_ entry: OPDSEntry, session: Session) async throws -> URL {
        let q = session.theme.marks
        guard let link = entry.epub else {
            if entry.borrowLink != nil {
                throw UserError(
                    tr(
                        "{title} is lent by the library: borrow it first (borrow N with its number).",
                        ["title": q.quoted(entry.title)]))
            }
            if entry.navigation != nil {
                throw UserError(tr("{title} is a section, not a book: browse it.", ["title": q.quoted(entry.title)]))
            }
            let formats = entry.formats
            throw UserError(
                formats.isEmpty
                    ? tr("The catalogue offers no file of {title}.", ["title": q.quoted(entry.title)])
                    : tr(
                        "{title} is offered as {formats}; bok reads EPUB.",
                        ["title": q.quoted(entry.title), "formats": formats.joined(separator: ", ")]))
        }
        // The catalogue's password goes with the download when the file is on the catalogue's own address.
        let authorization = session.library.catalogue?.client.authorization(for: link.href)
        let name =
            "opds-"
            + String(
                entry.id.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 },
                radix: 16)
            + ".epub"
        let target = session.booksDirectory.appendingPathComponent(name)
        // Another bok fetching the same book: wait for it, then take its file.
        let lock = try await session.lockDownload(name, title: entry.title)
        defer { lock.release() }
        if FileManager.default.fileExists(atPath: target.path) { return target }
        let bar = session.progress?.start(title: entry.title)
        do {
            try await BookDownloader().download(
                from: link.href, to: target, authorization: authorization, expecting: .epub, progress: bar)
            session.progress?.finish()
        } catch {
            session.progress?.finish()
            throw error
        }
        return target
    }

    /// A feed as a numbered list: sections marked ▸, books with authors and formats.
    static func render(_ feed: OPDSFeed, session: Session) -> CommandOutput {
        let theme = session.theme
        let m = theme.marks
        let books = feed.entries.filter { $0.navigation == nil }.count
        let sections = feed.entries.count - books
        var count: [String] = []
        if books > 0 { count.append(trn("{n} book", "{n} books", books)) }
        if sections > 0 { count.append(trn("{n} section", "{n} sections", sections)) }
        var heading = feed.title.isEmpty ? session.library.name : feed.title
        if let query = session.library.catalogue?.query {
            heading = trn("{n} hit for {query}", "{n} hits for {query}", feed.entries.count, ["query": m.quoted(query)])
        }
        var lines = [
            theme.bold(
                ([heading] + (session.library.catalogue?.query == nil ? count : [])).joined(
                    separator: " \(m.middleDot) ")), "",
        ]
        if feed.entries.isEmpty { lines = [theme.bold(heading)] }
        if feed.entries.isEmpty, let query = session.library.catalogue?.query {
            lines = [
                tr(
                    "No book in this catalogue matches {query}. Try fewer words or another spelling.",
                    ["query": m.quoted(query)])
            ]
        }
        let width = String(feed.entries.count).count
        for (index, entry) in feed.entries.enumerated() {
            let number = DisplayWidth.pad(String(index + 1), to: max(2, width), align: .right)
            if entry.navigation != nil {
                let about = entry.summary ?? entry.content
                lines.append(
                    theme.fit(
                        "\(number)  ▸ \(theme.bold(entry.title))"
                            + (about.map { " \(m.middleDot) \(theme.dim($0))" } ?? "")))
            } else {
                var parts = [theme.bold(entry.title)]
                if let mark = lendingMark(entry, session: session) { parts.insert(mark, at: 0) }
                if !entry.authors.isEmpty { parts.append(entry.authors.joined(separator: ", ")) }
                if !entry.formats.isEmpty { parts.append(theme.dim(entry.formats.joined(separator: ", "))) }
                lines.append(theme.fit("\(number)  " + parts.joined(separator: " \(m.middleDot) ")))
            }
        }
        if !feed.facets.isEmpty { lines += [""] + facetLines(feed.facets, session: session) }
        var hints: [String] = []
        if !feed.facets.isEmpty { hints.append(tr("sort NAME or filter NAME follows one")) }
        if feed.link("next") != nil { hints.append(tr("more for the next page")) }
        if sections > 0 { hints.append(tr("browse N opens a section")) }
        if feed.entries.contains(where: { $0.borrowLink != nil }) {
            hints.append(tr("info N, borrow N, read N for a book"))
        } else if books > 0 {
            hints.append(tr("info N, get N, read N for a book"))
        }
        if !hints.isEmpty { lines += ["", theme.dim(hints.joined(separator: "; ") + ".")] }
        // From here on numbers mean the feed's entries (after the shelf, loans or reservations meant theirs).
        if !feed.entries.isEmpty, let notice = session.numbersNow(.books) { lines.append(notice) }
        return CommandOutput(lines: lines, json: CatalogueFeedJSON(feed: feed, query: session.library.catalogue?.query))
    }
}

/// One entry in `--json`.
struct CatalogueEntryJSON: Encodable, Sendable {
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
struct CatalogueLoanJSON: Encodable, Sendable {
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
struct CatalogueLoginJSON: Encodable, Sendable {
    let user: String
    let remembered: Bool
}

/// A feed in `--json`.
struct CatalogueFeedJSON: Encodable, Sendable {
    let title: String
    let query: String?
    let entries: [CatalogueEntryJSON]
    let next: String?

    init(feed: OPDSFeed, query: String?) {
        title = feed.title
        self.query = query
        entries = feed.entries.enumerated().map { CatalogueEntryJSON(number: $0.offset + 1, entry: $0.element) }
        next = feed.link("next")?.href.absoluteString
    }
}
