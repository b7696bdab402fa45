#if os(Linux)
import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

@testable import Terminal

/// How bok finds out what the terminal draws: its environment first, then its answers to one
/// query, and never graphics where they do not belong.
@Suite struct PictureDetectionTests {
    /// What an xterm started with `-ti vt340` answers: its cell, its text area, Sixel in DA1, and the status.
    static let xtermWithSixel = "\u{1B}[6;20;10t\u{1B}[4;480;800t\u{1B}[?63;1;2;4;6;9;15;22c\u{1B}[0n"
    /// What a plain xterm answers: no cell size, no Sixel.
    static let plainXterm = "\u{1B}[?62;1;2;6;9;15;22c\u{1B}[0n"

    @Test func repliesAreReadAndKeysAmongThemGivenBack() {
        let bytes = Array(("j" + Self.xtermWithSixel + "\u{1B}[6~k\u{1B}[").utf8)
        let (replies, unread, pending) = TerminalReplies.parse(bytes)
        #expect(replies.sixel)
        #expect(replies.complete)
        #expect(replies.cellPixels == PixelSize(width: 10, height: 20))
        #expect(replies.textAreaPixels == PixelSize(width: 800, height: 480))
        #expect(String(decoding: unread, as: UTF8.self) == "j\u{1B}[6~k", "keys typed meanwhile stay keys")
        #expect(pending == Array("\u{1B}[".utf8), "an unfinished sequence waits for the rest")
        // Without CSI 16 t the text area divided by the window gives the cell.
        let plain = TerminalReplies.parse(Array("\u{1B}[4;480;800t\u{1B}[?62;c\u{1B}[0n".utf8)).replies
        #expect(!plain.sixel)
        #expect(plain.cell(columns: 80, rows: 24) == PixelSize(width: 10, height: 20))
    }

    @Test(
        "The environment names the terminal before it is asked",
        arguments: [
            (["TERM": "xterm-kitty"], PictureProtocol.kitty),
            (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"], .kitty),
            (["TERM": "xterm-ghostty"], .kitty),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .iterm),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], .iterm),
            (["TERM": "foot"], .sixel),
            (["TERM": "mlterm"], .sixel),
            // tmux passes no pictures on unless told: half-blocks, even in kitty.
            (["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "1"], .blocks),
        ])
    func environmentHints(environment: [String: String], expected: PictureProtocol) {
        let asked = Mutex(false)
        let found = PictureDetection.detect(
            setting: .auto, environment: environment, isTTY: true, windowCell: { PixelSize(width: 9, height: 18) },
            ask: {
                asked.withLock { $0 = true }
                return TerminalReplies()
            })
        #expect(found.method == expected, "\(found.reason)")
        #expect(!asked.withLock { $0 }, "a terminal the environment names is not asked")
    }

    @Test(
        "Never graphics off a terminal, with TERM=dumb or on the Linux console, whatever the setting",
        arguments: [
            (["TERM": "dumb"], true), (["TERM": "linux"], true), (["TERM": "xterm-kitty"], false),
            ([:], true),
        ])
    func neverGraphics(environment: [String: String], isTTY: Bool) {
        for setting in [ImagesSetting.auto, .forced(.sixel), .forced(.kitty), .forced(.iterm)] {
            let found = PictureDetection.detect(
                setting: setting, environment: environment, isTTY: isTTY,
                ask: {
                    Issue.record("asked a terminal that must get no graphics")
                    return TerminalReplies()
                })
            #expect(found.method == .blocks, "\(setting) with \(environment), isTTY \(isTTY)")
        }
    }

    @Test func aSettingWinsOverTmuxAndTheAnswer() {
        let found = PictureDetection.detect(
            setting: .forced(.sixel), environment: ["TERM": "screen", "TMUX": "x"], isTTY: true,
            windowCell: { nil },
            ask: { TerminalReplies.parse(Array(Self.plainXterm.utf8)).replies })
        #expect(found.method == .sixel)
        #expect(found.cell == .assumed, "nothing said the cell's size")
        #expect(ImagesSetting(configValue: "Sixel") == .forced(.sixel))
        #expect(ImagesSetting(configValue: "iterm2") == .forced(.iterm))
        #expect(ImagesSetting(configValue: "pictures") == nil)
        #expect(ImagesSetting.choices == "auto|kitty|iterm|sixel|blocks|off")
    }

    @Test func anImplausibleCellSizeIsNotBelieved() {
        let huge = TerminalReplies.parse(Array("\u{1B}[6;9000;9000t\u{1B}[?62;4c\u{1B}[0n".utf8)).replies
        let found = PictureDetection.detect(
            setting: .auto, environment: ["TERM": "xterm"], isTTY: true,
            windowCell: { PixelSize(width: 9, height: 18) }, ask: { huge })
        #expect(found.method == .sixel)
        #expect(found.cell == PixelSize(width: 9, height: 18), "a 9000-pixel cell would make every picture huge")
    }

    /// Asks a pseudo-terminal that answers `answer` (nothing when nil) once it has the whole query,
    /// after `typed` keys; returns the detection, the keys given back and how long it took.
    private func detect(
        answering answer: String?, typed: String = ""
    ) async throws -> (
        PictureDetection, String, Duration
    ) {
        let tty = try #require(PseudoTerminal(columns: 80, rows: 24))
        var raw = termios()
        tcgetattr(tty.device, &raw)
        cfmakeraw(&raw)
        tcsetattr(tty.device, TCSANOW, &raw)
        let responder = Task.detached {
            let query = await tty.read(until: { $0.contains("\u{1B}[5n") }, seconds: 2)
            #expect(query == TerminalQuery.request, "one write: kitty's query, cell, text area, DA1, then the status")
            tty.type(typed + (answer ?? ""))
        }
        let device = tty.device
        let started = ContinuousClock.now
        let (found, unread) = await offPool {
            var unread: [UInt8] = []
            let found = PictureDetection.detect(
                setting: .auto, environment: ["TERM": "xterm-256color"], isTTY: true, windowCell: { nil },
                ask: {
                    let asked = TerminalQuery.ask(
                        input: device, output: device, boundMilliseconds: TerminalQuery.boundMilliseconds)
                    unread = asked.unread
                    return asked.replies
                })
            return (found, unread)
        }
        let elapsed = ContinuousClock.now - started
        await responder.value
        return (found, String(decoding: unread, as: UTF8.self), elapsed)
    }

    @Test func aTerminalWithSixelInDA1GetsSixelAtItsCellSize() async throws {
        let (found, unread, elapsed) = try await detect(answering: Self.xtermWithSixel, typed: "j")
        #expect(found.method == .sixel)
        #expect(found.cell == PixelSize(width: 10, height: 20))
        #expect(unread == "j", "a key pressed while the terminal answered is not lost")
        #expect(elapsed < .milliseconds(250), "the status report ends the wait")
    }

    @Test func kittyOverSSHNamesItselfAndGetsKittysProtocol() async throws {
        // No KITTY_WINDOW_ID or TERM=xterm-kitty across ssh: XTVERSION says who answers.
        let (found, _, elapsed) = try await detect(
            answering: "\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[?62;c\u{1B}[0n")
        #expect(found.method == .kitty, "\(found.reason)")
        #expect(found.reason == "XTVERSION kitty(0.26.5)")
        #expect(elapsed < .milliseconds(250))
        let wezterm = TerminalReplies.parse(
            Array("\u{1B}P>|WezTerm 20240203\u{1B}\\\u{1B}[?65;4;6;18;22c\u{1B}[0n".utf8))
        #expect(wezterm.replies.terminalName == "WezTerm 20240203" && wezterm.unread.isEmpty)
        #expect(PictureDetection.byName(wezterm.replies.terminalName)?.method == .iterm)
        #expect(PictureDetection.byName("XTerm(388)") == nil, "xterm is told by DA1")
    }

    @Test func aTerminalThatAnswersKittysGraphicsQueryGetsKittysProtocolUnnamed() async throws {
        // Konsole: no XTVERSION name, no kitty variables, but it answers the query that stores nothing.
        let (found, unread, elapsed) = try await detect(
            answering: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c\u{1B}[0n", typed: "k")
        #expect(found.method == .kitty, "\(found.reason)")
        #expect(found.reason == "kitty graphics query answered")
        #expect(unread == "k", "the answer is not taken for keys")
        #expect(elapsed < .milliseconds(250))
        // An error answer is no: the terminal knows the protocol but cannot draw it here.
        let refused = TerminalReplies.parse(
            Array("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?62;4c\u{1B}[0n".utf8))
        #expect(!refused.replies.kittyGraphics && refused.replies.sixel && refused.unread.isEmpty)
    }

    @Test func aTerminalWithoutSixelGetsHalfBlocksInOneRoundTrip() async throws {
        let (found, _, elapsed) = try await detect(answering: Self.plainXterm)
        #expect(found.method == .blocks)
        #expect(elapsed < .milliseconds(250))
    }

    @Test func aTerminalThatNeverAnswersGetsHalfBlocksWithinTheBound() async throws {
        let (found, _, elapsed) = try await detect(answering: nil)
        #expect(found.method == .blocks)
        #expect(found.reason.contains("no answer"))
        #expect(elapsed >= .milliseconds(240) && elapsed < .seconds(1), "\(elapsed)")
    }
}
#endif
