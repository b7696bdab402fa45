#if os(Linux)
import Foundation
import Glibc
import Testing
import TestSupport
@testable import Terminal

/// Waits up to thirty seconds for `condition` (a bound for a loaded machine, not a speed check),
/// sleeping the task rather than the thread.
private func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<3000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

// Serialized: raw mode and the secret prompt share one saved-settings slot per process.
// Skipped where the sandbox has no pseudo-terminals.
@Suite(
    "Terminal modes on a pseudo-terminal", .serialized,
    .enabled(if: access("/dev/ptmx", R_OK | W_OK) == 0, "needs /dev/ptmx")
)
struct PseudoTerminalTests {
    @Test("A PIN typed at the secret prompt is not shown, and echo comes back afterwards")
    func secretIsNotEchoed() async throws {
        let tty = try #require(PseudoTerminal())
        #expect(tty.localFlags & tcflag_t(ECHO) != 0)
        let reader = SecretReader(input: tty.device, output: tty.device)

        async let secret = offPool { reader.read(prompt: "PIN: ") }
        #expect(await eventually { tty.localFlags & tcflag_t(ECHO) == 0 })
        tty.type("12x\u{7F}34\r")  // a typo, Backspace, the rest, Return
        #expect(await secret == "1234")

        let screen = tty.screen()
        #expect(screen.hasPrefix("PIN: "))
        #expect(!screen.contains("12"))
        #expect(!screen.contains("34"))
        #expect(tty.localFlags & tcflag_t(ECHO) != 0)
        #expect(tty.localFlags & tcflag_t(ICANON) != 0)
    }

    @Test("Ctrl-C at the secret prompt cancels it and restores the terminal")
    func secretCancelled() async throws {
        let tty = try #require(PseudoTerminal())
        let reader = SecretReader(input: tty.device, output: tty.device)

        async let secret = offPool { reader.read(prompt: "PIN: ") }
        #expect(await eventually { tty.localFlags & tcflag_t(ECHO) == 0 })
        tty.type("99\u{03}")
        #expect(await secret == nil)
        #expect(tty.localFlags & tcflag_t(ECHO) != 0)
        #expect(!RawMode.isActive)
    }

    @Test("Piped input gives the secret line without prompting")
    func secretFromPipe() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let line = "4321\nnext command\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(fds[1], $0.baseAddress, line.utf8.count) }
        close(fds[1])
        let reader = SecretReader(input: fds[0], output: fds[1])
        #expect(reader.read(prompt: "PIN: ") == "4321")
        #expect(reader.read(prompt: "PIN: ") == "next command")
        #expect(reader.read(prompt: "PIN: ") == nil)
    }

    @Test("Raw mode turns off echo and line buffering, and leaving restores them")
    func rawModeRestores() throws {
        let tty = try #require(PseudoTerminal())
        let before = tty.localFlags
        try RawMode.run(fd: tty.device) {
            #expect(RawMode.isActive)
            #expect(tty.localFlags & tcflag_t(ECHO | ICANON | ISIG) == 0)
        }
        #expect(!RawMode.isActive)
        #expect(tty.localFlags == before)
    }

    @Test("Raw mode on something that is not a terminal fails with a message that says what to do")
    func rawModeNeedsTerminal() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let error = #expect(throws: TerminalError.self) { try RawMode.enter(fd: fds[0]) }
        #expect(error?.description.contains("not a terminal") == true)
        #expect(!RawMode.isActive)
    }

    @Test("The window size comes from the terminal, then COLUMNS/LINES, then 80×24")
    func windowSize() throws {
        let tty = try #require(PseudoTerminal())
        var size = winsize(ws_row: 40, ws_col: 132, ws_xpixel: 0, ws_ypixel: 0)
        try #require(ioctl(tty.device, UInt(TIOCSWINSZ), &size) == 0)
        let fromTerminal = TerminalSize.current(fd: tty.device, environment: ["COLUMNS": "100"])
        #expect(fromTerminal.columns == 132 && fromTerminal.rows == 40)

        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let fromEnvironment = TerminalSize.current(fd: fds[1], environment: ["COLUMNS": "100", "LINES": "30"])
        #expect(fromEnvironment.columns == 100 && fromEnvironment.rows == 30)
        let fallback = TerminalSize.current(fd: fds[1], environment: ["COLUMNS": "wide"])
        #expect(fallback.columns == 80 && fallback.rows == 24)
    }
}
#endif
