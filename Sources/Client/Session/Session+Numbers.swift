import Catalog
import Localization
import Shelf
import Terminal

/// Which list the numbers on screen belong to: `info 2`, `borrow 2`, `read 2`, `return 2` and
/// `cancel 2` all mean item 2 of the list shown last.
enum NumberedList: Sendable, Equatable {
    /// Books from the catalogue: search, top, new, library.
    case books
    /// The shelf or the to-be-read list.
    case shelf
    /// `loans`.
    case loans
    /// `reservations`.
    case reservations

    /// `Numbers now mean these loans.` — said once, when a list changes what numbers mean.
    var notice: String {
        switch self {
        case .books: tr("Numbers now mean these books.")
        case .shelf: tr("Numbers now mean this list.")
        case .loans: tr("Numbers now mean these loans.")
        case .reservations: tr("Numbers now mean these reservations.")
        }
    }
}

/// What a number of the list on screen, or a product id, stands for.
enum Picked {
    /// A book of a catalogue list, or a product id.
    case product(id: String, known: Product?)
    /// A book of the shelf or the to-be-read list.
    case shelf(ShelfItem)
    /// A loan of `loans`.
    case loan(Loan)
    /// A reservation of `reservations`.
    case reservation(Reservation)

    /// The book behind it.
    var productID: String {
        switch self {
        case .product(let id, _): id
        case .shelf(let item): item.entry.productID
        case .loan(let loan): loan.productID
        case .reservation(let reservation): reservation.productID
        }
    }

    /// The product, when the list already had it.
    var known: Product? {
        if case .product(_, let known) = self { return known }
        return nil
    }

    /// The title, when the list had one.
    var title: String? {
        switch self {
        case .product(_, let known): known?.title
        case .shelf(let item): item.entry.title
        case .loan(let loan): loan.title.isEmpty ? nil : loan.title
        case .reservation(let reservation): reservation.title
        }
    }
}

extension Session {
    /// Makes `kind` the list numbers refer to; returns the line that says so when that changes
    /// what numbers mean (nil when they meant a list of the same kind already, or nothing yet).
    ///
    /// An empty list (`count` 0) takes nothing over: the numbers still mean the list before it,
    /// so `shelf` on an empty shelf and then `borrow 1` borrows book 1 of the search on screen.
    func numbersNow(_ kind: NumberedList, count: Int) -> String? {
        guard count > 0 else { return nil }
        defer { lists.numbered = kind }
        // The first list of a session changes nothing: each command's own list was meant until now.
        guard let before = lists.numbered, before != kind else { return nil }
        return theme.dim(kind.notice)
    }

    /// Item `word` of the list on screen, or the product `id:X` (or a long number) names.
    ///
    /// With no list shown yet, `fallback` says which list a number means (`return 1` means loan 1).
    /// - Throws: `UserError` naming the list and how many it holds when there is no such item.
    func pick(_ word: String, command: String, fallback: NumberedList = .books) async throws -> Picked {
        guard let n = Int(word), word.count <= 3 else {
            let (id, known) = try resolve(word, command: command)
            return .product(id: id, known: known)
        }
        switch lists.numbered ?? fallback {
        case .books:
            let (id, known) = try resolve(word, command: command)
            return .product(id: id, known: known)
        case .shelf:
            let item = try shelfItem(number: word, command: command)
            // Another library's loan can be read from this computer; anything else is asked of that library.
            if let other = item.library, !["read", "notes", "remove"].contains(command) {
                let values: KeyValuePairs<String, any CustomStringConvertible> = [
                    "title": theme.marks.quoted(item.entry.title), "library": other.name,
                    "command": Command.spoken(command), "profile": other.profile ?? "",
                ]
                throw UserError(
                    other.profile == nil
                        ? tr(
                            "{title} is at {library}, not the library in use: switch to that library to {command} it.",
                            values)
                        : tr(
                            "{title} is at {library}, not the library in use: library use {profile}, "
                                + "then {command} it there.", values))
            }
            return .shelf(item)
        case .loans:
            if lists.numbered == nil, let card = shelfCard() {
                lists.loanList = try await library.service.loans(card: card, onlyActive: true).filter(\.active).sorted {
                    $0.expiryDate < $1.expiryDate
                }
            }
            return .loan(
                try Self.item(
                    n, of: lists.loanList, empty: tr("You have no loans. loans shows them."),
                    missing: {
                        trn(
                            "No loan {number} in the list shown (there is {n}). Type loans to see them.",
                            "No loan {number} in the list shown (there are {n}). Type loans to see them.", $0,
                            ["number": n])
                    }))
        case .reservations:
            if lists.numbered == nil, let card = shelfCard() {
                lists.reservationList = try await library.service.reservations(card: card).sorted(
                    by: Reservation.shownFirst)
            }
            return .reservation(
                try Self.item(
                    n, of: lists.reservationList, empty: tr("You have no reservations. reservations shows them."),
                    missing: {
                        trn(
                            "No reservation {number} in the list shown (there is {n}). Type reservations to see them.",
                            "No reservation {number} in the list shown (there are {n}). "
                                + "Type reservations to see them.", $0, ["number": n])
                    }))
        }
    }

    /// Refuses a word that is neither a list number nor a product id, before anyone is asked for a card.
    func checkWord(_ word: String, command: String) throws {
        if Int(word) != nil, word.count <= 3 { return }
        _ = try resolve(word, command: command)
    }

    /// Item `n` of `list`: `empty` when the list is empty, `missing(count)` when there is no such number.
    static func item<T>(_ n: Int, of list: [T], empty: String, missing: (Int) -> String) throws -> T {
        guard !list.isEmpty else { throw UserError(empty) }
        guard n >= 1, n <= list.count else { throw UserError(missing(list.count)) }
        return list[n - 1]
    }

    /// The title of what a number picked, asking the library when the list did not have it.
    func title(of picked: Picked) async throws -> String {
        if let title = picked.title { return title }
        return try await product(picked.productID, known: picked.known).title
    }

    /// The shelf's line for what a number picked; refuses, saying what to do, when the book is not on the shelf.
    func shelfItem(for picked: Picked, word: String, command: String) async throws -> ShelfItem {
        if case .shelf(let item) = picked { return item }
        if let item = try shelfItem(forProduct: picked.productID) { return item }
        if case .loan = picked {
            // A loan the shelf has not seen yet (borrowed elsewhere): sync, so its line is there to open.
            await syncAfterChange()
            if let item = try shelfItem(forProduct: picked.productID) { return item }
        }
        let title = theme.marks.quoted(picked.title ?? tr("product {id}", ["id": picked.productID]))
        if case .reservation(let reservation) = picked {
            throw UserError(
                reservation.ready
                    ? tr(
                        "{title} is ready for you but not borrowed yet: borrow {number} first.",
                        ["title": title, "number": word])
                    : tr(
                        "{title} is reserved (#{place} in the queue); it opens once you have borrowed it.",
                        ["title": title, "place": reservation.queuePosition]))
        }
        throw UserError(
            tr(
                "{title} is not on your shelf: borrow {number} or sample {number} puts it there.",
                ["title": title, "number": word]))
    }

    /// The shelf's line for a product: its loan first, then a sample, a reservation, an ended loan, the to-be-read
    /// list.
    func shelfItem(forProduct id: String) throws -> ShelfItem? {
        let items = ShelfRenderer.items(try currentShelf()).filter { $0.entry.productID == id }
        let order: [Shelf.SectionKind] = [.loans, .samples, .ready, .reserved, .ended, .toBeRead]
        return items.min { (order.firstIndex(of: $0.kind) ?? 9) < (order.firstIndex(of: $1.kind) ?? 9) }
    }

    /// Item N of the last shelf shown (the shelf as it is now when none was shown).
    func shelfItem(number word: String, command: String) throws -> ShelfItem {
        if lists.shelfList.isEmpty { lists.shelfList = ShelfRenderer.items(try currentShelf()) }
        let list = lists.shelfList
        guard let n = Int(word) else {
            throw UserError.usage(
                tr("Usage: {command} N, with N a number from shelf.", ["command": Command.spoken(command)]))
        }
        guard !list.isEmpty else { throw UserError(tr("Your shelf is empty. borrow N or sample N puts books on it.")) }
        guard n >= 1, n <= list.count else {
            throw UserError(
                trn(
                    "No book {number} on your shelf (there is {n}). Type shelf to see them.",
                    "No book {number} on your shelf (there are {n}). Type shelf to see them.", list.count,
                    ["number": n]))
        }
        return list[n - 1]
    }

    /// The product behind a list number or id.
    func product(_ id: String, known: Product?) async throws -> Product {
        if let known { return known }
        do {
            return try await library.service.product(id: id)
        } catch let error as LendingError where error.kind == .notFound {
            throw UserError(tr("The library has no product {id}. Check the id, or search for the title.", ["id": id]))
        }
    }
}
