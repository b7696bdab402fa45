import Catalog
import Foundation
import Localization
import Terminal

/// `info N`: everything the library knows about a book.
@MainActor
enum InfoCommand {
    nonisolated static let info = Command(
        typedName: TypedWord("typed: command", "info"), aliases: ["i", "show"],
        synopsis: N_("info N | info id:PRODUCT"),
        summary: N_("Everything the library knows about a book: authors, series, dates, description, availability"),
        details: [
            N_(
                "N is a number of the list on screen (search, top, new, library, loans, reservations, shelf, tbr); "
                    + "a longer number or id:X is a product id."),
            N_("Examples:  info 3     info id:100042"),
        ],
        completion: .resultNumbers,
        inCatalogue: OPDSCommands.info,
        run: { arguments, session in
            guard let word = arguments.positional.first, arguments.positional.count == 1 else {
                throw UserError.usage(tr("Usage: info N (a number from the last list) or info id:PRODUCT."))
            }
            let picked = try await session.pick(word, command: "info")
            let (id, known) = (picked.productID, picked.known)
            async let productCall = session.library.service.product(id: id)
            // Marks are for the patron when one is known: their own limit shows as theirs.
            async let availabilityCall = session.library.service.availability(productID: id, card: session.knownCard)
            var product: Product
            do {
                product = try await productCall
            } catch let error as LendingError where error.kind == .notFound {
                throw UserError(
                    tr("The library has no product {id}. Check the id, or search for the title.", ["id": id]))
            }
            if let availability = try? await availabilityCall {
                // Keep the copy and queue counts the search embedded; the fresh call is the truth on availability.
                var merged = availability
                let embedded = product.availability ?? known?.availability
                merged.copies = availability.copies ?? embedded?.copies
                merged.waiting = availability.waiting ?? embedded?.waiting
                if !merged.available, merged.reason == embedded?.reason {
                    merged.estimatedDate = embedded?.estimatedDate
                }
                product.availability = merged
            }
            // info id:X has no list entry to take the queue from: the search finds the book by its ISBN, with its
            // counts.
            if let availability = product.availability, !availability.available, availability.waiting == nil,
                let isbn = product.isbns.first,
                let hit = try? await session.library.service.search(
                    SearchRequest(query: "isbn:\(isbn)", limit: 1, card: session.knownCard)
                )
                .products.first(where: { $0.id == id }), let counted = hit.availability,
                counted.reason == availability.reason
            {
                product.availability?.copies = availability.copies ?? counted.copies
                product.availability?.waiting = counted.waiting
                product.availability?.estimatedDate = counted.estimatedDate
            }
            if session.library.page == nil, let page = try? await session.library.service.library() {
                session.library.adopt(page)
            }
            // The cover at the left, when there is one to draw: the details fitted beside it.
            let cover = CoverArt.shown(in: session) ? await CoverArt.cover(of: product, session: session) : nil
            var theme = session.theme
            if cover != nil { theme.width -= CoverArt.columns + 2 }
            var lines = InfoRenderer(theme: theme, availability: session.availabilityWords).render(
                product, library: session.library.page)
            lines += await seriesLines(of: product, session: session)
            var output = CommandOutput(lines: lines, json: InfoJSON(product, library: session.library.page))
            if session.namesCovers, product.coverImage != nil {
                // A recording keeps no pictures: it says where the cover was.
                output.lines.insert(session.theme.dim(tr("[cover]")), at: 0)
            }
            if let cover {
                output.lines = CoverArt.beside(lines, picture: cover, theme: session.theme)
                if let pixels = CoverArt.pixels(in: session) {
                    output.pictures = CoverArt.pictures(
                        [(cover, CoverArt.columns, CoverArt.besideRows(cover))], pixels: pixels, theme: session.theme)
                }
            }
            return output
        })

    /// `similar N`: books like book N, numbered for info and borrow.
    nonisolated static let similar = Command(
        typedName: TypedWord("typed: command", "similar"), aliases: ["like", "more-like"],
        synopsis: N_("similar N | similar id:PRODUCT"),
        summary: N_("Books like book N: its series, the same author, category and keywords"),
        details: [
            N_(
                "The library's own choice: the rest of the series first, "
                    + "then the same author, then books that share a category and keywords. The list becomes the "
                    + "one info N, borrow N and reserve N use."),
            N_("Examples:  similar 3     similar id:100042"),
        ],
        completion: .resultNumbers,
        run: { arguments, session in
            guard let word = arguments.positional.first, arguments.positional.count == 1 else {
                throw UserError.usage(tr("Usage: similar N (a number from the last list) or similar id:PRODUCT."))
            }
            let picked = try await session.pick(word, command: "similar")
            let title = try await session.title(of: picked)
            let books: [Product]
            do {
                books = try await session.library.service.similar(
                    productID: picked.productID, card: session.knownCard, limit: 10)
            } catch let error as LendingError where error.kind == .unsupported {
                throw UserError(
                    tr("This library does not suggest similar books; try search author:NAME or top category:NAME."))
            } catch let error as LendingError where error.kind == .notFound {
                throw UserError(
                    tr(
                        "The library has no product {id}. Check the id, or search for the title.",
                        ["id": picked.productID]))
            }
            let list = ResultList(
                source: .related(heading: tr("Books like {title}", ["title": session.theme.marks.quoted(title)])),
                sort: SortSpec(.relevance),
                total: books.count, pageOffset: 0, pageSize: max(1, books.count),
                byNumber: Dictionary(uniqueKeysWithValues: books.enumerated().map { ($0.offset + 1, $0.element) }))
            session.lists.list = list
            return await session.show(list)
        })

    /// The other books of the product's series, in series order; nothing when the book is in no
    /// series or the library cannot say.
    ///
    /// They are numbered on after the list on screen (a top 10 gets 11, 12, …), so `info 2` then
    /// `borrow 2` still means the book just looked at, and `borrow 11` takes the series' next
    /// book. When the numbers on screen are loans or the shelf, the books are named by id instead.
    static func seriesLines(of product: Product, session: Session) async -> [String] {
        guard let series = product.series,
            let related = try? await session.library.service.similar(
                productID: product.id, card: session.knownCard, limit: 30)
        else { return [] }
        let books = related.filter { $0.series?.name == series.name }
            .sorted { ($0.series?.order ?? Int.max, $0.title) < ($1.series?.order ?? Int.max, $1.title) }
        guard !books.isEmpty else { return [] }
        let heading = tr("Also in the series {series}", ["series": session.theme.marks.quoted(series.name)])
        let own = session.ownBooks()
        guard session.lists.numbered == nil || session.lists.numbered == .books, var list = session.lists.list else {
            let renderer = session.listRenderer
            return ["", session.theme.bold(heading)]
                + books.map {
                    """
                      \(renderer.mark($0, own: own)) \(session.theme.marks.middleDot) \($0.title) \
                    \(session.theme.dim("id:\($0.id)"))
                    """
                }
                + ["", session.theme.dim(tr("borrow id:X or info id:X takes one of them."))]
        }
        // A book already numbered on screen keeps its number; the others are numbered on.
        var next = list.highestNumber + 1
        var page: [(number: Int, product: Product)] = []
        for book in books {
            if let number = list.byNumber.first(where: { $0.value.id == book.id })?.key {
                page.append((number, book))
            } else {
                list.byNumber[next] = book
                page.append((next, book))
                next += 1
            }
        }
        session.lists.list = list
        let numbers = page.map(\.number)
        let advice =
            numbers.count == 1
            ? tr("Number {number} is this series: info N, borrow N and reserve N use them.", ["number": numbers[0]])
            : tr(
                "Numbers {numbers} are this series: info N, borrow N and reserve N use them.",
                ["numbers": numbers.map(String.init).joined(separator: ", ")])
        return ["", session.theme.bold(heading), ""] + session.listRenderer.rows(page, own: own)
            + ["", session.theme.dim(advice)]
    }
}

/// Renders a product as a page of labelled fields, skipping what is unknown.
struct InfoRenderer {
    /// `Millennium, book 2`, or the name alone.
    static func seriesWords(_ series: Product.Series) -> String {
        series.order.map { tr("{series}, book {number}", ["series": series.name, "number": $0]) } ?? series.name
    }

    let theme: Theme
    /// Marks for the patron in use.
    let availability: AvailabilityWords

    func render(_ product: Product, library: LibraryPage?) -> [String] {
        let m = theme.marks
        var lines = [theme.bold(product.title)]
        let authors = product.authors.map(\.fullName)
        if !authors.isEmpty { lines.append(tr("by {authors}", ["authors": authors.joined(separator: ", ")])) }
        lines.append("")
        var fields: [(String, String)] = []
        if let original = product.originalTitle, original != product.title {
            fields.append((tr("Original title"), original))
        }
        if !authors.isEmpty {
            fields.append((authors.count == 1 ? tr("Author") : tr("Authors"), authors.joined(separator: ", ")))
        }
        let translators = product.translators.map(\.fullName)
        if !translators.isEmpty {
            fields.append(
                (translators.count == 1 ? tr("Translator") : tr("Translators"), translators.joined(separator: ", ")))
        }
        for role in [Contributor.Role.illustrator, .editor, .narrator] {
            let names = product.contributors.filter { $0.role == role }.map(\.fullName)
            if !names.isEmpty { fields.append((Self.roleLabel(role), names.joined(separator: ", "))) }
        }
        if let series = product.series { fields.append((tr("Series"), Self.seriesWords(series))) }
        if let publisher = product.publisher { fields.append((tr("Publisher"), publisher)) }
        if let date = product.publishedDate { fields.append((tr("Published"), Words.day(date))) }
        if let language = product.language { fields.append((tr("Language"), Words.language(language))) }
        if !product.categories.isEmpty { fields.append((tr("Categories"), product.categories.joined(separator: ", "))) }
        if let pages = product.pages { fields.append((tr("Pages"), String(pages))) }
        if !product.isbns.isEmpty { fields.append(("ISBN", product.isbns.joined(separator: ", "))) }
        let formats = product.offeredFormats.map(Words.format)
        if !formats.isEmpty { fields.append((tr("Formats"), formats.joined(separator: ", "))) }
        if product.teaser != nil { fields.append((tr("Sample"), tr("yes, free to read"))) }
        if let rating = product.rating {
            fields.append((tr("Rating"), tr("{rating} of 5", ["rating": Self.oneDecimal(rating)])))
        }
        if let days = library?.loanPeriodDays { fields.append((tr("Loan period"), trn("{n} day", "{n} days", days))) }
        fields.append((tr("Product id"), product.id))
        let availabilityLabel = tr("Availability")
        // One column for every label, availability's too (Tillgänglighet is the longest in Swedish);
        // the English page keeps the spacing testers' scenario files match.
        let labelWidth = max(
            (fields.map { DisplayWidth.of($0.0) }.max() ?? 0) + 2, DisplayWidth.of(availabilityLabel) + 1)
        for (label, value) in fields {
            lines.append(theme.dim(DisplayWidth.pad(label, to: labelWidth)) + theme.fit(value, used: labelWidth))
        }
        let mark = availability.mark(product.availability)
        var availabilityLine = theme.dim(DisplayWidth.pad(availabilityLabel, to: labelWidth)) + mark
        if let a = product.availability, a.available, let copies = a.copies {
            availabilityLine += theme.dim(" (" + trn("{n} copy", "{n} copies", copies) + ")")
        } else if let a = product.availability, a.available, a.copies == nil {
            availabilityLine += theme.dim(" \(m.middleDot) " + tr("no waiting, unlimited loans"))
        }
        lines.append(availabilityLine)
        if let description = product.description, !description.isEmpty {
            lines.append("")
            lines += theme.wrap(description)
        }
        return lines
    }

    /// `Illustrator`, `Illustratör`: a contributor's role as a field label.
    static func roleLabel(_ role: Contributor.Role) -> String {
        switch role {
        case .illustrator: tr("Illustrator")
        case .editor: tr("Editor")
        case .narrator: tr("Narrator")
        default: role.rawValue
        }
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        // 3.4 in English, 3,4 in Swedish.
        return "\(tenths / 10)\(Words.locale.decimalSeparator ?? ".")\(tenths % 10)"
    }
}

/// `info --json`.
struct InfoJSON: Encodable, Sendable {
    let id: String
    let title: String
    let originalTitle: String?
    let authors: [String]
    let translators: [String]
    let series: String?
    let seriesOrder: Int?
    let publisher: String?
    let published: String?
    let language: String?
    let categories: [String]
    let pages: Int?
    let isbns: [String]
    let formats: [String]
    let description: String?
    let rating: Double?
    let loanPeriodDays: Int?
    let available: Bool?
    let reason: String?
    let explanation: String?
    let copies: Int?
    let waiting: Int?

    init(_ p: Product, library: LibraryPage?) {
        id = p.id
        title = p.title
        originalTitle = p.originalTitle
        authors = p.authors.map(\.fullName)
        translators = p.translators.map(\.fullName)
        series = p.series?.name
        seriesOrder = p.series?.order
        publisher = p.publisher
        published = p.publishedDate?.description
        language = p.language
        categories = p.categories
        pages = p.pages
        isbns = p.isbns
        formats = p.offeredFormats.map(\.id)
        description = p.description
        rating = p.rating
        loanPeriodDays = library?.loanPeriodDays
        available = p.availability?.available
        reason = p.availability?.reason?.word
        explanation = p.availability?.explanation
        copies = p.availability?.copies
        waiting = p.availability?.waiting
    }
}
