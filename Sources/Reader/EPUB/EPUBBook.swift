internal import Foundation
import Localization
import Markup

#if canImport(Glibc)
import Glibc
#endif

/// An opened EPUB 2 or EPUB 3 book: its metadata, reading order and table of contents, with its
/// content documents converted on demand.
///
/// Opening reads the archive's directory, the container, the package document and the
/// navigation document; chapters are inflated and converted only when asked for, so the first
/// page can be shown without touching the rest. The value is immutable and `Sendable`, so
/// background tasks can convert other chapters while the reader reads.
///
/// A partly broken book opens with what it has: missing chapters become placeholder chapters and
/// each problem is listed in `warnings`.
public struct EPUBBook: Sendable {
    /// The EPUB version the package declares (`2.0`, `3.0`).
    public let version: String
    /// The package document's path in the archive.
    public let packagePath: String
    /// Title, creators, language, identifiers and the rest.
    public let metadata: BookMetadata
    /// Every resource the package declares, in order.
    public let manifest: [ManifestItem]
    /// The reading order, including `linear="no"` items (reachable by links only).
    public let spine: [SpineItem]
    /// The table of contents: from the EPUB 3 nav, else the EPUB 2 NCX, else one entry per chapter.
    public var tableOfContents: [TOCEntry] { navigation.value.tableOfContents }
    /// Whether `tableOfContents` came from the book rather than being made from the spine.
    public var hasOwnTableOfContents: Bool { navigation.value.hasOwnTableOfContents }
    /// The print edition's pages, when the book lists them.
    public var pageList: [PageListEntry] { navigation.value.pageList }
    /// Whether the table of contents and page list are read, so asking for them does not wait.
    public var navigationIsRead: Bool { navigation.valueIfReady != nil }
    /// The cover image's path in the archive, when the book names one.
    public let coverImagePath: String?
    /// `rtl` or `ltr` when the spine sets `page-progression-direction`.
    public let pageProgressionDirection: String?
    /// Whether pages turn right to left (`page-progression-direction="rtl"`, or, when the book
    /// does not say, a right-to-left language: Arabic, Hebrew, Persian, Urdu, Yiddish, …).
    public var pagesTurnRightToLeft: Bool {
        if let direction = pageProgressionDirection?.lowercased(), direction == "rtl" || direction == "ltr" {
            return direction == "rtl"
        }
        return BidiParagraph.isRightToLeft(language: metadata.language)
    }

    /// Whether the book asks to be scrolled rather than paged (`rendition:flow` `scrolled-doc` or
    /// `scrolled-continuous`).
    public var prefersScrolling: Bool { renditionFlow?.hasPrefix("scrolled") == true }
    let renditionFlow: String?
    /// Whether the book's pages are fixed (`rendition:layout pre-paginated`), unless a spine item
    /// says otherwise (``isFixedLayout(_:)``).
    let fixedLayout: Bool
    /// Whether the book lets two fixed pages be shown side by side (not `rendition:spread none`).
    public let allowsSpreads: Bool

    /// Whether a spine item is a fixed page (a picture book's, a comic's) rather than text to flow.
    public func isFixedLayout(_ spineIndex: Int) -> Bool {
        guard spine.indices.contains(spineIndex) else { return false }
        return spine[spineIndex].fixedLayout ?? fixedLayout
    }
    /// What was wrong but could be worked around, one sentence each.
    public var warnings: [String] { openingWarnings + navigation.value.warnings }
    private let openingWarnings: [String]
    /// The table of contents and page list, read on a thread of their own while the first page
    /// is made (``NavigationResult``).
    private let navigation: BackgroundResult<NavigationResult>

    let archive: ZipArchive
    let styles: BookStyles
    /// The title and creators the identity fingerprint is made of (see ``PackageDocument``).
    let identityTitle: String
    let identityCreators: [String]
    private let spineIndexByPath: [String: Int]
    /// Manifest items by path and by id, for pictures' fallbacks.
    private let manifestByPath: [String: ManifestItem]
    private let manifestByID: [String: ManifestItem]

    /// Spine indices of the linear items: the order in which pages turn.
    public var readingOrder: [Int] {
        let linear = spine.indices.filter { spine[$0].isLinear }
        return linear.isEmpty ? Array(spine.indices) : linear
    }

    // MARK: - Opening

    /// Opens the book at a file path.
    ///
    /// - Throws: `ReaderError` with a message for the reader when the file cannot be opened.
    public static func open(path: String, limits: ReaderLimits = .standard) throws -> EPUBBook {
        try EPUBBook(bytes: try readFile(path, limits: limits), limits: limits)
    }

    /// The bytes of the file at `path`, read straight into one array (not a `Data` and a copy of
    /// it), after its first bytes say it is a zip at all: a 1 GB file that is not a book costs a
    /// read of eight bytes, not 2 GB of memory. A file larger than everything a book may unpack to
    /// is refused unread.
    static func readFile(_ path: String, limits: ReaderLimits) throws -> [UInt8] {
        let unreadable = { (detail: String) in
            ReaderError(
                .unreadableFile,
                tr("bok could not read {path}; check that the file exists and that you may read it.", ["path": path]),
                detail: detail)
        }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw unreadable("not a regular file")
        }
        let size = Int(info.st_size)
        var head = [UInt8](repeating: 0, count: min(size, 8))
        guard pread(descriptor, &head, head.count, 0) == head.count else { throw unreadable("short read") }
        // Not a zip: ZipArchive says what it is instead (a PDF, a web page) from these bytes alone.
        if size < 4 || head[0] != 0x50 || head[1] != 0x4B { _ = try ZipArchive(bytes: head, limits: limits) }
        guard size <= limits.maxTotalBytes + (16 << 20) else {
            throw ReaderError(
                .tooLarge,
                tr(
                    "This file is larger than any book bok opens ({size} MB), so bok will not read it.",
                    ["size": limits.maxTotalBytes >> 20]),
                detail: "\(size) bytes")
        }
        return try [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let n = Glibc.read(descriptor, buffer.baseAddress! + count, size - count)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw unreadable(n < 0 ? String(cString: strerror(errno)) : "short read") }
                count += n
            }
        }
    }

    /// Opens a book from the bytes of an `.epub` file.
    ///
    /// - Throws: `ReaderError` with a message for the reader when the book cannot be opened.
    public init(bytes: [UInt8], limits: ReaderLimits = .standard) throws {
        let archive = try ZipArchive(bytes: bytes, limits: limits)
        var warnings: [String] = []
        for name in archive.unsafeNames {
            warnings.append("Ignored the file \"\(name)\" in the book: its name points outside the book.")
        }

        if !archive.contains("mimetype") {
            warnings.append("The book has no mimetype file; opened it anyway.")
        } else if let mimetype = try? archive.prefix(at: "mimetype", maxBytes: 100),
            String(decoding: mimetype, as: UTF8.self).trimmed != "application/epub+zip"
        {
            warnings.append("The book's mimetype file does not say application/epub+zip; opened it anyway.")
        }

        guard archive.contains("META-INF/container.xml") else {
            throw ReaderError(
                .missingContainer,
                tr("bok cannot find this book's contents; the file is damaged or not an EPUB book."),
                detail: "no META-INF/container.xml")
        }
        let container = MarkupElement.parse(try archive.data(at: "META-INF/container.xml"))
        let rootfiles = container.descendants("rootfile")
        let chosen =
            rootfiles.first { $0.attribute("media-type") == "application/oebps-package+xml" } ?? rootfiles.first
        guard let fullPath = chosen?.attribute("full-path"), !fullPath.trimmed.isEmpty else {
            throw ReaderError(
                .missingContainer, Self.contentsMissing, detail: "META-INF/container.xml names no package document")
        }
        guard let packagePath = BookPath.normalize(fullPath.trimmed), archive.contains(packagePath) else {
            throw ReaderError(
                .missingPackage, Self.contentsMissing,
                detail: "the container points at \(fullPath.trimmed), which is not in the file")
        }

        let packageBytes = try archive.data(at: packagePath)
        let package = try PackageDocument(MarkupElement.parse(packageBytes), path: packagePath, archive: archive)
        warnings += package.warnings

        try Self.checkEncryption(archive: archive, package: package, warnings: &warnings)

        var styles = BookStyles()
        var seenCSS: Set<UInt32> = []
        for item in package.manifest where item.mediaType == "text/css" {
            // Books often carry the same stylesheet in several folders; read each text once.
            guard let path = item.path, let entry = archive.entry(path), seenCSS.insert(entry.crc32).inserted,
                let css = try? archive.prefix(at: path, maxBytes: 1 << 20)
            else { continue }
            styles.add(css: String(decoding: css, as: UTF8.self))
        }

        // A document the spine names twice is reached, by a link, at its first place in the linear
        // reading order (EPUB RS 3.3), else at its first place at all. A link to an item the spine
        // shows through its fallback (a contents entry naming the DTBook a spine item names) leads
        // where that fallback is shown.
        var indexByPath: [String: Int] = [:]
        for linear in [true, false] {
            for (index, item) in package.spine.enumerated() where item.isLinear == linear {
                for path in [item.path].compactMap(\.self) + item.fallbackFrom where indexByPath[path] == nil {
                    indexByPath[path] = index
                }
            }
        }
        if !package.spine.contains(where: { !$0.isMissing }) {
            throw ReaderError(
                .noContent,
                package.spine.isEmpty
                    ? tr("The book has no chapters; the file is damaged, download it again.")
                    : tr("None of the book's chapters is in its file; the book is damaged, download it again."),
                detail: package.spine.isEmpty
                    ? "the reading order is empty" : "none of the \(package.spine.count) spine items is in the file")
        }

        self.archive = archive
        self.styles = styles
        self.version = package.version
        self.packagePath = packagePath
        self.metadata = package.metadata
        self.identityTitle = package.identityTitle
        self.identityCreators = package.identityCreators
        self.manifest = package.manifest
        self.spine = package.spine
        self.coverImagePath = package.coverImagePath
        self.pageProgressionDirection = package.pageProgressionDirection
        self.renditionFlow = package.renditionFlow
        self.fixedLayout = package.isFixedLayout
        self.allowsSpreads = package.renditionSpread != "none"
        self.spineIndexByPath = indexByPath
        var byPath: [String: ManifestItem] = [:]
        var byID: [String: ManifestItem] = [:]
        for item in package.manifest {
            if let path = item.path, byPath[path] == nil { byPath[path] = item }
            if byID[item.id] == nil { byID[item.id] = item }
        }
        self.manifestByPath = byPath
        self.manifestByID = byID

        self.navigation = BackgroundResult { [indexByPath] in
            let navigation = Navigation(package: package, archive: archive, spineIndexByPath: indexByPath)
            guard navigation.tableOfContents.isEmpty else {
                return .init(
                    tableOfContents: navigation.tableOfContents, hasOwnTableOfContents: true,
                    pageList: navigation.pageList, warnings: navigation.warnings)
            }
            let made = Navigation.fallbackTableOfContents(
                spine: package.spine, archive: archive,
                readingOrder: package.spine.indices.filter { package.spine[$0].isLinear })
            return .init(
                tableOfContents: made, hasOwnTableOfContents: false, pageList: navigation.pageList,
                warnings: navigation.warnings)
        }
        self.openingWarnings = warnings
    }

    /// The message for a book whose package document cannot be found or read.
    static var contentsMissing: String {
        tr("This book's file is damaged, so bok cannot find its contents; download it again.")
    }

    private static func checkEncryption(archive: ZipArchive, package: PackageDocument, warnings: inout [String]) throws
    {
        guard archive.contains("META-INF/encryption.xml"),
            let bytes = try? archive.data(at: "META-INF/encryption.xml")
        else { return }
        let fontObfuscation: Set<String> = ["http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"]
        let contentPaths = Set(
            package.spine.compactMap(\.path) + package.manifest.filter(\.isContentDocument).compactMap(\.path))
        var otherEncrypted: [String] = []
        for data in MarkupElement.parse(bytes).descendants("encrypteddata") {
            let algorithm = data.descendants("encryptionmethod").first?.attribute("algorithm")?.trimmed ?? ""
            guard let uri = data.descendants("cipherreference").first?.attribute("uri") else { continue }
            if fontObfuscation.contains(algorithm) { continue }  // obfuscated fonts: not DRM, and unused here
            let path = BookPath.resolve(uri, relativeTo: "")?.path ?? uri
            let lower = path.lowercased()
            if contentPaths.contains(path) || lower.hasSuffix(".xhtml") || lower.hasSuffix(".html")
                || lower.hasSuffix(".htm")
            {
                throw ReaderError(
                    .drm, tr("This book is protected by DRM; bok cannot open protected books."),
                    detail: "\(path) is encrypted (\(algorithm))")
            }
            otherEncrypted.append(path)
        }
        if !otherEncrypted.isEmpty {
            warnings.append(
                """
                \(otherEncrypted.count) file(s) in the book are encrypted and cannot be shown \
                (\(otherEncrypted.prefix(3).joined(separator: ", "))).
                """
            )
        }
    }

    // MARK: - Content

    /// The spine index of the document at a path, when it is in the spine.
    public func spineIndex(forPath path: String) -> Int? { spineIndexByPath[path] }

    /// Converts the spine item at `index` into a chapter; a missing or unreadable file gives a
    /// placeholder chapter rather than an error.
    /// The picture types the reader can draw.
    static let drawableImageTypes: Set<String> = [
        "image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml", "image/avif", "image/jxl",
    ]

    /// A chapter's pictures as EPUB 3.3 asks: one the manifest does not list is not shown (its
    /// label is), and one of a type the reader cannot draw is replaced by the first drawable item
    /// of its manifest fallback chain.
    private func withManifestPictures(_ document: ChapterDocument) -> ChapterDocument {
        var changed = false
        let blocks = document.blocks.map { block -> Block in
            // An inline picture (a data: URL) is not a resource of the container: it stays.
            guard case .image(var image) = block.kind, let path = image.path, !DataURL.isDataURL(path) else {
                return block
            }
            var resolved: String?
            if var item = manifestByPath[path] {
                var seen: Set<String> = [item.id]
                while !Self.drawableImageTypes.contains(item.mediaType), let next = item.fallback, !seen.contains(next),
                    let fallback = manifestByID[next]
                {
                    seen.insert(next)
                    item = fallback
                }
                resolved = Self.drawableImageTypes.contains(item.mediaType) ? item.path : path
            }
            guard resolved != path else { return block }
            changed = true
            image.path = resolved
            var copy = block
            copy.kind = .image(image)
            return copy
        }
        guard changed else { return document }
        return ChapterDocument(
            path: document.path, title: document.title, blocks: blocks, plainText: document.plainText,
            anchors: document.anchors, prefersIndentedParagraphs: document.prefersIndentedParagraphs,
            language: document.language, isWellFormed: document.isWellFormed, languageSpans: document.languageSpans,
            length: document.length)
    }

    public func document(at index: Int) -> ChapterDocument {
        guard spine.indices.contains(index) else {
            return .placeholder(path: "", message: tr("[This chapter is missing from the book's file.]"))
        }
        let item = spine[index]
        guard let path = item.path, !item.isMissing else {
            return .placeholder(
                path: item.path ?? item.idref, message: tr("[This chapter is missing from the book's file.]"))
        }
        guard Self.canShow(mediaType: item.mediaType, path: path) else {
            // EPUB RS 3.3: when nothing in the fallback chain can be shown, the reader is told so
            // (rather than shown the bytes of a video or a Photoshop file as text).
            let type = String(
                item.mediaType.unicodeScalars.filter { $0.isASCII && $0.value > 0x20 }.prefix(60).map(Character.init))
            return .placeholder(
                path: path,
                message: tr("[bok cannot show this part of the book (a file of type {type}).]", ["type": type]))
        }
        let bytes: [UInt8]
        do {
            bytes = try archive.data(at: path)
        } catch let error as ReaderError {
            return .placeholder(
                path: path, message: tr("[This chapter could not be read: {reason}]", ["reason": error.message]))
        } catch {
            return .placeholder(path: path, message: tr("[This chapter could not be read.]"))
        }
        if item.mediaType.hasPrefix("image/") {
            // A picture page; an SVG one is drawn (librsvg) and labelled by its title.
            let title =
                item.mediaType == "image/svg+xml"
                ? MarkupElement.parse(bytes).descendants("title").first?.text ?? "" : ""
            let name = Self.escape(String(path.split(separator: "/").last ?? ""))
            let html = "<img src=\"\(name)\" alt=\"\(Self.escape(title))\"/>"
            return ContentConverter.convert(Array(html.utf8), path: path)
        }
        if item.mediaType == "text/plain" {
            let text = String(decoding: bytes, as: UTF8.self)
            let blocks = text.components(separatedBy: "\n\n").map { "<p>\(Self.escape($0))</p>" }.joined()
            return ContentConverter.convert(Array(blocks.utf8), path: path, styles: styles)
        }
        return withManifestPictures(
            ContentConverter.convert(
                bytes, path: path, styles: styles,
                embeddedDocument: { [archive, manifestByPath] embedded in
                    // Only a content document the manifest lists is shown (EPUB 3.3: resources
                    // not in the manifest are not rendered).
                    guard let resource = manifestByPath[embedded],
                        resource.isContentDocument || resource.mediaType == "image/svg+xml"
                    else { return nil }
                    return try? archive.data(at: embedded)
                }))
    }

    /// Whether a spine item (after its fallbacks) is something bok shows: a content document, a
    /// picture it can draw, SVG, plain text, or a file that looks like markup whatever its declared
    /// type (books mislabel XHTML); a video, a font or a picture of another kind is not.
    static func canShow(mediaType: String, path: String) -> Bool {
        let type = mediaType.lowercased()
        if type.isEmpty || type.contains("html") || type.contains("xml") || type.hasPrefix("text/") { return true }
        if drawableImageTypes.contains(type) || type == "image/jpg" { return true }
        let lower = path.lowercased()
        return [".xhtml", ".html", ".htm", ".xml", ".png", ".jpg", ".jpeg", ".gif", ".webp"].contains {
            lower.hasSuffix($0)
        }
    }

    /// The bytes of any resource in the book (an image, say), by its normalised path.
    ///
    /// - Throws: `ReaderError` when the resource is missing, damaged or over the size cap.
    public func resource(at path: String) throws -> [UInt8] {
        if DataURL.isDataURL(path) {
            guard let inline = DataURL.decode(path) else {
                throw ReaderError(
                    .damaged, tr("A picture in the book is damaged."), detail: "a malformed or too large data: URL")
            }
            return inline.bytes
        }
        return try archive.data(at: path)
    }

    /// The size in bytes of a spine item's file once decompressed (0 when it is missing): a
    /// measure of its length known before it is converted.
    public func byteSize(ofSpineItem index: Int) -> Int {
        guard spine.indices.contains(index), let path = spine[index].path else { return 0 }
        return archive.entry(path)?.uncompressedSize ?? 0
    }

    /// The cover image's bytes, when the book names a cover that is in the file.
    public var coverImage: [UInt8]? {
        coverImagePath.flatMap { try? archive.data(at: $0) }
    }

    /// Where a link target lands: its spine index and offset, converting that chapter if needed.
    ///
    /// - Returns: `nil` when the target's document is not in the spine.
    public func locator(for target: LinkTarget) -> Locator? {
        guard let index = spineIndex(forPath: target.path) else { return nil }
        guard let fragment = target.fragment else { return Locator(spineIndex: index, offset: 0) }
        let document = document(at: index)
        let offset = document.offset(ofAnchor: fragment) ?? 0
        return Locator(spineIndex: index, offset: offset, snippet: document.snippet(at: offset))
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
