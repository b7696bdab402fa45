/// Reads the inside of an `epubcfi(…)`: its steps, the `!` that enters a content document, and
/// the offset at the end. A range is read as its start. Written by hand because the grammar is
/// small (EPUB CFI 1.1, section 3) and untrusted text must be read within bounds.
struct CFIScanner {
    /// What was read: the steps before the first `!`, those after the last, and the offset.
    struct Paths {
        var first: [EPUBCFI.Step]
        var indirect: [EPUBCFI.Step]?
        var offset: Int?
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    /// The paths, or `nil` when the text is not a CFI.
    mutating func readPaths() -> Paths? {
        var segments: [[EPUBCFI.Step]] = [[]]
        var offset: Int?
        var inRange = false
        var steps = 0
        reading: while let scalar = peek() {
            position += 1
            switch scalar {
            case "/":
                guard offset == nil, let index = readInteger() else { return nil }
                steps += 1
                guard steps <= EPUBCFI.maxSteps else { return nil }
                segments[segments.count - 1].append(EPUBCFI.Step(index: index, assertion: readAssertion()))
            case "!":
                guard offset == nil else { return nil }
                segments.append([])
            case ":":
                guard offset == nil, let value = readInteger() else { return nil }
                offset = value
                _ = readAssertion()
            case "~", "@":
                // A temporal or spatial offset: read past it, it places nothing in text.
                while let next = peek(), next == "." || next == ":" || ("0"..."9").contains(next) { position += 1 }
                _ = readAssertion()
            case ",":
                // A range: its start is the parent path and the first local path.
                if inRange { break reading }
                inRange = true
            default:
                return nil
            }
        }
        guard segments.allSatisfy({ !$0.isEmpty }) else { return nil }
        return Paths(
            first: segments[0], indirect: segments.count > 1 ? segments[segments.count - 1] : nil, offset: offset)
    }

    private func peek() -> Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    /// A non-negative integer of at most nine digits.
    private mutating func readInteger() -> Int? {
        var value = 0
        var digits = 0
        while let scalar = peek(), ("0"..."9").contains(scalar) {
            guard digits < 9 else { return nil }
            value = value * 10 + Int(scalar.value - 48)
            digits += 1
            position += 1
        }
        return digits > 0 ? value : nil
    }

    /// `[…]` after a step or an offset, unescaped, up to its first `;` or `,` (an id, or the text
    /// before the place); `nil` when there is none.
    private mutating func readAssertion() -> String? {
        guard peek() == "[" else { return nil }
        position += 1
        var text = ""
        var ended = false
        while let scalar = peek() {
            position += 1
            if scalar == "^", let escaped = peek() {
                position += 1
                if !ended { text.unicodeScalars.append(escaped) }
            } else if scalar == "]" {
                break
            } else if scalar == ";" || scalar == "," {
                ended = true
            } else if !ended {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}
