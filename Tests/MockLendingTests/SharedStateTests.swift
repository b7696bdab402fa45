import Catalog
import Foundation
import Synchronization
import Testing

@testable import MockLending

/// The shared state file under a running mock (issue 27, item 5): what happens when it goes away
/// or cannot be read, seen from the server's own client.
@Suite("The mock's shared state file")
struct SharedStateTests {
    /// A configuration with a state file in a fresh folder, and the problems the mock reports.
    final class Watched: Sendable {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-mockstate-\(UUID().uuidString)")
        let told = Mutex<[SharedStateProblem]>([])
        var file: URL { folder.appendingPathComponent("mock-library-seed1-600.sqlite") }

        var configuration: MockConfiguration {
            var configuration = MockConfiguration()
            configuration.stateFile = file
            configuration.onPrivateState = { [self] problem in self.told.withLock { $0.append(problem) } }
            return configuration
        }
    }

    @Test("A state file removed under a running mock: told once, and it lends on with the loans it had")
    func removedWhileRunning() async throws {
        let watched = Watched()
        defer { try? FileManager.default.removeItem(at: watched.folder) }
        try await TestServer.with(watched.configuration) { server in
            let lending = server.lending
            let first = try await lending.createLoan(
                card: "1001", pin: "1234", productID: LendingFixtures.accessTitle(0))
            #expect(server.server.sharedStateProblem == nil)

            try FileManager.default.removeItem(at: watched.file)
            // The loan made before is still there, and a new one can be made; neither goes to a file no one sees.
            #expect(try await lending.loans(card: "1001", onlyActive: true).map(\.id) == [first.id])
            let second = try await lending.createLoan(
                card: "1001", pin: "1234", productID: LendingFixtures.accessTitle(1))
            #expect(server.server.sharedStateProblem?.kind == .removed)
            #expect(watched.told.withLock { $0.map(\.kind) } == [.removed], "told once")
            // Numbered apart from the shared library's loans, which another bok goes on numbering.
            #expect(second.id.hasPrefix("L") && second.id.contains("-"), "\(second.id)")
        }
    }

    @Test("A stopped mock leaves the state in the file alone: no -wal or -shm beside it")
    func stopCloses() async throws {
        let watched = Watched()
        defer { try? FileManager.default.removeItem(at: watched.folder) }
        let server = try await MockLendingServer.start(watched.configuration, logger: TestServer.quiet)
        _ = try await TestServer(server: server, configuration: watched.configuration).lending.createLoan(
            card: "1001", pin: "1234", productID: LendingFixtures.accessTitle(0))
        // The server is still held here, as bok holds its own until it exits.
        await server.stop()
        let left = try FileManager.default.contentsOfDirectory(atPath: watched.folder.path)
        #expect(left == [watched.file.lastPathComponent], "a -wal left behind is read instead of the file: \(left)")
        #expect(server.sharedStateProblem == nil, "closing is no problem")
        #expect(watched.told.withLock { $0.isEmpty })
    }

    @Test("A damaged file: told at start, lent from privately, and rebuilt by a reset")
    func damagedThenReset() async throws {
        let watched = Watched()
        defer { try? FileManager.default.removeItem(at: watched.folder) }
        try FileManager.default.createDirectory(at: watched.folder, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8192).write(to: watched.file)
        try await TestServer.with(watched.configuration) { server in
            #expect(watched.told.withLock { $0.map(\.kind) } == [.damaged], "told at start")
            #expect(server.server.sharedStateProblem?.kind == .damaged)
            _ = try await server.lending.createLoan(
                card: "1001", pin: "1234", productID: LendingFixtures.accessTitle(0))
            #expect(server.server.library.reset() == .rebuilt)
            #expect(server.server.sharedStateProblem == nil)
        }
        // The rebuilt file holds what the next mock reads: the seed, and a loan made after the reset.
        let loan = try await TestServer.with(watched.configuration) { server in
            try await server.lending.createLoan(card: "1001", pin: "1234", productID: LendingFixtures.accessTitle(2))
        }
        let seen = try await TestServer.with(watched.configuration) { server in
            try await server.lending.loans(card: "1001", onlyActive: true).map(\.id)
        }
        #expect(seen == [loan.id])
        #expect(watched.told.withLock { $0.count } == 1)
    }
}
