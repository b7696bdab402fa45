import Foundation
import Testing

/// Ctrl-C and Ctrl-Z at a real terminal (issue 17, items 7 and 8): a Python pty plays the patron
/// against the real binary. Every wait is bounded; each test ends well under 15 s.
@Suite("Signals at the terminal", .serialized)
struct SignalTests {
    /// The test runner may start processes with SIGINT blocked or ignored; bok at a terminal never is.
    static let unblock = """
        import signal
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT, signal.SIGTSTP])
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)

        """

    @Test("Ctrl-C during a slow search cancels it: Cancelled., the prompt, and bok answers the next command")
    func ctrlCCancelsSearch() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let script =
            Self.unblock + patronScriptPrelude + """
                until("> ", 10)
                type("mock fault latency 8000"); until("8000", 5); time.sleep(0.3)
                mark = len(out[0])
                type("search thriller"); time.sleep(1.0)
                started = time.time()
                os.write(fd, b"\\x03"); until("Cancelled.", 5)
                took = time.time() - started
                until("> ", 2)
                gone, _ = os.waitpid(pid, os.WNOHANG)
                print("ALIVE" if gone == 0 else "EXITED")
                print("TOOK %.1f" % took)
                type("mock fault off"); time.sleep(0.3)
                type("help whoami"); until("Your card", 5); time.sleep(0.3)
                type("quit"); until("\\x00", 3)
                sys.stdout.buffer.write(out[0][mark:])
                """
        let screen = try await runPatronScript(script, binary: PINSafetyTests.binary, home: home)
        #expect(screen.contains("ALIVE"), "\(screen.suffix(1500))")
        #expect(screen.contains("Cancelled."), "\(screen.suffix(1500))")
        let took =
            screen.split(separator: "\n").first { $0.hasPrefix("TOOK ") }.flatMap { Double($0.dropFirst(5)) } ?? 99
        #expect(took < 3, "Ctrl-C took \(took) s to come back")
        #expect(screen.contains("Your card, your name"), "\(screen.suffix(1500))")
    }

    /// Starts `bok mock-server` on a free port and writes a config file naming it, so bok runs
    /// with a library from the config file (not `--mock`); then runs bok as a job of a tiny
    /// shell: its own process group at the terminal, so Ctrl-Z stops it as it would under bash.
    static let configuredLibraryPrelude = """
        import os, pty, sys, time, select, subprocess, termios
        home = sys.argv[2]
        server = subprocess.Popen([sys.argv[1], "mock-server", "--port", "0"], stdout=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, HOME=home, \
        XDG_DATA_HOME=home + "/srv"))
        url = server.stdout.readline().decode().strip()
        os.makedirs(home + "/config/bok", exist_ok=True)
        with open(home + "/config/bok/config", "w") as f:
            f.write("url = %s\\nservice-id = bok-mock\\nservice-key = mock-secret\\n" % url)
        pid, fd = pty.fork()
        if pid == 0:
            os.environ.update({"HOME": home, "XDG_CONFIG_HOME": home + "/config",
                               "XDG_DATA_HOME": home + "/data", "XDG_STATE_HOME": home + "/state",
                               "TERM": "xterm-256color", "LANG": "C.UTF-8", "COLUMNS": "100", "LINES": "30"})
            os.environ.pop("BOK_LIBRARY_URL", None)
            signal.signal(signal.SIGTTOU, signal.SIG_IGN)
            child = os.fork()
            if child == 0:
                os.setpgid(0, 0)
                os.tcsetpgrp(0, os.getpgrp())
                signal.signal(signal.SIGTTOU, signal.SIG_DFL)
                os.execv(sys.argv[1], [sys.argv[1]])
            cooked = termios.tcgetattr(0)
            with open(home + "/bok.pid", "w") as f: f.write(str(child))
            while True:
                _, status = os.waitpid(child, os.WUNTRACED)
                if os.WIFSTOPPED(status):
                    # What bash does when a job stops: its own (cooked) settings back.
                    termios.tcsetattr(0, termios.TCSANOW, cooked)
                    continue
                os._exit(0)
        out = [b""]
        def until(text, limit=10):
            end = time.time() + limit
            while text.encode() not in out[0] and time.time() < end:
                r, _, _ = select.select([fd], [], [], 0.1)
                if r:
                    try: out[0] += os.read(fd, 65536)
                    except OSError: return
        def type(line):
            os.write(fd, line.encode() + b"\\r")
        def bokpid():
            for _ in range(50):
                try: return int(open(home + "/bok.pid").read())
                except Exception: time.sleep(0.1)
        def state(p):
            try: return open("/proc/%d/stat" % p).read().rsplit(")", 1)[1].split()[0]
            except Exception: return "?"
        def wait_state(p, want, limit=3):
            end = time.time() + limit
            while state(p) != want and time.time() < end: time.sleep(0.02)
            return state(p)
        def finish():
            try: type("quit"); until("\\x00", 3)
            finally: server.kill()

        """

    @Test("With a library from the config file, Ctrl-C drops the half-typed line and Ctrl-Z stops bok at once")
    func configuredLibraryPrompt() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let script =
            Self.unblock + Self.configuredLibraryPrelude + """
                until("> ", 10); time.sleep(0.5)
                os.write(fd, b"half typed"); time.sleep(0.3)
                os.write(fd, b"\\x03"); time.sleep(0.5)
                type("help whoami"); until("Your card", 5); time.sleep(0.3)
                p = bokpid()
                os.write(fd, b"top"); time.sleep(0.3)
                os.write(fd, b"\\x1a")
                print("STOPPED " + wait_state(p, "T"))
                os.kill(p, signal.SIGCONT); time.sleep(0.5)
                print("RUNNING " + state(p))
                # Readline puts its settings back once it runs again: waited for, not assumed after a
                # fixed pause (a loaded machine takes longer).
                end = time.time() + 5
                while termios.tcgetattr(fd)[3] & termios.ICANON and time.time() < end: time.sleep(0.02)
                attrs = termios.tcgetattr(fd)
                print("ICANON %d" % (1 if attrs[3] & termios.ICANON else 0))
                type(" 1"); until("1.", 5); time.sleep(0.5)
                finish()
                sys.stdout.buffer.write(out[0])
                """
        let screen = try await runPatronScript(script, binary: PINSafetyTests.binary, home: home)
        #expect(!screen.contains("half typedhelp"), "\(screen.suffix(1500))")
        #expect(!screen.contains("Unknown command"), "\(screen.suffix(1500))")
        #expect(screen.contains("Your card, your name"), "\(screen.suffix(1500))")
        #expect(screen.contains("STOPPED T"), "\(screen.suffix(1500))")
        #expect(screen.contains("RUNNING S") || screen.contains("RUNNING R"), "\(screen.suffix(1500))")
        // Readline's own settings are back after fg: no line buffering.
        #expect(screen.contains("ICANON 0"), "\(screen.suffix(1500))")
    }

    @Test(
        """
        In the reader, SIGTSTP or Ctrl-Z gives the terminal back and stops; after fg it is raw again and the page \
        is redrawn
        """
    )
    func readerStopsAndComesBack() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let script =
            Self.unblock + Self.configuredLibraryPrelude + """
                until("> ", 10); time.sleep(0.3)
                type("top 1"); until("Top 1", 5)
                type("borrow 1"); until("card number: ", 5)
                type("1001"); until("PIN for card 1001: ", 5); time.sleep(0.3)
                type("1234"); until("opens it.", 8)
                type("read 1"); until("28 days left", 5); time.sleep(0.5)
                p = bokpid()
                def canon(): return 1 if termios.tcgetattr(fd)[3] & termios.ICANON else 0
                print("READING ICANON %d" % canon())
                for how in ["signal", "key"]:
                    if how == "signal": os.kill(p, signal.SIGTSTP)
                    else: os.write(fd, b"\\x1a")
                    print("%s STOPPED %s ICANON %d" % (how, wait_state(p, "T"), canon()))
                    until("\\x1b[?1049l", 2)
                    mark = len(out[0])
                    os.kill(p, signal.SIGCONT)
                    end = time.time() + 3
                    while not (b"\\x1b[?1049h" in out[0][mark:] and b"28 days left" in \
                out[0][mark:].split(b"\\x1b[?1049h", 1)[-1]) and time.time() < end:
                        r, _, _ = select.select([fd], [], [], 0.1)
                        if r: out[0] += os.read(fd, 65536)
                    after = out[0][mark:]
                    redrawn = b"\\x1b[?1049h" in after and b"28 days left" in after.split(b"\\x1b[?1049h", 1)[-1]
                    print("%s BACK %s ICANON %d REDRAWN %d" % (how, state(p), canon(), 1 if redrawn else 0))
                os.write(fd, b"q"); until("> ", 3); time.sleep(0.3)
                finish()
                """
        let screen = try await runPatronScript(script, binary: PINSafetyTests.binary, home: home)
        let report = screen.split(separator: "\n").filter { $0.contains("ICANON") }.joined(separator: "\n")
        #expect(report.contains("READING ICANON 0"), "\(report)\n\(screen.suffix(800))")
        for how in ["signal", "key"] {
            #expect(report.contains("\(how) STOPPED T"), "\(report)")
            #expect(
                report.contains("\(how) BACK S ICANON 0 REDRAWN 1")
                    || report.contains("\(how) BACK R ICANON 0 REDRAWN 1"), "\(report)")
        }
    }
}
