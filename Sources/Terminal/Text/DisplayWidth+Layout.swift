internal import TextSafety

extension DisplayWidth {
    /// Shortens `s` to at most `width` cells, ending it with `ellipsis` when something was cut.
    ///
    /// Never splits a grapheme cluster or a wide character; a wide character that would
    /// straddle the limit is left out, so the result may be one cell narrower than `width`.
    /// Escape sequences count zero cells and are kept, including those after the cut (so a
    /// closing reset survives); the ellipsis takes the style in force where the text was cut.
    /// Bidirectional controls opened before the cut are closed at it (``SafeText/balancingBidi(_:)``),
    /// so an isolated title cannot reorder what is drawn after its ellipsis.
    /// - Parameters:
    ///   - s: The text; may contain escape codes.
    ///   - width: The most cells the result may take; 0 or less gives an empty string.
    ///   - ellipsis: Appended after a cut; pass `Marks(caps).ellipsis` for ASCII terminals.
    public static func truncate(_ s: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        guard of(s) > width else { return s }
        var ellipsis = ellipsis
        if of(ellipsis) > width {
            ellipsis = truncate(ellipsis, to: width, ellipsis: "")
        }
        let budget = width - of(ellipsis)

        var result = ""
        var used = 0
        var cut = false
        for segment in StyledSegments(s) {
            switch segment {
            case .escape(let code):
                result += code
            case .text(let text):
                guard !cut else { continue }
                for character in text {
                    let w = of(character)
                    if used + w > budget {
                        cut = true
                        result = SafeText.balancingBidi(result) + ellipsis
                        break
                    }
                    result.append(character)
                    used += w
                }
            }
        }
        return result
    }

    /// Pads `s` with spaces to `width` cells; text already as wide or wider comes back unchanged.
    ///
    /// Use ``fit(_:to:align:ellipsis:)`` for columns, which also truncates.
    public static func pad(_ s: String, to width: Int, align: Alignment = .left) -> String {
        let missing = width - of(s)
        guard missing > 0 else { return s }
        switch align {
        case .left:
            return s + String(repeating: " ", count: missing)
        case .right:
            return String(repeating: " ", count: missing) + s
        case .center:
            let before = missing / 2
            return String(repeating: " ", count: before) + s + String(repeating: " ", count: missing - before)
        }
    }

    /// Truncates and pads `s` to exactly `width` cells, for table columns.
    ///
    /// The result can be one cell short only if `width` is 1 and the text starts with a wide
    /// character; otherwise it is always `width` cells, so columns line up.
    public static func fit(
        _ s: String, to width: Int, align: Alignment = .left, ellipsis: String = "…"
    ) -> String {
        pad(truncate(s, to: width, ellipsis: ellipsis), to: width, align: align)
    }

    /// Splits `s` after at most `width` cells, never inside a grapheme cluster.
    ///
    /// At least one Character goes into the head, even if it is wider than `width`, so that
    /// callers always make progress.
    static func splitPrefix(_ s: String, fitting width: Int) -> (head: String, tail: String) {
        var head = ""
        var tail = ""
        var used = 0
        var cut = false
        for segment in StyledSegments(s) {
            switch segment {
            case .escape(let code):
                if cut { tail += code } else { head += code }
            case .text(let text):
                guard !cut else {
                    tail += text
                    continue
                }
                var index = text.startIndex
                while index < text.endIndex {
                    let character = text[index]
                    let w = of(character)
                    if used + w > width, used > 0 {
                        cut = true
                        tail += text[index...]
                        break
                    }
                    head.append(character)
                    used += w
                    index = text.index(after: index)
                }
            }
        }
        return (head, tail)
    }
}
