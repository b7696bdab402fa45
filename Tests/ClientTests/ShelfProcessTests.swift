import Catalog
import Foundation
import GRDB
import Shelf
import TestSupport
import Testing

@testable import MockLending

/// Real `bok` processes sharing one shelf database: at once, and killed with SIGKILL mid-work.
@Suite("The shelf across processes", .serialized)
struct ShelfProcessTests {
    /// Product ids of the seeded mock's catalogue (the same in every bok --mock).
    static let ids = CatalogGenerator(seed: 1, size: 600).generate().products.map(\.id)

    /// A fresh XDG home for one test.
    struct Home {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bok-shelf-\(UUID().uuidString)")
        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = url.path
            environment["XDG_CONFIG_HOME"] = url.appendingPathComponent("config").path
            environment["XDG_DATA_HOME"] = url.appendingPathComponent("data").path
            environment.removeValue(forKey: "BOK_LIBRARY_URL")
            return environment
        }
        var database: URL { url.appendingPathComponent("data/bok/shelf.sqlite") }
    }

    /// Starts bok with piped stdin; the caller writes lines and waits.
    static func start(_ arguments: [String], home: Home) throws -> (Process, FileHandle) {
        let process = Process()
        process.executableURL = OneShotProcessTests.binary
        process.arguments = arguments
        process.environment = home.environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, input.fileHandleForWriting)
    }

    @Test("A REPL and one-shot commands write the shelf at the same time and nothing is lost")
    func concurrentProcesses() async throws {
        let home = Home()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let replIDs = Array(Self.ids.prefix(30))
        let oneShotIDs = Array(Self.ids.dropFirst(30).prefix(6))
        try await offPool {
            let (repl, input) = try Self.start(["--mock"], home: home)
            input.write(Data(replIDs.map { "tbr add id:\($0)\n" }.joined().utf8))
            // One-shots, two at a time, while the REPL is working through its lines.
            for pair in stride(from: 0, to: oneShotIDs.count, by: 2) {
                let processes = try oneShotIDs[pair..<pair + 2].map {
                    try Self.start(["--mock", "tbr", "add", "id:\($0)"], home: home).0
                }
                for process in processes {
                    process.waitUntilExit()
                    #expect(process.terminationStatus == 0)
                }
            }
            input.write(Data("quit\n".utf8))
            try input.close()
            repl.waitUntilExit()
            #expect(repl.terminationStatus == 0)
        }
        let store = ShelfStore(database: try ShelfDatabase.open(at: home.database))
        let stored = Set(try store.toBeRead().map(\.productID))
        #expect(stored == Set(replIDs + oneShotIDs), "missing: \(Set(replIDs + oneShotIDs).subtracting(stored))")
        let check = try await store.database.writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check")
        }
        #expect(check == ["ok"])
    }

    @Test("bok killed with SIGKILL while it writes loses at most the action in flight")
    func killedMidWrite() async throws {
        let home = Home()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let sent = Array(Self.ids.prefix(400))
        try await offPool {
            let (repl, input) = try Self.start(["--mock"], home: home)
            input.write(Data(sent.map { "tbr add id:\($0)\n" }.joined().utf8))
            // Kill it once it is well into the list, wherever it is.
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if let store = try? ShelfDatabase.open(at: home.database),
                    let count = try? ShelfStore(database: store).toBeRead().count,
                    count >= 20
                {
                    break
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            kill(repl.processIdentifier, SIGKILL)
            repl.waitUntilExit()
            #expect(repl.terminationReason == .uncaughtSignal)
        }
        let store = ShelfStore(database: try ShelfDatabase.open(at: home.database))
        let check = try await store.database.writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check")
        }
        #expect(check == ["ok"])
        let stored = try store.toBeRead().map(\.productID)
        // Each tbr add is one transaction: what is there is exactly the first N lines, in order, whole.
        #expect(stored.count >= 20 && stored.count < sent.count, "\(stored.count)")
        #expect(stored == Array(sent.prefix(stored.count)))
        #expect(try store.toBeRead().allSatisfy { !$0.title.isEmpty })
        // And bok opens it again as if nothing happened.
        try store.addToBeRead(productID: "after", title: "Efter kraschen")
        #expect(try store.toBeRead().last?.productID == "after")
    }

    @Test(
        """
        Three REPLs taking the same samples at once: each book whole, no .part left, no row without its file \
        (issue 17, item 9)
        """
    )
    func sameSamplesAtOnce() async throws {
        let home = Home()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let withSample = CatalogGenerator(seed: 1, size: 600).generate().products.filter { $0.teaser != nil }.prefix(6)
            .map(\.id)
        let script = withSample.map { "sample id:\($0)\n" }.joined() + "quit\n"
        let outputs = try await offPool {
            // All three at once, then each to its end (their answers are a few lines: no pipe fills).
            try (0..<3).map { _ in try BokProcess.start(["--mock"], home: home.url, stdin: script) }.map { $0.finish() }
        }
        for (status, text) in outputs {
            #expect(status == 0, "\(text)")
            #expect(!text.contains("Could not"), "\(text)")
        }
        let books = home.url.appendingPathComponent("data/bok/books")
        let names = try FileManager.default.contentsOfDirectory(atPath: books.path)
        #expect(names.filter { $0.hasSuffix(".part") }.isEmpty, "\(names)")
        let store = ShelfStore(database: try ShelfDatabase.open(at: home.database), collation: Collation(.swedish))
        for id in withSample {
            let record = try #require(try store.download(productID: id), "no row for \(id)")
            let file = URL(fileURLWithPath: record.path)
            #expect(FileManager.default.fileExists(atPath: file.path), "\(id): the row names a missing file")
            #expect(try BookDownloader.sha256(of: file) == record.sha256, "\(id): the file is not the one recorded")
        }
    }
}
