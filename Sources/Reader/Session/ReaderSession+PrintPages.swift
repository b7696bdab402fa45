import Localization

/// The print edition's page numbers, for books that carry a `page-list` (EPUB 3 nav) or a
/// `pageList` (NCX): students cite them, and the study asks for them.
extension ReaderSession {
    /// The print page the top of the screen is on (`42`, `xii`), when the book has a page list.
    ///
    /// Only the chapter on screen is looked into: a page starting in another chapter is before or
    /// after the top whatever its offset, so nothing else is converted. Without `waitingForContents`,
    /// nil while the page list is still being read.
    public func printPage(waitingForContents: Bool = true) -> String? {
        guard waitingForContents || book.navigationIsRead, !book.pageList.isEmpty else { return nil }
        let top = topLocator
        let anchors = content.knownAnchors(at: top.spineIndex) ?? content.document(at: top.spineIndex).anchors
        var current: String?
        for entry in book.pageList {
            guard let spine = entry.spineIndex else { continue }
            if spine > top.spineIndex { break }
            var offset = 0
            if spine == top.spineIndex, let fragment = entry.target.fragment {
                offset = anchors[fragment] ?? place(of: entry, spine).offset
            }
            if spine < top.spineIndex || offset <= top.offset { current = entry.label }
        }
        return current
    }

    /// `:goto page 42`: to where print page `label` begins; says what exists when there is no such page.
    mutating func goTo(printPage label: String) {
        let pages = book.pageList.filter { $0.spineIndex != nil }
        guard let first = pages.first, let last = pages.last else {
            message = tr("This book has no print page numbers; :goto 120 goes to page 120 of the book as bok shows it.")
            return
        }
        guard let entry = pages.first(where: { $0.label.lowercased() == label.lowercased() }),
            let spine = entry.spineIndex
        else {
            message = tr(
                "The book's print pages run from {first} to {last}; there is no page {page}.",
                ["first": first.label, "last": last.label, "page": label])
            return
        }
        jump(to: place(of: entry, spine))
        message = tr("Print page {page}; Backspace or u goes back.", ["page": entry.label])
    }

    /// Where a print page begins: its anchor, or the place its EPUB CFI names.
    func place(of entry: PageListEntry, _ spine: Int) -> Locator {
        guard let fragment = entry.target.fragment else { return content.locator(spineIndex: spine, offset: 0) }
        let inDocument = book.spineIndex(forPath: entry.target.path)
        if let place = content.locator(forFragment: fragment, inDocument: inDocument) {
            return content.locator(spineIndex: place.spineIndex, offset: place.offset)
        }
        return content.locator(spineIndex: spine, offset: content.document(at: spine).offset(ofAnchor: fragment) ?? 0)
    }
}
