/// The pieces of a string: runs of visible text and the escape sequences between them.
///
/// Layout works on Characters of the text runs only, so an escape code is never counted,
/// cut in half, or split by a wrap.
struct StyledSegments: Sequence {
    /// One piece of the string.
    enum Segment: Equatable {
        /// Visible text (may contain control characters).
        case text(String)
        /// A complete escape sequence (or an unterminated one at the end).
        case escape(String)
    }

    let segments: [Segment]

    init(_ s: String) {
        guard EscapeScanner.mightContainEscapes(s) else {
            segments = s.isEmpty ? [] : [.text(s)]
            return
        }
        var result: [Segment] = []
        var scanner = EscapeScanner()
        let scalars = s.unicodeScalars
        var runStart = scalars.startIndex
        var runIsEscape = false
        var index = scalars.startIndex
        while index < scalars.endIndex {
            // A sequence ends when the scanner returns to ground; the next escape starts a new run.
            let wasGround = scanner.isInGround
            let isEscape = scanner.consumes(scalars[index])
            let startsNewRun = isEscape != runIsEscape || (isEscape && wasGround)
            if startsNewRun, index > runStart {
                let piece = String(scalars[runStart..<index])
                result.append(runIsEscape ? .escape(piece) : .text(piece))
                runStart = index
            }
            runIsEscape = isEscape
            index = scalars.index(after: index)
        }
        if runStart < scalars.endIndex {
            let piece = String(scalars[runStart..<scalars.endIndex])
            result.append(runIsEscape ? .escape(piece) : .text(piece))
        }
        segments = result
    }

    func makeIterator() -> IndexingIterator<[Segment]> {
        segments.makeIterator()
    }
}
