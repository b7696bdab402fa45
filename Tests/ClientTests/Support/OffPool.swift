import Foundation

/// Runs blocking work (a child process, a pty) on a Dispatch thread: waiting there must not block
/// Swift's small cooperative pool, which the in-process mock servers of other tests need.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

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
