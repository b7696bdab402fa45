/// What a terminal answered to ``TerminalQuery/request``: its name and version (XTVERSION), its
/// primary device attributes (DA1), its cell and text-area sizes in pixels (`CSI 16 t`,
/// `CSI 14 t`) and the status report (DSR) that ends every answer, since every terminal answers it.
public struct TerminalReplies: Sendable, Hashable {
    /// The attributes of the DA1 reply (`CSI ? 62 ; 4 ; 22 c` → 62, 4, 22), or nil.
    public var deviceAttributes: [Int]?
    /// One cell in pixels (`CSI 6 ; height ; width t`), or nil.
    public var cellPixels: PixelSize?
    /// The text area in pixels (`CSI 4 ; height ; width t`), as width and height, or nil.
    public var textAreaPixels: PixelSize?
    /// The terminal's name and version as XTVERSION gives them (`DCS > | kitty(0.26.5) ST`):
    /// printable ASCII, at most 64 characters; nil when it did not say.
    public var terminalName: String?
    /// Whether the terminal answered kitty's graphics query (`APC G i=31;OK ST`): it draws them.
    public var kittyGraphics = false
    /// Whether the status report came (`CSI 0 n`): everything asked before it has been answered.
    public var complete = false

    /// Creates replies with nothing answered yet.
    public init() {}

    /// Whether the terminal draws Sixel graphics: attribute 4 of its DA1 reply.
    public var sixel: Bool { deviceAttributes?.contains(4) == true }

    /// Whether the terminal answered anything at all.
    public var answered: Bool {
        complete || deviceAttributes != nil || cellPixels != nil || terminalName != nil || kittyGraphics
    }

    /// The size of a cell: as the terminal said, else its text area divided by the window's
    /// `columns × rows`, else nil.
    public func cell(columns: Int, rows: Int) -> PixelSize? {
        if let cellPixels { return cellPixels }
        guard let area = textAreaPixels, columns > 0, rows > 0, area.width >= columns, area.height >= rows else {
            return nil
        }
        return PixelSize(width: area.width / columns, height: area.height / rows)
    }

    /// Reads the replies out of what came from the terminal; the bytes that were not replies
    /// (keys pressed meanwhile) are given back in order, and an unfinished sequence at the end
    /// is given back as `pending` to be read again with what follows.
    public static func parse(_ bytes: [UInt8]) -> (replies: TerminalReplies, unread: [UInt8], pending: [UInt8]) {
        var replies = TerminalReplies()
        var unread: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B else {
                unread.append(bytes[index])
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { return (replies, unread, Array(bytes[index...])) }
            if bytes[index + 1] == UInt8(ascii: "P") || bytes[index + 1] == UInt8(ascii: "_") {
                // DCS … ST: XTVERSION's answer; APC … ST: kitty's graphics answer. One that does
                // not end within 256 bytes is not one.
                let limit = min(bytes.count, index + 256)
                var end = index + 2
                while end + 1 < limit, !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
                if end + 1 < limit {
                    if bytes[index + 1] == UInt8(ascii: "P") {
                        replies.takeVersion(bytes[(index + 2)..<end])
                    } else {
                        replies.takeGraphics(bytes[(index + 2)..<end])
                    }
                    index = end + 2
                    continue
                }
                if limit == bytes.count, bytes.count - index < 256 { return (replies, unread, Array(bytes[index...])) }
            }
            guard bytes[index + 1] == UInt8(ascii: "[") else {
                unread.append(bytes[index])
                index += 1
                continue
            }
            // CSI: parameter bytes 0x30–0x3F, then one final byte 0x40–0x7E.
            var end = index + 2
            while end < bytes.count, (0x30...0x3F).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else { return (replies, unread, Array(bytes[index...])) }
            let parameters = bytes[(index + 2)..<end]
            if !replies.take(parameters: Array(parameters), final: bytes[end]) {
                unread += bytes[index...end]
            }
            index = end + 1
        }
        return (replies, unread, [])
    }

    /// Records XTVERSION's answer, `>|NAME(VERSION)`; other device control strings are dropped.
    private mutating func takeVersion(_ body: ArraySlice<UInt8>) {
        guard body.starts(with: Array(">|".utf8)) else { return }
        let printable = body.dropFirst(2).prefix(64).filter { (0x20...0x7E).contains($0) }
        terminalName = String(decoding: printable, as: UTF8.self)
    }

    /// Records kitty's answer to the graphics query, `Gi=31;OK` (an error message otherwise).
    private mutating func takeGraphics(_ body: ArraySlice<UInt8>) {
        if body.starts(with: Array("Gi=31;".utf8)) { kittyGraphics = body.dropFirst(6).starts(with: Array("OK".utf8)) }
    }

    /// Records a reply; false when the sequence is not one (a key, which is given back).
    private mutating func take(parameters: [UInt8], final: UInt8) -> Bool {
        let question = parameters.first == UInt8(ascii: "?")
        let numbers = Self.numbers(question ? parameters.dropFirst() : parameters[...])
        switch final {
        case UInt8(ascii: "c") where question:
            deviceAttributes = numbers
        case UInt8(ascii: "t") where !question:
            guard numbers.count == 3, numbers[1] > 0, numbers[2] > 0 else { return false }
            switch numbers[0] {
            case 6: cellPixels = PixelSize(width: numbers[2], height: numbers[1])
            case 4: textAreaPixels = PixelSize(width: numbers[2], height: numbers[1])
            default: return false
            }
        case UInt8(ascii: "n") where !question && parameters.count == 1:
            guard parameters[0] == UInt8(ascii: "0") || parameters[0] == UInt8(ascii: "3") else { return false }
            complete = true
        default:
            return false
        }
        return true
    }

    /// The numbers of `1;22;4` (an empty one is 0), each at most 99 999 (a longer one is cut).
    /// Read byte by byte: the first page with a picture runs this, and String's parsing is code
    /// it would load for nothing else.
    private static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int] {
        guard !bytes.isEmpty else { return [] }
        var numbers = [0]
        for byte in bytes {
            if byte == UInt8(ascii: ";") {
                numbers.append(0)
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), numbers[numbers.count - 1] < 10_000 {
                numbers[numbers.count - 1] = numbers[numbers.count - 1] * 10 + Int(byte - UInt8(ascii: "0"))
            }
        }
        return numbers
    }
}
