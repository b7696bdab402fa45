import Foundation
import TestSupport

/// Runs a Python script that plays the patron at a pseudo-terminal, as `patron.py` in `home`,
/// with the bok binary and `home` as its arguments; returns what it prints (the screen it saw).
func runPatronScript(_ script: String, binary: URL, home: URL) async throws -> String {
    let scriptFile = home.appendingPathComponent("patron.py")
    try script.write(to: scriptFile, atomically: true, encoding: .utf8)
    return try await offPool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptFile.path, binary.path, home.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// The start of a patron script: forks bok (argv[1]) on a pseudo-terminal with its XDG
/// directories under `home` (argv[2]) and `arguments` (Python expressions, `home` in scope), with
/// `environment` on top and, when `stderrFile` is given, its stderr in that file under `home`; and
/// defines `until(text, limit)` (read until `text` shows) and `type(line)` (type a line and Enter).
/// What bok wrote collects in `out[0]`.
func patronScript(
    arguments: [String] = ["\"--mock\""], environment: [String: String] = [:], stderrFile: String? = nil
) -> String {
    let extra = environment.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }
    let log =
        stderrFile.map {
            """
                log = os.open(home + "/\($0)", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
                os.dup2(log, 2)

            """
        } ?? ""
    return """
        import os, pty, sys, time, select
        pid, fd = pty.fork()
        if pid == 0:
            home = sys.argv[2]
            os.environ.update({"HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
                               "XDG_STATE_HOME": home + "/state", "TERM": "xterm-256color", "LANG": "C.UTF-8",
                               "COLUMNS": "100", "LINES": "30", "PAGER": "cat"})
            os.environ.update({\(extra.joined(separator: ", "))})

        """ + log + """
                os.execv(sys.argv[1], [sys.argv[1], \(arguments.joined(separator: ", "))])
            out = [b""]
            def until(text, limit=30):
                end = time.time() + limit
                while text.encode() not in out[0] and time.time() < end:
                    r, _, _ = select.select([fd], [], [], 0.2)
                    if r:
                        try: out[0] += os.read(fd, 65536)
                        except OSError: return
            def type(line):
                os.write(fd, line.encode() + b"\\r")

            """
}

/// ``patronScript(arguments:environment:stderrFile:)`` for `bok --mock`.
let patronScriptPrelude = patronScript()
