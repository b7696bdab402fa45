internal import Synchronization

/// Places as EPUB CFIs, the passport a place carries to another machine or reading system; bok's
/// own ``Locator`` stays the truth at home.
extension BookContent {
    /// The CFI of a place: the character it starts at, in the form asked for.
    ///
    /// - Returns: `nil` when the spine has no such item.
    public func cfi(for locator: Locator, form: EPUBCFI.Form = .standard) -> EPUBCFI? {
        guard book.spine.indices.contains(locator.spineIndex) else { return nil }
        var cfi = EPUBCFI(
            spineIndex: locator.spineIndex, spineItemID: book.spine[locator.spineIndex].idref, path: [], offset: nil,
            form: form)
        if let tree = tree(at: locator.spineIndex), let (steps, offset) = tree.path(atPlain: locator.offset) {
            cfi.path = steps
            cfi.offset = offset
        }
        return cfi
    }

    /// The place a CFI names, or the nearest one bok shows; `nil` when it does not fit this book
    /// (no such spine item, or a path that is not in that document at all).
    public func locator(for cfi: EPUBCFI) -> Locator? {
        var spineIndex = cfi.spineIndex
        if let id = cfi.spineItemID, let index = book.spine.firstIndex(where: { $0.idref == id }) {
            spineIndex = index
        }
        guard book.spine.indices.contains(spineIndex) else { return nil }
        guard !cfi.path.isEmpty else { return Locator(spineIndex: spineIndex, offset: 0) }
        guard let tree = tree(at: spineIndex) else { return Locator(spineIndex: spineIndex, offset: 0) }
        guard let offset = tree.plainOffset(of: cfi.path, offset: cfi.offset) else { return nil }
        return Locator(spineIndex: spineIndex, offset: min(offset, document(at: spineIndex).length))
    }

    /// Where a link lands whose fragment is an EPUB CFI, as a page-list's may be (W3C
    /// `georgia-cfi`): into the package (`package.opf#epubcfi(/6/4!/…)`) or into one document
    /// (`chapter.xhtml#epubcfi(/4/2/1:0)`, given that document's spine index).
    public func locator(forFragment fragment: String, inDocument spineIndex: Int?) -> Locator? {
        guard fragment.hasPrefix("epubcfi(") else { return nil }
        if let spineIndex, let cfi = EPUBCFI(fragment, inDocument: spineIndex) { return locator(for: cfi) }
        return EPUBCFI(fragment).flatMap(locator(for:))
    }

    /// The element tree of a spine item that is a markup document, lined up with its chapter; the
    /// last two are kept, since places are asked for in the chapter being read.
    func tree(at spineIndex: Int) -> ContentTree? {
        if let kept = trees.withLock({ $0.first(where: { $0.index == spineIndex })?.tree }) { return kept }
        guard let bytes = book.markupBytes(at: spineIndex) else { return nil }
        let tree = ContentTree(document: bytes, plainText: document(at: spineIndex).plainText, styles: book.styles)
        trees.withLock { trees in
            trees.removeAll { $0.index == spineIndex }
            trees.append((spineIndex, tree))
            if trees.count > 2 { trees.removeFirst() }
        }
        return tree
    }
}

extension EPUBBook {
    /// The bytes of a spine item that is an (X)HTML or SVG document, as a DOM would read them;
    /// `nil` for a picture, plain text or a missing file, whose places have no path inside.
    func markupBytes(at index: Int) -> [UInt8]? {
        guard spine.indices.contains(index), let path = spine[index].path, !spine[index].isMissing else { return nil }
        let type = spine[index].mediaType.lowercased()
        guard
            type.contains("html") || type.contains("xml") || (type.isEmpty && Self.canShow(mediaType: type, path: path))
        else { return nil }
        return try? archive.data(at: path)
    }
}
