public import Foundation
internal import Markup
internal import TextSafety

/// Reads OPDS feeds: 1.2 (Atom XML, through Markup's ``XMLReader``, which resolves no external
/// entity) and 2.0 (JSON). Every word is made safe to draw as it is read (``SafeText``);
/// every link is resolved against the feed's address.
public enum OPDSParser {
    // Not patron-facing: OPDSClient turns it into a LendingError.
    /// Why a feed could not be read.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// Parses a feed of either kind, by its first significant byte.
    /// - Throws: ``Failure`` when it is neither an Atom feed nor an OPDS 2 feed.
    public static func feed(_ data: Data, base: URL) throws -> OPDSFeed {
        switch data.first(where: {
            !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF)
        }) {
        case UInt8(ascii: "<"): return try atom(data, base: base)
        case UInt8(ascii: "{"): return try json(data, base: base)
        default: throw Failure(description: "is neither an Atom (OPDS 1) nor a JSON (OPDS 2) catalogue")
        }
    }

    // MARK: OPDS 1.2

    static func atom(_ data: Data, base: URL) throws -> OPDSFeed {
        var reader = AtomReader(base: base)
        var xml = XMLReader(bytes: [UInt8](data))
        do {
            try reader.read(&xml)
        } catch {
            throw Failure(
                description: reader.sawFeed ? "is not well-formed XML: \(error)" : "is XML but not an Atom feed")
        }
        guard reader.sawFeed else { throw Failure(description: "is XML but not an Atom feed") }
        return OPDSFeed(
            title: SafeText.line(reader.feedTitle), entries: reader.entries, links: reader.feedLinks,
            totalResults: reader.totalResults)
    }

    /// One entry: the answer to following a borrow link (an Atom `entry` document, an OPDS 2
    /// publication, or a feed whose first book is it).
    /// - Throws: ``Failure`` when it is none of these.
    public static func entry(_ data: Data, base: URL) throws -> OPDSEntry {
        if data.first(where: { !(0x20 == $0 || 0x0A == $0 || 0x0D == $0 || 0x09 == $0) }) == UInt8(ascii: "{"),
            let publication = (try? JSONValue.parse(data)).flatMap(OPDS2Document.Publication.init),
            publication.metadata?.title != nil
        {
            return jsonPublication(publication, links: LinkResolver(base: base))
        }
        guard let entry = try feed(data, base: base).entries.first(where: { $0.navigation == nil }) else {
            throw Failure(description: "has no entry")
        }
        return entry
    }

    /// The search template of an OpenSearch description (`{searchTerms}` in an Atom `Url`).
    public static func openSearchTemplate(_ data: Data, base: URL) -> String? {
        var xml = XMLReader(bytes: [UInt8](data))
        var template: String?
        // What comes before a fault in the document still counts, as it did with XMLParser.
        while let event = try? xml.next() {
            guard case .start(let name, let attributes) = event, name.local == "Url",
                Namespace.isOpenSearch(name.namespace),
                let candidate = attributes.plain("template"), candidate.contains("{searchTerms}")
            else { continue }
            let type = attributes.plain("type")?.lowercased() ?? ""
            if template == nil || type.hasPrefix("application/atom+xml") { template = candidate }
        }
        guard let template else { return nil }
        // Resolve the template's base part; the braces are not valid in a URL, so keep them aside.
        let marker = "BOKSEARCHTERMS"
        let stand = template.replacingOccurrences(of: "{searchTerms}", with: marker)
        guard let url = URL(string: stand, relativeTo: base)?.absoluteURL else { return nil }
        return url.absoluteString.replacingOccurrences(of: marker, with: "{searchTerms}")
    }

    // MARK: OPDS 2.0

    static func json(_ data: Data, base: URL) throws -> OPDSFeed {
        guard let root = (try? JSONValue.parse(data)).flatMap(OPDS2Document.init) else {
            throw Failure(description: "is not a JSON object")
        }
        guard root.looksLikeAFeed else {
            throw Failure(description: "is JSON but not an OPDS 2 feed")
        }
        let resolver = LinkResolver(base: base)
        var entries: [OPDSEntry] = []
        let groups = [OPDS2Document.Group(navigation: root.navigation, publications: root.publications)] + root.groups
        for group in groups {
            for item in group.navigation {
                guard let link = jsonLink(item, links: resolver) else { continue }
                var entry = OPDSEntry(
                    id: link.href.absoluteString, title: SafeText.line(item.title ?? link.href.lastPathComponent))
                var feedLink = link
                if feedLink.type == nil { feedLink.type = "application/opds+json" }
                entry.links = [feedLink]
                entries.append(entry)
            }
            for publication in group.publications {
                entries.append(jsonPublication(publication, links: resolver))
            }
        }
        let links =
            root.links.compactMap { jsonLink($0, links: resolver) }
            + root.facets.flatMap { facet -> [OPDSLink] in
                facet.links.compactMap { item in
                    guard var link = jsonLink(item, links: resolver) else { return nil }
                    link.relations.append("http://opds-spec.org/facet")
                    link.facetGroup = facet.title.map(SafeText.line)
                    return link
                }
            }
        return OPDSFeed(
            title: SafeText.line(root.metadata?.title ?? ""), entries: entries, links: links,
            totalResults: root.metadata?.numberOfItems.map { max(0, $0) })
    }

    private static func jsonPublication(_ publication: OPDS2Document.Publication, links: LinkResolver) -> OPDSEntry {
        let metadata = publication.metadata
        let title = SafeText.line(metadata?.title ?? "")
        var entry = OPDSEntry(id: metadata?.identifier ?? title, title: title)
        guard let metadata else { return entry }
        entry.authors = metadata.authors.map(SafeText.line)
        entry.summary = metadata.description.map(SafeText.text)
        entry.publisher = metadata.publishers.first.map(SafeText.line)
        entry.language = metadata.language.map(SafeText.line)
        entry.issued = metadata.published.map(SafeText.line)
        entry.subjects = metadata.subjects.map(SafeText.line)
        if let identifier = metadata.identifier { entry.identifiers = [SafeText.line(identifier)] }
        entry.series = metadata.series.map(SafeText.line)
        entry.links = (publication.links + publication.images).compactMap { jsonLink($0, links: links) }
        return entry
    }

    private static func jsonLink(_ item: OPDS2Document.Link, links: LinkResolver) -> OPDSLink? {
        guard let href = item.href, let url = links.resolve(href) else { return nil }
        var link = OPDSLink(href: url, relations: item.relations, type: item.type, title: item.title.map(SafeText.line))
        link.length = item.size
        link.indirectTypes = item.indirectTypes.map(SafeText.line)
        link.lending = item.lending
        return link
    }
}

/// Resolves a feed's links against its address, as `URL(string:relativeTo:)` does.
///
/// The two shapes nearly every link has — a whole `http(s)://` address, or a path from the
/// server's root (`/get/epub/12`) of plain characters with no `.` or `..` segment — are put
/// together as text and parsed once: Foundation's relative resolution was a third of reading a
/// 5 000-entry feed (bok-bench). Anything else goes through Foundation.
struct LinkResolver {
    let base: URL
    /// `http://127.0.0.1:8080`: the base's scheme and authority; nil when it has none.
    private let origin: String?

    init(base: URL) {
        self.base = base
        let text = base.absoluteString
        if let separator = text.range(of: "://"),
            let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https"
        {
            let end = text[separator.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
            origin = String(text[..<end])
        } else {
            origin = nil
        }
    }

    /// `href` resolved; nil for what is not http(s).
    func resolve(_ href: String) -> URL? {
        let href = href.trimmedWhitespace
        if Self.isPlain(href) {
            // By bytes: String's hasPrefix compares as Unicode.
            let bytes = href.utf8
            if bytes.first == UInt8(ascii: "/"), bytes.dropFirst().first != UInt8(ascii: "/"), let origin {
                return URL(string: origin + href)
            }
            if bytes.starts(with: "http://".utf8) || bytes.starts(with: "https://".utf8) { return URL(string: href) }
        }
        guard let url = URL(string: href, relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        return url
    }

    /// True when `href` has only characters a URL keeps as they are (escapes well formed) and no
    /// dot segment, so that joining it as text resolves it as RFC 3986 does.
    private static func isPlain(_ href: String) -> Bool {
        let bytes = href.utf8
        var index = bytes.startIndex
        var previous: UInt8 = 0
        while index != bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            case UInt8(ascii: "."):
                if previous == UInt8(ascii: "/") { return false }
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "?"),
                UInt8(ascii: "="), UInt8(ascii: "&"), UInt8(ascii: "+"), UInt8(ascii: ":"), UInt8(ascii: "@"),
                UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "*"), UInt8(ascii: ","), UInt8(ascii: ";"):
                break
            case UInt8(ascii: "%"):
                let next = bytes.index(after: index)
                guard next != bytes.endIndex, bytes.index(after: next) != bytes.endIndex,
                    bytes[next].isHexDigit, bytes[bytes.index(after: next)].isHexDigit
                else { return false }
            default: return false
            }
            previous = byte
            index = bytes.index(after: index)
        }
        return true
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

/// The namespaces of the OPDS 1.2 vocabulary.
private enum Namespace {
    static let atom = "http://www.w3.org/2005/Atom"
    static let opds = "http://opds-spec.org/2010/catalog"
    static let dcterms = "http://purl.org/dc/terms/"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let openSearch = "http://a9.com/-/spec/opensearch/1.1/"
    /// bok's mock writes why a title is out as `bok:reason` on `opds:availability`.
    static let bok = "urn:x-bok:opds"

    /// OpenSearch 1.1, or the 1.0 of older feeds (`http://a9.com/-/spec/opensearchrss/1.0/`), or none.
    static func isOpenSearch(_ namespace: String?) -> Bool {
        guard let namespace else { return true }
        return namespace.hasPrefix("http://a9.com/-/spec/opensearch")
    }
}

/// Builds the feed from Atom's elements, keeping only what OPDS needs.
///
/// Elements are known by namespace and local name: Atom's `title` is the entry's title, a
/// `dc:title` beside it is not. An element in no namespace (a feed that declares none) is read
/// by its local name alone, as every name was before.
private struct AtomReader {
    /// What the reader knows of the elements it meets.
    private enum Element {
        case feed, entry, title, id, author, name, summary, content, link, category, published
        case creator, publisher, language, issued, identifier, series, totalResults
        case availability, holds, copies, indirectAcquisition

        /// The element `name` is, its namespace already sorted into `vocabulary`.
        init?(_ name: XMLName, _ vocabulary: Vocabulary) {
            let atom = vocabulary.contains(.atom)
            // The commonest first: a feed has several categories and links an entry.
            switch name.local {
            case "category" where atom: self = .category
            case "link" where atom: self = .link
            case "entry" where atom: self = .entry
            case "title" where atom: self = .title
            case "id" where atom: self = .id
            case "author" where atom: self = .author
            case "name" where atom: self = .name
            case "summary" where atom: self = .summary
            case "content" where atom: self = .content
            case "published" where atom: self = .published
            case "feed" where atom: self = .feed
            case "language" where vocabulary.contains(.dublinCore): self = .language
            case "creator" where vocabulary.contains(.dublinCore): self = .creator
            case "publisher" where vocabulary.contains(.dublinCore): self = .publisher
            case "issued" where vocabulary.contains(.dublinCore): self = .issued
            case "identifier" where vocabulary.contains(.dublinCore): self = .identifier
            // No namespace of note has it; feeds put it in their own.
            case "series": self = .series
            case "totalResults" where vocabulary.contains(.openSearch): self = .totalResults
            case "availability" where vocabulary.contains(.opds): self = .availability
            case "holds" where vocabulary.contains(.opds): self = .holds
            case "copies" where vocabulary.contains(.opds): self = .copies
            case "indirectAcquisition" where vocabulary.contains(.opds): self = .indirectAcquisition
            default: return nil
            }
        }
    }

    /// The vocabularies a namespace holds names of: all of them for a name in no namespace.
    struct Vocabulary: OptionSet {
        let rawValue: UInt8
        static let atom = Vocabulary(rawValue: 1)
        static let dublinCore = Vocabulary(rawValue: 2)
        static let opds = Vocabulary(rawValue: 4)
        static let openSearch = Vocabulary(rawValue: 8)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        init(_ namespace: String?) {
            guard let namespace else {
                self = [.atom, .dublinCore, .opds, .openSearch]
                return
            }
            self = []
            if namespace == Namespace.atom { insert(.atom) }
            if namespace == Namespace.dcterms || namespace == Namespace.dublinCore { insert(.dublinCore) }
            if namespace == Namespace.opds { insert(.opds) }
            if Namespace.isOpenSearch(namespace) { insert(.openSearch) }
        }
    }

    let links: LinkResolver
    var sawFeed = false
    var feedTitle = ""
    var feedLinks: [OPDSLink] = []
    var entries: [OPDSEntry] = []
    /// `opensearch:totalResults`, when the feed gives it.
    var totalResults: Int?
    /// The entry being read, when `inEntry`. Not an optional: every change to an optional
    /// entry checked and copied it, which a 5 000-entry feed felt.
    private var entry = OPDSEntry(id: "", title: "")
    private var inEntry = false
    /// The namespaces met so far and their vocabularies: a feed names a handful, thousands of
    /// times, and a name's namespace is the very string its declaration gave (compared at once).
    private var vocabularies: [(namespace: String?, vocabulary: Vocabulary)] = []
    private var text = ""
    private var inAuthor = false
    /// The entry's link whose children are being read (`opds:availability` and the like), by index.
    private var openLink: Int?
    /// The `position` of the series element being read (`<bok:series position="2">`), as OPDS 2's
    /// `belongsTo.series.position`.
    private var seriesPosition: Int?
    private var depth = 0
    /// What each open element is, so that its end need not be looked up again.
    private var open: [Element?] = []
    /// The depth of an entry's `content` while inside it (XHTML content has elements of its own).
    private var contentDepth = 0
    /// Caps what one feed may hold: a hostile server cannot make bok keep millions of entries.
    static let maxEntries = 20_000
    /// Caps the text kept of one element.
    static let maxText = 1 << 20

    init(base: URL) { links = LinkResolver(base: base) }

    /// Reads the whole document; what was read before a fault stays read.
    mutating func read(_ xml: inout XMLReader) throws(XMLReader.Failure) {
        while let event = try xml.next() {
            switch event {
            case .start(let name, let attributes): start(name, attributes)
            case .end: end()
            case .text(let string): if text.utf8.count < Self.maxText { text += string }
            }
        }
    }

    private mutating func start(_ name: XMLName, _ attributes: [XMLAttribute]) {
        depth += 1
        if contentDepth > 0 {
            open.append(nil)
            return
        }
        text = ""
        let element = Element(name, vocabulary(name.namespace))
        open.append(element)
        switch element {
        case .content where inEntry: contentDepth = depth
        case .feed where depth == 1: sawFeed = true
        case .entry:
            // An entry on its own (the answer to a borrow) is read as a feed of one.
            if depth == 1 { sawFeed = true }
            entry = OPDSEntry(id: "", title: "")
            inEntry = entries.count < Self.maxEntries
        case .author: inAuthor = true
        case .link:
            let found = LinkAttributes(attributes)
            guard let href = found.href, let url = links.resolve(href) else { return }
            var link = OPDSLink(
                href: url, relations: Self.relations(found.rel ?? "alternate"), type: found.type,
                title: found.title.map(SafeText.line), length: found.length.flatMap { Int($0) })
            link.facetGroup = found.facetGroup.map(SafeText.line)
            link.isActiveFacet = found.activeFacet == "true"
            if inEntry {
                entry.links.append(link)
                openLink = entry.links.count - 1
            } else if depth == 2 {
                feedLinks.append(link)
            }
        case .availability, .holds, .copies, .indirectAcquisition:
            if inEntry, let openLink, entry.links.indices.contains(openLink) {
                Self.lending(name.local, attributes, into: &entry.links[openLink])
            }
        case .series: seriesPosition = attributes.plain("position").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        case .category:
            if let term = attributes.plain("label") ?? attributes.plain("term") {
                if inEntry { entry.subjects.append(SafeText.line(term)) }
            }
        default: break
        }
    }

    private mutating func vocabulary(_ namespace: String?) -> Vocabulary {
        for known in vocabularies where known.namespace == namespace { return known.vocabulary }
        let vocabulary = Vocabulary(namespace)
        if vocabularies.count < 16 { vocabularies.append((namespace, vocabulary)) }
        return vocabulary
    }

    private mutating func end() {
        defer { depth -= 1 }
        let element = open.popLast() ?? nil
        if contentDepth > 0, depth > contentDepth {
            text += " "
            return
        }
        if element == .content { contentDepth = 0 }
        let value = text.trimmedWhitespace
        text = ""
        if element == .entry {
            // Taken out of `entry`, not copied: a copy would retain each of its fields.
            var finished = OPDSEntry(id: "", title: "")
            swap(&finished, &entry)
            if inEntry, !finished.title.isEmpty || !finished.links.isEmpty {
                if finished.id.isEmpty { finished.id = finished.title }
                entries.append(finished)
            }
            inEntry = false
            return
        }
        if element == .author {
            inAuthor = false
            return
        }
        if element == .link {
            openLink = nil
            return
        }
        guard inEntry else {
            if element == .title, depth == 2 { feedTitle = value }
            if element == .totalResults, depth == 2, let total = Int(value), total >= 0 { totalResults = total }
            return
        }
        switch element {
        case .title: entry.title = SafeText.line(value)
        case .id: entry.id = value
        case .name where inAuthor: if !value.isEmpty { entry.authors.append(SafeText.line(value)) }
        case .creator: if !value.isEmpty { entry.authors.append(SafeText.line(value)) }
        case .summary: entry.summary = SafeText.text(value)
        case .content: entry.content = SafeText.text(Self.plain(value))
        case .publisher: entry.publisher = SafeText.line(value)
        case .language: entry.language = SafeText.line(value)
        case .issued, .published: if entry.issued == nil { entry.issued = SafeText.line(value) }
        case .identifier: entry.identifiers.append(SafeText.line(value))
        case .series:
            // `Name, 2`, as a series reads in OPDS 2's belongsTo.
            entry.series = SafeText.line(value) + (seriesPosition.map { ", \($0)" } ?? "")
        default: break
        }
    }

    /// A link's `rel`: one relation, or several separated by spaces.
    private static func relations(_ rel: String) -> [String] {
        var rel = rel
        let spaced = rel.withUTF8 { $0.isEmpty || $0.contains(UInt8(ascii: " ")) }
        return spaced ? rel.split(separator: " ").map(String.init) : [rel]
    }

    /// What a `link` element's attributes say, found in one pass over them (a feed has thousands
    /// of links). Each is the first of its name, as ``plain(_:)`` and ``opds(_:)`` find them.
    private struct LinkAttributes {
        var href, rel, type, title, length: String?
        /// `opds:facetGroup` and `opds:activeFacet`, or the same in no namespace (which wins).
        var facetGroup, activeFacet: String?

        init(_ attributes: [XMLAttribute]) {
            var namespacedGroup: String?
            var namespacedActive: String?
            for attribute in attributes {
                let value = attribute.value
                guard let namespace = attribute.name.namespace else {
                    switch attribute.name.local {
                    case "href": if href == nil { href = value }
                    case "rel": if rel == nil { rel = value }
                    case "type": if type == nil { type = value }
                    case "title": if title == nil { title = value }
                    case "length": if length == nil { length = value }
                    // Feeds write them `opds:facetGroup`.
                    case "facetGroup": if facetGroup == nil { facetGroup = value }
                    case "activeFacet": if activeFacet == nil { activeFacet = value }
                    default: break
                    }
                    continue
                }
                guard namespace == Namespace.opds || namespace == Namespace.bok else { continue }
                switch attribute.name.local {
                case "facetGroup": if namespacedGroup == nil { namespacedGroup = value }
                case "activeFacet": if namespacedActive == nil { namespacedActive = value }
                default: break
                }
            }
            facetGroup = facetGroup ?? namespacedGroup
            activeFacet = activeFacet ?? namespacedActive
        }
    }

    /// The Library Simplified extensions inside an acquisition link, added to it. A value that is not
    /// a number, a date or a known state is left out, as everything else odd in a feed is.
    static func lending(_ name: String, _ attributes: [XMLAttribute], into link: inout OPDSLink) {
        func value(_ key: String) -> String? { attributes.opds(key) }
        func number(_ key: String) -> Int? { value(key).flatMap { Int($0.trimmedWhitespace) }.map { max(0, $0) } }
        switch name {
        case "indirectAcquisition":
            if let type = value("type"), link.indirectTypes.count < 8 { link.indirectTypes.append(SafeText.line(type)) }
        case "availability":
            // The extension's wiki names the attribute `state`; Palace's servers write `status`.
            guard let word = value("status") ?? value("state"), var lending = OPDSLending(word: word) else { return }
            lending.holds = link.lending?.holds
            lending.position = link.lending?.position
            lending.copies = link.lending?.copies
            lending.copiesAvailable = link.lending?.copiesAvailable
            lending.since = value("since").flatMap(DayDate.init(string:))
            lending.until = value("until").flatMap(DayDate.init(string:))
            lending.reason = value("reason").map { UnavailableReason(word: SafeText.line($0)) }
            lending.pace = value("pace").flatMap { LoanPace(text: $0.trimmedWhitespace) }
            link.lending = lending
        case "holds":
            // Counts before the state (the order is free): kept on a provisional available state.
            var lending = link.lending ?? OPDSLending(state: .available)
            lending.holds = number("total")
            lending.position = number("position")
            link.lending = lending
        case "copies":
            // Without a state (yet), no copy on the shelf means the book is out, as in OPDS 2.
            var lending = link.lending ?? OPDSLending(state: number("available") == 0 ? .unavailable : .available)
            lending.copies = number("total")
            lending.copiesAvailable = number("available")
            link.lending = lending
        default: break
        }
    }

    /// Atom `content type="xhtml"|"html"` as text: tags dropped, the common entities decoded.
    static func plain(_ html: String) -> String {
        guard html.contains("<") || html.contains("&") else { return html }
        var out = ""
        var inTag = false
        for character in html {
            if character == "<" {
                inTag = true
                continue
            }
            if character == ">" {
                inTag = false
                out.append(" ")
                continue
            }
            if !inTag { out.append(character) }
        }
        return out.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }
}

extension [XMLAttribute] {
    /// The attribute `local` in no namespace (`href`, `rel`: how Atom's own are written).
    fileprivate func plain(_ local: String) -> String? {
        first { $0.name.local == local && $0.name.namespace == nil }?.value
    }

    /// An attribute of the OPDS extensions: written `opds:facetGroup` or `facetGroup`, and for
    /// `opds:availability`'s why, the mock's `bok:reason` and `bok:pace`. The one in no namespace wins.
    fileprivate func opds(_ local: String) -> String? {
        plain(local)
            ?? first {
                $0.name.local == local && ($0.name.namespace == Namespace.opds || $0.name.namespace == Namespace.bok)
            }?.value
    }
}

extension String {
    /// The string without white space and line ends at either end. Written here because
    /// `trimmingCharacters(in:)` goes through NSString on Linux: it was 12 % of parsing a 5 000-entry
    /// feed (bok-bench), for text that is almost always already trimmed.
    var trimmedWhitespace: String {
        // Most text has a visible ASCII character at each end: nothing to look up.
        if let first = utf8.first, let last = utf8.last, (0x21..<0x80).contains(first), (0x21..<0x80).contains(last) {
            return self
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return self }
        return String(scalars[first...last])
    }
}
