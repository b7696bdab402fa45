import Foundation
import TestSupport

/// The real `bok` binary as a child process in a home of its own: every XDG folder under `home`,
/// nothing of the machine's (no library URL, no real shelf or mock state).
struct BokProcess {
    let process: Process
    private let output: Pipe

    /// The environment of a fresh patron account under `home`, with `extra` on top.
    static func environment(home: URL, _ extra: [String: String] = [:]) -> [String: String] {
        [
            "HOME": home.path, "PATH": "/usr/bin:/bin",
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
        ].merging(extra) { _, new in new }
    }

    /// Starts `bok ARGUMENTS` with `stdin` written and closed; stdout and stderr go to one pipe.
    static func start(
        _ arguments: [String], home: URL, stdin: String = "", environment extra: [String: String] = [:]
    ) throws -> BokProcess {
        let process = Process()
        process.executableURL = OneShotProcessTests.binary
        process.arguments = arguments
        process.environment = environment(home: home, extra)
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        return BokProcess(process: process, output: output)
    }

    /// Waits for it to end: its exit status and everything it printed.
    func finish() -> (status: Int32, output: String) {
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Runs `bok ARGUMENTS` to its end, off Swift's cooperative pool.
    static func run(
        _ arguments: [String], home: URL, stdin: String = "",
        environment extra: [String: String] = [:]
    ) async throws -> (status: Int32, output: String) {
        try await offPool { try start(arguments, home: home, stdin: stdin, environment: extra).finish() }
    }
}
