/// The elements open around the text being read, innermost last. Each frame carries what its
/// element set for the text inside it, so closing one takes all of that away at once.
struct ElementStack {
    /// One open element.
    struct Frame {
        let name: String
        let style: InlineStyle
        let link: LinkDestination?
        /// Whether what the element holds is skipped (hidden, a drawing, an iframe's fallback).
        let hidden: Bool
        /// Whether the element is a footnote or endnote by its `epub:type` or `role` (an `aside` is
        /// counted on its own): the blocks inside it are notes.
        let isNote: Bool
        /// Where a passage in another language than its surroundings began (`xml:lang`), if this element starts one.
        var languageStart: (offset: Int, language: String)?
        /// For an inline element floated or positioned out of the text (a verse's line number):
        /// the block's state when it opened, to take its text out again if it is only a number.
        var margin: ChapterBuilder.Mark?
    }

    private(set) var frames: [Frame] = []

    /// The style of the text here: the innermost element's.
    var style: InlineStyle { frames.last?.style ?? [] }
    /// Where the text here links to.
    var link: LinkDestination? { frames.last?.link }
    /// The language of the innermost open passage that declares one.
    var language: String? { frames.last(where: { $0.languageStart != nil })?.languageStart?.language }
    var count: Int { frames.count }

    /// The place of the nearest open element with this name.
    func lastIndex(named name: String) -> Int? {
        frames.lastIndex(where: { $0.name == name })
    }

    /// How many of the elements from `index` inward are notes.
    func notes(from index: Int) -> Int {
        var notes = 0
        for frame in frames[index...] where frame.isNote { notes += 1 }
        return notes
    }

    mutating func push(_ frame: Frame) {
        frames.append(frame)
    }

    /// Marks the innermost element as the start of a passage in `language` at `offset`.
    mutating func startLanguage(_ language: String, at offset: Int) {
        frames[frames.count - 1].languageStart = (offset, language)
    }

    /// Marks the innermost element as out of the text's flow, from `mark` on.
    mutating func setMargin(_ mark: ChapterBuilder.Mark) {
        frames[frames.count - 1].margin = mark
    }

    /// Closes the element at `index` and every one inside it.
    mutating func removeFrames(from index: Int) {
        frames.removeSubrange(index...)
    }
}
