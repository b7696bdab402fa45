import Catalog

/// The last list of books shown, so `info 3` and `more` know what 3 and "more" are.
///
/// Numbers run across pages: the second page of a search is 21–40, and every number fetched
/// so far stays valid until the next list replaces this one.
struct ResultList: Sendable {
    /// What produced the list.
    enum Source: Sendable, Equatable {
        /// A catalogue search.
        case search(query: String)
        /// The top list by popularity.
        case top
        /// The newest books.
        case newest
        /// The library page's top and newest lists together.
        case libraryPage
        /// Books like one book (`similar N`), or the rest of its series (`info N`): the heading says which.
        case related(heading: String)
    }

    var source: Source
    var sort: SortSpec
    /// Hits in the whole list (may be more than have been fetched).
    var total: Int
    /// Offset of the page on screen.
    var pageOffset: Int
    /// Hits per page.
    var pageSize: Int
    /// Every product fetched so far, by 1-based number.
    var byNumber: [Int: Product]
    /// The category a top or newest list is limited to (`top 10 category:Thriller`).
    var category: String?
    /// For a search with no hits: the query with a close catalogue word instead of a misspelt one.
    var suggestion: String?

    /// The products of the page on screen, with their numbers.
    var currentPage: [(number: Int, product: Product)] {
        (pageOffset + 1...max(pageOffset + 1, pageOffset + pageSize)).compactMap { n in
            byNumber[n].map { (n, $0) }
        }
    }

    /// True when the list can be paged (top/new lists are one page).
    var isPaged: Bool {
        if case .search = source { return true }
        return false
    }

    /// The highest number fetched.
    var highestNumber: Int { byNumber.keys.max() ?? 0 }
}
