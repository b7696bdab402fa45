import Localization
import Markup

/// The package document (OPF) read into metadata, manifest and spine.
struct PackageDocument {
    let path: String
    let version: String
    let metadata: BookMetadata
    /// The title and creators that name the book in its identity fingerprint (``BookID``): as
    /// bok read them before it followed RS 3.3's title order and linked records, so that positions
    /// saved then are still found.
    let identityTitle: String
    let identityCreators: [String]
    let manifest: [ManifestItem]
    let manifestByID: [String: ManifestItem]
    let spine: [SpineItem]
    /// The manifest id the EPUB 2 spine names as its NCX.
    let ncxID: String?
    let coverImagePath: String?
    let pageProgressionDirection: String?
    /// `rendition:flow` (`paginated`, `scrolled-doc`, `scrolled-continuous`, `auto`), when the book says.
    let renditionFlow: String?
    /// `rendition:spread` (`none`, `landscape`, `both`, `auto`), when the book says.
    let renditionSpread: String?
    /// Whether the book's pages are fixed (`rendition:layout pre-paginated`): pictures of pages
    /// rather than text to flow.
    let isFixedLayout: Bool
    let warnings: [String]

    /// Reads the package from its parsed tree.
    ///
    /// - Throws: `ReaderError.unreadablePackage` when there is no `<package>` with a manifest.
    init(_ root: MarkupElement, path: String, archive: ZipArchive) throws {
        guard let package = root.first(where: { $0.localName == "package" }) else {
            throw ReaderError(
                .unreadablePackage, EPUBBook.contentsMissing, detail: "\(path) has no <package> element")
        }
        guard let manifestElement = package.child("manifest") else {
            throw ReaderError(.unreadablePackage, EPUBBook.contentsMissing, detail: "\(path) has no <manifest>")
        }
        self.path = path
        self.version = package.attribute("version") ?? "2.0"
        var warnings: [String] = []

        var manifest: [ManifestItem] = []
        var byID: [String: ManifestItem] = [:]
        // Items whose href names a part of a file (`basics.xhtml#o163`), which a manifest should not.
        var sectionItems: Set<String> = []
        for element in manifestElement.children("item") {
            guard let id = element.attribute("id"), let href = element.attribute("href") else { continue }
            let resolved = BookPath.resolve(href, relativeTo: path)
            if resolved == nil, !BookPath.isExternal(href) {
                warnings.append("Ignored \(href) in the book's manifest: it points outside the book.")
            }
            // (Most items have no properties: a book of 500 chapters brings 500 items before its first page.)
            let properties =
                element.attribute("properties").map { Set($0.split(separator: " ").map(String.init)) } ?? []
            let item = ManifestItem(
                id: id, path: resolved?.path, mediaType: (element.attribute("media-type") ?? "").trimmed.lowercased(),
                properties: properties, fallback: element.attribute("fallback"))
            manifest.append(item)
            if byID[id] == nil { byID[id] = item }
            if resolved?.fragment != nil { sectionItems.insert(id) }
        }
        self.manifest = manifest
        self.manifestByID = byID

        let spineElement = package.child("spine")
        self.ncxID = spineElement?.attribute("toc")
        self.pageProgressionDirection = spineElement?.attribute("page-progression-direction")
        var spine: [SpineItem] = []
        var spinePaths: Set<String> = []
        var repeated = 0
        for itemref in spineElement?.children("itemref") ?? [] {
            guard let idref = itemref.attribute("idref") else { continue }
            guard var item = byID[idref] else {
                warnings.append(
                    "The book's reading order names \(idref), which its manifest does not list; skipped it.")
                continue
            }
            // Follow fallbacks from a resource the reader cannot show to one it can, and from a
            // scripted document (bok runs no scripts) to its fallback, when the book gives one.
            var seen: Set<String> = []
            var passed: [String] = []
            func shown(_ item: ManifestItem) -> Bool {
                item.isContentDocument || item.mediaType == "image/svg+xml"
                    || EPUBBook.drawableImageTypes.contains(item.mediaType)
            }
            while !shown(item) || item.properties.contains("scripted"),
                let next = item.fallback, next != idref, !seen.contains(next), let fallback = byID[next]
            {
                seen.insert(next)
                if let path = item.path { passed.append(path) }
                item = fallback
            }
            // A spine item that names a part of a file the spine has already shown
            // (`basics.xhtml#o163`: Debian's live manual lists one chapter 24 times so) is that
            // file's section, read there already; showing the file again at each of its parts
            // would have the patron read it 24 times, and progress count it so. (A manifest item
            // the spine names twice is shown twice, as EPUB RS 3.3 has it.)
            if let path = item.path, !spinePaths.insert(path).inserted, sectionItems.contains(idref) {
                repeated += 1
                continue
            }
            let missing = item.path.map { !archive.contains($0) } ?? true
            if missing {
                warnings.append("The chapter \(item.path ?? idref) is missing from the book; showing a placeholder.")
            }
            let properties = itemref.attribute("properties")?.split(separator: " ") ?? []
            let layout = properties.last { $0.hasPrefix("rendition:layout-") }
            spine.append(
                SpineItem(
                    idref: idref, path: item.path, mediaType: item.mediaType,
                    isLinear: itemref.attribute("linear")?.trimmed.lowercased() != "no", isMissing: missing,
                    fallbackFrom: passed.filter { $0 != item.path },
                    fixedLayout: layout.map { $0 == "rendition:layout-pre-paginated" },
                    spreadSide: SpreadSide(properties: properties)))
        }
        if repeated > 0 {
            warnings.append(
                "The book's reading order names sections of \(repeated) chapters it shows already; "
                    + "they are not shown again.")
        }
        self.spine = spine

        let metadataElement = package.child("metadata") ?? package.first(where: { $0.localName == "metadata" })
        var metadata = Self.readMetadata(
            metadataElement, uniqueID: package.attribute("unique-identifier"),
            direction: TextDirection(dir: package.attribute("dir")))
        self.identityTitle = Self.titleRefinedAsMain(metadataElement) ?? metadata.title
        self.identityCreators = metadata.creators.map(\.name)
        let linked = Self.linkedRecords(metadataElement, packagePath: path, archive: archive)
        if let title = linked.title {
            metadata.title = title
            metadata.titleDirection = nil  // the record's own words: their first strong letter decides
        }
        if let creators = linked.creators { metadata.creators = creators }
        self.metadata = metadata
        func rendition(_ property: String) -> String? {
            metadataElement?.children("meta")
                .first { $0.attribute("property")?.trimmed == property && $0.attribute("refines") == nil }?
                .text.trimmed.lowercased()
        }
        self.renditionFlow = rendition("rendition:flow")
        self.renditionSpread = rendition("rendition:spread")
        // EPUB 3's `rendition:layout`; else the `fixed-layout` meta Kindle comic makers write in EPUB 2.
        let kindleFixed = metadataElement?.children("meta")
            .contains { $0.attribute("name") == "fixed-layout" && $0.attribute("content")?.lowercased() == "true" }
        self.isFixedLayout = rendition("rendition:layout").map { $0 == "pre-paginated" } ?? (kindleFixed == true)

        // Cover: EPUB 3 property, else EPUB 2 <meta name="cover">, else an item named like a cover.
        var cover = manifest.first { $0.properties.contains("cover-image") }
        if cover == nil, let metadataElement,
            let content = metadataElement.children("meta").first(where: { $0.attribute("name") == "cover" })?.attribute(
                "content")
        {
            cover = byID[content] ?? manifest.first { $0.path?.hasSuffix(content) == true && $0.isImage }
        }
        if cover == nil {
            cover = manifest.first {
                ($0.id.lowercased() == "cover" || $0.id.lowercased() == "cover-image") && $0.isImage
            }
        }
        self.coverImagePath = cover?.path.flatMap { archive.contains($0) ? $0 : nil }
        self.warnings = warnings
    }

    /// The `dc:title` refined as `title-type main`, when there is one (EPUB 3.0's main title).
    private static func titleRefinedAsMain(_ element: MarkupElement?) -> String? {
        guard let element else { return nil }
        let mains = Set(
            element.children("meta").compactMap { meta -> String? in
                guard meta.attribute("property") == "title-type", meta.text == "main",
                    let refines = meta.attribute("refines")
                else { return nil }
                return refines.hasPrefix("#") ? String(refines.dropFirst()) : refines
            })
        guard !mains.isEmpty else { return nil }
        return element.children("title").first { title in
            !title.text.isEmpty && title.attribute("id").map { mains.contains($0) } == true
        }?.text
    }

    /// The package's metadata; `direction` is the package's `dir`, which its `dc:` elements inherit
    /// unless they carry their own (EPUB 3.3, the `dir` attribute).
    private static func readMetadata(
        _ element: MarkupElement?, uniqueID: String?, direction: TextDirection?
    ) -> BookMetadata {
        guard let element else {
            return BookMetadata(
                title: tr("Untitled"), creators: [], contributors: [], languages: [], identifiers: [],
                publisher: nil, date: nil, description: nil)
        }
        // EPUB 3 refinements: <meta refines="#id" property="role">aut</meta>.
        var refinements: [String: [String: String]] = [:]
        for meta in element.children("meta") {
            guard let refines = meta.attribute("refines"), let property = meta.attribute("property") else { continue }
            let id = refines.hasPrefix("#") ? String(refines.dropFirst()) : refines
            refinements[id, default: [:]][property] = meta.text
        }
        // An element's own `dir` wins over the package's; its own `auto` (or any value but `ltr`
        // and `rtl`) leaves the direction to the text's first strong letter.
        func declaredDirection(_ element: MarkupElement) -> TextDirection? {
            guard let dir = element.attribute("dir") else { return direction }
            return TextDirection(dir: dir)
        }
        func refined(_ element: MarkupElement, _ property: String) -> String? {
            element.attribute("id").flatMap { refinements[$0]?[property] }
        }
        func contributor(_ element: MarkupElement) -> Contributor? {
            let name = element.text
            guard !name.isEmpty else { return nil }
            let role = refined(element, "role") ?? element.attribute("opf:role") ?? element.attribute("role")
            let fileAs = refined(element, "file-as") ?? element.attribute("opf:file-as") ?? element.attribute("file-as")
            return Contributor(name: name, role: role, fileAs: fileAs, direction: declaredDirection(element))
        }

        let titles = element.children("title").filter { !$0.text.isEmpty }
        // EPUB RS 3.3: the first title in document order is the main title, whatever refines it.
        let main = titles.first
        var identifiers: [BookIdentifier] = element.children("identifier").compactMap { identifier in
            let value = identifier.text
            guard !value.isEmpty else { return nil }
            let scheme =
                identifier.attribute("opf:scheme") ?? identifier.attribute("scheme")
                ?? refined(identifier, "identifier-type")
            return BookIdentifier(
                value: value, scheme: scheme, isUnique: uniqueID != nil && identifier.attribute("id") == uniqueID)
        }
        identifiers.sort { $0.isUnique && !$1.isUnique }
        let modified = element.children("meta").first { $0.attribute("property") == "dcterms:modified" }?.text
        return BookMetadata(
            title: main?.text ?? tr("Untitled"),
            titleDirection: main.map(declaredDirection) ?? direction,
            creators: element.children("creator").compactMap(contributor),
            contributors: element.children("contributor").compactMap(contributor),
            languages: element.children("language").map(\.text).filter { !$0.isEmpty },
            identifiers: identifiers,
            publisher: element.children("publisher").first?.text,
            date: element.children("date").first?.text ?? modified,
            description: element.children("description").first?.text
        )
    }
}
