import Terminal
import Testing

@Suite("Terminal capabilities")
struct CapabilitiesTests {
    @Test("NO_COLOR with any value turns colour off, even on a true-colour terminal")
    func noColorWins() {
        let env = ["NO_COLOR": "1", "TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "sv_SE.UTF-8"]
        #expect(TerminalCapabilities.detect(environment: env, isTTY: true).colorDepth == .none)
    }

    @Test("An empty NO_COLOR does not turn colour off")
    func emptyNoColorIsIgnored() {
        let env = ["NO_COLOR": "", "TERM": "xterm"]
        #expect(TerminalCapabilities.detect(environment: env, isTTY: true).colorDepth == .ansi16)
    }

    @Test(
        "Colour depth follows TERM and COLORTERM",
        arguments: [
            (["TERM": "dumb", "COLORTERM": "truecolor"], ColorDepth.none),
            (["TERM": "xterm"], .ansi16),
            (["TERM": "screen-256color"], .ansi256),
            (["TERM": "xterm-256color", "COLORTERM": "truecolor"], .trueColor),
            (["TERM": "xterm", "COLORTERM": "24bit"], .trueColor),
            ([:], .ansi16),
        ])
    func depthFromEnvironment(env: [String: String], expected: ColorDepth) {
        #expect(TerminalCapabilities.detect(environment: env, isTTY: true).colorDepth == expected)
    }

    @Test("Piped output has no colour")
    func pipedOutputIsPlain() {
        let caps = TerminalCapabilities.detect(environment: ["TERM": "xterm-256color"], isTTY: false)
        #expect(caps.colorDepth == .none)
        #expect(!caps.isTTY)
    }

    @Test(
        "Unicode follows the locale, LC_ALL first",
        arguments: [
            (["LANG": "sv_SE.UTF-8"], true),
            (["LANG": "C.UTF-8"], true),
            (["LANG": "en_US.utf8"], true),
            (["LC_CTYPE": "sv_SE.Utf-8", "LANG": "C"], true),
            (["LC_ALL": "C", "LANG": "sv_SE.UTF-8"], false),
            (["LC_ALL": "", "LANG": "sv_SE.UTF-8"], true),
            (["LANG": "C"], false),
            (["LANG": "POSIX"], false),
            ([:], false),
        ])
    func unicodeFromLocale(env: [String: String], expected: Bool) {
        #expect(TerminalCapabilities.detect(environment: env, isTTY: true).unicode == expected)
    }

    @Test("The plain capabilities are for tests and pipes")
    func plain() {
        #expect(TerminalCapabilities.plain == TerminalCapabilities(isTTY: false, colorDepth: .none, unicode: true))
    }
}
