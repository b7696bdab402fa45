import Localization

/// Places other reading systems name: `:goto epubcfi(…)`.
extension ReaderSession {
    /// Goes to the place a CFI names, or the nearest one bok shows.
    mutating func goTo(cfi: EPUBCFI) {
        guard let place = content.locator(for: cfi) else {
            message = tr("That place is not in this book: the CFI names a part this book does not have.")
            return
        }
        jump(to: content.locator(spineIndex: place.spineIndex, offset: place.offset))
        message = tr("At the place the CFI names; Backspace or u goes back.")
    }
}
