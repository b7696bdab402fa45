import Testing

@testable import Terminal

@Suite struct KeyDecoderTests {
    private func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8)) + decoder.flush()
    }

    @Test(arguments: [
        ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
        ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
        ("\u{1B}OH", .home), ("\u{1B}[3~", .delete), ("\u{1B}[Z", .backTab),
        ("\u{1B}OP", .function(1)), ("\u{1B}[15~", .function(5)), ("\u{1B}[24~", .function(12)),
        ("\u{1B}[1;5C", .right),
    ])
    func escapeSequences(bytes: String, key: Key) {
        #expect(keys(bytes) == [key])
    }

    @Test func plainKeysAndControls() {
        #expect(keys("q ") == [.character("q"), .character(" ")])
        #expect(keys("\r") == [.enter])
        #expect(keys("\r\n") == [.enter])
        #expect(keys("\u{7F}\u{08}\t") == [.backspace, .backspace, .tab])
        #expect(keys("\u{03}") == [.ctrl("c")])
        #expect(keys("åä日") == [.character("å"), .character("ä"), .character("日")])
    }

    @Test func escapeAloneNeedsAFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.hasPending)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPending)
        // Alt-x: Escape, then x.
        #expect(decoder.feed(Array("\u{1B}x".utf8)) == [.escape, .character("x")])
    }

    @Test func sequencesSplitAcrossReadsAreJoined() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B, UInt8(ascii: "[")]).isEmpty)
        #expect(decoder.feed([UInt8(ascii: "6")]).isEmpty)
        #expect(decoder.feed([UInt8(ascii: "~"), UInt8(ascii: "j")]) == [.pageDown, .character("j")])
        let snowman = Array("☃".utf8)
        #expect(decoder.feed(snowman.prefix(2)).isEmpty)
        #expect(decoder.feed(snowman.suffix(1)) == [.character("☃")])
    }

    @Test func mouseWheelInSGRForm() {
        #expect(keys("\u{1B}[<64;10;5M") == [.wheelUp(row: 5, column: 10)])
        #expect(keys("\u{1B}[<65;1;2M") == [.wheelDown(row: 2, column: 1)])
        #expect(keys("\u{1B}[<0;3;4M\u{1B}[<0;3;4m") == [.mousePress(button: 0, row: 4, column: 3)])
        // Ctrl held (16) still scrolls.
        #expect(keys("\u{1B}[<81;1;1M") == [.wheelDown(row: 1, column: 1)])
    }

    @Test func unknownSequencesDoNotSwallowLaterKeys() {
        let decoded = keys("\u{1B}[99xq")
        #expect(decoded.count == 2)
        #expect(decoded.last == .character("q"))
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xFF, 0x61]) == [.character("a")])  // an invalid UTF-8 byte is dropped
    }
}
