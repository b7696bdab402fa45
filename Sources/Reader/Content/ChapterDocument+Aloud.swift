import Localization

/// A stretch of a chapter in one language: what one voice speaks.
public struct LanguagePassage: Sendable, Hashable {
    /// Where it is in the chapter's plain text (UTF-16); empty for words said at a picture.
    public var range: Range<Int>
    /// The language its markup declares; nil for the chapter's own language.
    public var language: String?
    /// What is said instead of the range's text: a picture's label or its description.
    public var words: String?

    /// Creates a passage of the chapter's text, or words said in its place.
    public init(range: Range<Int>, language: String?, words: String? = nil) {
        self.range = range
        self.language = language
        self.words = words
    }
}

extension ChapterDocument {
    /// What is read aloud from `offset` to the end, cut where the language changes, each passage
    /// with the language its markup declares (nil: the document's own), for speaking each in its
    /// own voice. A picture with a description is said where it stands ("Image: a map of the
    /// islands"), its label in the interface's language and its description in the text's.
    public func passages(from offset: Int) -> [LanguagePassage] {
        let end = length
        let start = max(0, min(offset, end))
        let pictures = picturesSaid(from: start, to: end)
        var cuts = Set([start, end])
        for span in languageSpans {
            for cut in [span.range.lowerBound, span.range.upperBound] where cut > start && cut < end {
                cuts.insert(cut)
            }
        }
        for picture in pictures { cuts.insert(picture.range.lowerBound) }
        var passages: [LanguagePassage] = []
        var said = 0
        let sorted = cuts.sorted()
        for (from, to) in zip(sorted, sorted.dropFirst()) {
            while said < pictures.count, pictures[said].range.lowerBound <= from {
                passages.append(pictures[said])
                said += 1
            }
            let language = LanguageSpan.innermost(languageSpans, at: from)
            // A language passage's end tag often falls just before its block's line break: a
            // stretch of white space alone is not worth a voice of its own.
            if let last = passages.last, last.words == nil,
                last.language == language || text(in: from..<to).allSatisfy(\.isWhitespace)
            {
                passages[passages.count - 1].range = last.range.lowerBound..<to
            } else {
                passages.append(LanguagePassage(range: from..<to, language: language))
            }
        }
        return passages + pictures[said...]
    }

    /// The words a passage says: its own, else its text.
    public func words(of passage: LanguagePassage) -> String {
        passage.words ?? text(in: passage.range)
    }

    /// Whether reading aloud from `offset` has anything to say: a letter or a number, or a
    /// picture's description.
    public func hasWordsToSay(from offset: Int = 0) -> Bool {
        let start = max(0, min(offset, length))
        return text(in: start..<length).contains { $0.isLetter || $0.isNumber }
            || !picturesSaid(from: start, to: length).isEmpty
    }

    /// The passages said for the pictures with a description from `start` to `end`: "Image:" in
    /// the interface's language, then the description in the picture's.
    private func picturesSaid(from start: Int, to end: Int) -> [LanguagePassage] {
        var said: [LanguagePassage] = []
        for block in blocks where block.range.lowerBound >= start && block.range.lowerBound <= end {
            guard case .image(let picture) = block.kind, picture.alt.contains(where: { $0.isLetter || $0.isNumber })
            else { continue }
            let at = block.range.lowerBound..<block.range.lowerBound
            said.append(LanguagePassage(range: at, language: Localization.language, words: tr("Image:")))
            said.append(LanguagePassage(range: at, language: picture.language, words: picture.alt))
        }
        return said
    }
}
