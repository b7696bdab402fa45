import Foundation
import Terminal
import Testing

/// The shelf at a real terminal: a Python pty plays the patron on the real binary.
@Suite("Reading from the shelf at a terminal", .serialized)
struct ShelfTerminalTests {
    @Test("borrow shows a progress bar, read 1 opens the loan with its days left, and what was read stays on the shelf")
    func borrowReadAndComeBack() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let script = """
            import os, pty, sys, time, select
            def session(steps):
                pid, fd = pty.fork()
                if pid == 0:
                    os.environ.update({"HOME": sys.argv[2], "XDG_CONFIG_HOME": sys.argv[2] + "/config",
                                       "XDG_DATA_HOME": sys.argv[2] + "/data", "TERM": "xterm-256color", "LANG": \
            "C.UTF-8",
                                       "COLUMNS": "100", "LINES": "30"})
                    os.execv(sys.argv[1], [sys.argv[1], "--mock"])
                out = [b""]
                def until(text, limit=30):
                    end = time.time() + limit
                    while text.encode() not in out[0] and time.time() < end:
                        r, _, _ = select.select([fd], [], [], 0.2)
                        if r:
                            try: out[0] += os.read(fd, 65536)
                            except OSError: return
                def type(line, enter=True):
                    os.write(fd, line.encode() + (b"\\r" if enter else b""))
                steps(until, type)
                type("quit"); until("\\x00", 3)
                return out[0]
            def first(until, type):
                until("> ")
                type("top 1"); until("Top 1")
                type("borrow 1"); until("card number: ")
                type("1001"); until("PIN for card 1001: ")
                time.sleep(0.3)
                type("1234"); until("opens it.")
                type("read 1"); until("28 days left")
                for _ in range(4):
                    type(" ", enter=False); time.sleep(0.2)
                type("q", enter=False); time.sleep(0.5)
                type("shelf"); until("fewest days first"); until("28 days", 5); time.sleep(0.3)
            def second(until, type):
                until("> ")
                type("shelf"); until("fewest days first"); until("28 days", 5); time.sleep(0.3)
            sys.stdout.buffer.write(session(first) + b"\\n=====SECOND=====\\n" + session(second))
            """
        let output = try await runPatronScript(script, binary: PINSafetyTests.binary, home: home)
        // Colour is on at a terminal; the words are what is checked.
        let plain = Ansi.strip(output)
        let parts = plain.components(separatedBy: "=====SECOND=====")
        #expect(parts.count == 2, "\(output.suffix(2000))")
        let first = parts[0]
        let second = parts.last ?? ""
        // The progress bar: a line redrawn in place, with a bar and a percent.
        #expect(first.contains("\r↓ ") && first.contains("100%"), "no progress bar in \(first.prefix(3000))")
        #expect(first.contains("28 days left"), "the reader's status line has no days-left badge")
        // Back at the prompt the shelf shows the book on disk and partly read.
        #expect(
            first.range(of: #"↓ +(<1|[1-9]\d?)%  28 days"#, options: .regularExpression) != nil, "\(first.suffix(1500))"
        )
        // A new bok on the same computer sees the same simulated library: the loan is still there,
        // with what was read of it.
        #expect(
            second.range(of: #"↓ +(<1|[1-9]\d?)%  28 days"#, options: .regularExpression) != nil,
            "\(second.suffix(1500))")
    }
}
