import Catalog
public import Foundation
import Localization

/// The patron's bookshelf at a moment: sections of entries, each with its badge.
public struct Shelf: Sendable, Hashable {
    /// A shelf section, in the order they are shown.
    public enum SectionKind: String, Sendable, Hashable, CaseIterable {
        case loans, ended, ready, reserved, samples, toBeRead

        /// The heading a user reads.
        public var title: String {
            switch self {
            case .loans: tr("Loans")
            case .ended: tr("Ended")
            case .ready: tr("Ready to borrow")
            case .reserved: tr("Reserved")
            case .samples: tr("Samples")
            case .toBeRead: tr("To be read")
            }
        }
    }

    /// One book on the shelf.
    public struct Entry: Sendable, Hashable {
        /// The product.
        public var productID: String
        /// The title.
        public var title: String
        /// The authors, as displayed.
        public var authors: String
        /// The badge, if the section has one (to-be-read entries have none).
        public var badge: Badge?
        /// How much is read, 0–100, when the book has been opened.
        public var percentRead: Double?
        /// True when a downloaded file is recorded for it.
        public var isDownloaded: Bool
        /// The loan or reservation id, for `return` and `cancel`.
        public var upstreamID: String?
        /// Days until the entry's day (expiry, ready-until, estimate); nil when it has none.
        public var daysLeft: Int?
        /// When it last changed for the patron (borrowed, ended, added, read).
        public var recent: Date?

        /// Creates an entry.
        public init(
            productID: String, title: String, authors: String, badge: Badge?, percentRead: Double? = nil,
            isDownloaded: Bool = false, upstreamID: String? = nil, daysLeft: Int? = nil, recent: Date? = nil
        ) {
            self.productID = productID
            self.title = title
            self.authors = authors
            self.badge = badge
            self.percentRead = percentRead
            self.isDownloaded = isDownloaded
            self.upstreamID = upstreamID
            self.daysLeft = daysLeft
            self.recent = recent
        }
    }

    /// A section and its entries.
    public struct Section: Sendable, Hashable {
        /// Which section.
        public var kind: SectionKind
        /// Its entries, sorted.
        public var entries: [Entry]

        /// Creates a section.
        public init(kind: SectionKind, entries: [Entry]) {
            self.kind = kind
            self.entries = entries
        }
    }

    /// The non-empty sections, in display order.
    public var sections: [Section]

    /// Creates a shelf.
    public init(sections: [Section]) { self.sections = sections }

    /// The entries of one section (empty when it has none).
    public func entries(_ kind: SectionKind) -> [Entry] {
        sections.first { $0.kind == kind }?.entries ?? []
    }

    /// True when nothing is on the shelf.
    public var isEmpty: Bool { sections.allSatisfy(\.entries.isEmpty) }
}
