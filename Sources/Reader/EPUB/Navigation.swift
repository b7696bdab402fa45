internal import Foundation
import Localization
import Markup

/// A book's table of contents and page list, read on a thread of their own from the moment the
/// book is opened (``BackgroundResult``), and waited for when first asked for.
///
/// A book of 500 chapters has a nav of 500 entries, and one with a contents entry for every
/// section a nav and an NCX of thousands: a tenth of the time to its first page, spent while the
/// other core was idle. Read beside the first chapter's conversion and layout, they are usually
/// ready when the status line asks for the chapter's title.
struct NavigationResult: Sendable {
    var tableOfContents: [TOCEntry]
    var hasOwnTableOfContents: Bool
    var pageList: [PageListEntry]
    var warnings: [String]
}

/// The table of contents and page list, from the EPUB 3 navigation document or the EPUB 2 NCX.
struct Navigation {
    private(set) var tableOfContents: [TOCEntry] = []
    private(set) var pageList: [PageListEntry] = []
    private(set) var warnings: [String] = []

    init(package: PackageDocument, archive: ZipArchive, spineIndexByPath: [String: Int]) {
        if let nav = package.manifest.first(where: { $0.properties.contains("nav") }), let path = nav.path {
            if let bytes = try? archive.data(at: path) {
                readNav(MarkupElement.parse(bytes, html: true), path: path, spineIndexByPath: spineIndexByPath)
            } else {
                warnings.append("The book's navigation document \(path) is missing or damaged.")
            }
        }
        if tableOfContents.isEmpty || pageList.isEmpty {
            let ncx =
                package.ncxID.flatMap { package.manifestByID[$0] }
                ?? package.manifest.first { $0.mediaType == "application/x-dtbncx+xml" }
            if let path = ncx?.path {
                if let bytes = try? archive.data(at: path) {
                    // Read only for its page list once the nav gave the contents: a book's NCX repeats
                    // the nav's entries, and parsing it for nothing doubled the cost of opening a book
                    // with a contents entry for every section.
                    guard tableOfContents.isEmpty || Self.mentionsPageList(bytes) else { return }
                    readNCX(MarkupElement.parse(bytes), path: path, spineIndexByPath: spineIndexByPath)
                } else if tableOfContents.isEmpty {
                    warnings.append("The book's table of contents \(path) is missing or damaged.")
                }
            }
        }
    }

    /// Whether the bytes hold `pagelist` in any case (an NCX's `<pageList>`).
    static func mentionsPageList(_ bytes: [UInt8]) -> Bool {
        let word = Array("pagelist".utf8)
        guard bytes.count >= word.count else { return false }
        for start in 0...(bytes.count - word.count) where bytes[start] | 0x20 == word[0] {
            var index = 1
            while index < word.count, bytes[start + index] | 0x20 == word[index] { index += 1 }
            if index == word.count { return true }
        }
        return false
    }

    // MARK: EPUB 3

    private mutating func readNav(_ root: MarkupElement, path: String, spineIndexByPath: [String: Int]) {
        let navs = root.descendants("nav")
        func type(_ nav: MarkupElement) -> [Substring] {
            (nav.attribute("epub:type") ?? nav.attribute("type") ?? nav.attribute("role") ?? "").split(separator: " ")
        }
        let toc =
            navs.first { type($0).contains("toc") || type($0).contains("doc-toc") } ?? navs.first { type($0).isEmpty }
        if let list = toc?.first(where: { $0.localName == "ol" || $0.localName == "ul" }) {
            tableOfContents = Self.navEntries(list, path: path, spineIndexByPath: spineIndexByPath)
        }
        if let pages = navs.first(where: { type($0).contains("page-list") || type($0).contains("doc-pagelist") }) {
            pageList = pages.descendants("a").compactMap { anchor in
                guard let href = anchor.attribute("href"), let resolved = BookPath.resolve(href, relativeTo: path)
                else { return nil }
                let target = LinkTarget(path: resolved.path, fragment: resolved.fragment)
                return PageListEntry(
                    label: anchor.text, target: target, spineIndex: Self.spineIndex(of: target, spineIndexByPath))
            }
        }
    }

    private static func navEntries(_ list: MarkupElement, path: String, spineIndexByPath: [String: Int]) -> [TOCEntry] {
        list.children("li").compactMap { item in
            let label = item.child("a") ?? item.child("span") ?? item.first(where: { $0.localName == "a" })
            let title = label.map(Self.labelText) ?? ""
            var target: LinkTarget?
            if let href = label?.attribute("href"), let resolved = BookPath.resolve(href, relativeTo: path) {
                target = LinkTarget(path: resolved.path, fragment: resolved.fragment)
            }
            let children =
                (item.child("ol") ?? item.child("ul")).map {
                    navEntries($0, path: path, spineIndexByPath: spineIndexByPath)
                } ?? []
            if title.isEmpty && children.isEmpty { return nil }
            return TOCEntry(
                title: title.isEmpty ? tr("Untitled") : title, target: target,
                spineIndex: target.flatMap { spineIndexByPath[$0.path] }, children: children)
        }
    }

    /// A nav label's text; a label that is a picture gives its `alt` (or `title`).
    private static func labelText(_ label: MarkupElement) -> String {
        let text = label.text
        if !text.trimmed.isEmpty { return text }
        let image = label.descendants("img").first ?? label.descendants("image").first
        return image?.attribute("alt") ?? image?.attribute("title") ?? label.attribute("title") ?? ""
    }

    /// The spine item a page-list entry leads to: its document's, or, for a link into the package
    /// by an EPUB CFI (`package.opf#epubcfi(/6/4!/…)`), the item the CFI names.
    private static func spineIndex(of target: LinkTarget, _ spineIndexByPath: [String: Int]) -> Int? {
        if let index = spineIndexByPath[target.path] { return index }
        guard let fragment = target.fragment, fragment.hasPrefix("epubcfi(") else { return nil }
        return EPUBCFI(fragment)?.spineIndex
    }

    // MARK: EPUB 2

    private mutating func readNCX(_ root: MarkupElement, path: String, spineIndexByPath: [String: Int]) {
        if tableOfContents.isEmpty, let map = root.first(where: { $0.localName == "navmap" }) {
            tableOfContents = Self.navPoints(map, path: path, spineIndexByPath: spineIndexByPath)
        }
        if pageList.isEmpty, let list = root.first(where: { $0.localName == "pagelist" }) {
            pageList = list.children("pagetarget").compactMap { target in
                guard let src = target.child("content")?.attribute("src"),
                    let resolved = BookPath.resolve(src, relativeTo: path)
                else { return nil }
                let label = target.child("navlabel")?.text ?? target.attribute("value") ?? ""
                let link = LinkTarget(path: resolved.path, fragment: resolved.fragment)
                return PageListEntry(
                    label: label, target: link, spineIndex: Self.spineIndex(of: link, spineIndexByPath))
            }
        }
    }

    private static func navPoints(_ parent: MarkupElement, path: String, spineIndexByPath: [String: Int]) -> [TOCEntry]
    {
        parent.children("navpoint").map { point in
            let title = point.child("navlabel")?.text ?? ""
            var target: LinkTarget?
            if let src = point.child("content")?.attribute("src"),
                let resolved = BookPath.resolve(src, relativeTo: path)
            {
                target = LinkTarget(path: resolved.path, fragment: resolved.fragment)
            }
            return TOCEntry(
                title: title.isEmpty ? tr("Untitled") : title, target: target,
                spineIndex: target.flatMap { spineIndexByPath[$0.path] },
                children: navPoints(point, path: path, spineIndexByPath: spineIndexByPath))
        }
    }

    // MARK: Fallback

    /// One entry per linear spine item, titled by its first heading or `<title>` (read from the
    /// head of each document only, so this stays cheap on long books).
    static func fallbackTableOfContents(spine: [SpineItem], archive: ZipArchive, readingOrder: [Int]) -> [TOCEntry] {
        let order = readingOrder.isEmpty ? Array(spine.indices) : readingOrder
        return order.enumerated().map { number, index in
            let item = spine[index]
            var title: String?
            if let path = item.path, !item.isMissing, !item.mediaType.hasPrefix("image/"),
                let head = try? archive.prefix(at: path, maxBytes: 16 << 10)
            {
                title = ContentConverter.convert(head, path: path).title
            }
            let fallback = item.isMissing ? tr("[missing chapter]") : tr("Section {number}", ["number": number + 1])
            return TOCEntry(title: title ?? fallback, target: item.path.map { LinkTarget(path: $0) }, spineIndex: index)
        }
    }
}
