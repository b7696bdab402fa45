public import Foundation

/// calibre's content server (Debian `calibre`) on 127.0.0.1, over a library built from EPUBs the
/// test writes, for testing bok against a real OPDS server that nobody here wrote.
///
/// `calibre_server.py` beside this file builds the library, starts the server with
/// `--listen-on 127.0.0.1` on a free port, and says "ready" only once its log shows it listens
/// on 127.0.0.1 at that port (calibre falls back to another interface when its port is taken;
/// then the test fails and sends nothing). It runs calibre in a session of its own and stops it
/// when the test closes its standard input, so calibre's worker processes never belong to the
/// test process.
public final class CalibreServer: @unchecked Sendable {
    // @unchecked: set up once in init; stop() is called once, by the test that made it.
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/calibre-server")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/calibredb")
    }

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    /// A book to put in the library.
    public struct Book: Sendable {
        public var title: String
        public var author: String
        public var language: String
        /// How many paragraphs its one chapter has (a longer book has pages to turn).
        public var paragraphs: Int

        public init(title: String, author: String, language: String, paragraphs: Int = 1) {
            self.title = title
            self.author = author
            self.language = language
            self.paragraphs = paragraphs
        }
    }

    public let folder: URL
    public let port: Int
    private let process: Process
    private let input: Pipe
    public var root: URL { URL(string: "http://127.0.0.1:\(port)/opds")! }

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "calibre_server.py")

    /// Builds a library of `books` and starts the server on it; with `users`, only they (HTTP
    /// Basic) may read it, each with annotations of their own. Blocks until the server is ready:
    /// call it off the cooperative pool.
    public init(books: [Book], users: [(name: String, password: String)] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-calibre-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try Self.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", Self.script.path, folder.path, String(port)] + users.flatMap { [$0.name, $0.password] }
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line =
            books.map { "\($0.title)\t\($0.author)\t\($0.language)\t\($0.paragraphs)" }.joined(separator: "\u{1E}")
            + "\n"
        input.fileHandleForWriting.write(Data(line.utf8))
        var answer = Data()
        while !answer.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            answer += chunk
        }
        let text = String(decoding: answer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text == "ready" else {
            stop()
            throw Failure(description: text.isEmpty ? "calibre_server.py ended without a word" : text)
        }
    }

    /// Stops the server (closing the helper's standard input) and removes the library.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    static func freePort() throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1]); s.close()",
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let port = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw Failure(description: "no free port")
        }
        return port
    }
}

extension CalibreServer {
    /// Starts calibre on a Dispatch thread: waiting for it must not block Swift's small cooperative pool.
    public static func start(books: [Book], user: (String, String)? = nil) async throws -> CalibreServer {
        try await start(books: books, users: user.map { [$0] } ?? [])
    }

    /// Starts calibre with several users, each with annotations of their own.
    public static func start(books: [Book], users: [(String, String)]) async throws -> CalibreServer {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { try CalibreServer(books: books, users: users.map { (name: $0.0, password: $0.1) }) })
            }
        }
    }
}
