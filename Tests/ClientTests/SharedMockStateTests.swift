import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The shared mock state that cannot be used (issue 27, item 5): a damaged, truncated or
/// read-only `mock-library-*.sqlite` is said in one line, `mock reset` rebuilds it, and a loan is
/// never shown as ended because the state could not be read.
@Suite("A shared mock state that cannot be used", .serialized)
struct SharedMockStateTests {
    /// A patron's home for real `bok --mock` processes. Unprivileged, when the tests run as root,
    /// runs bok as `nobody` (setpriv): root writes to a read-only file as to any other.
    struct Home {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bok-state-\(UUID().uuidString)")
        var unprivileged = false

        var stateFolder: URL { url.appendingPathComponent("state/bok") }
        var stateFile: URL { stateFolder.appendingPathComponent("mock-library-seed1-600.sqlite") }

        /// A PIN file for `card`, mode 0600.
        func pinFile(_ card: String) throws -> String {
            let file = url.appendingPathComponent("pin-\(card)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let pin = try #require(["1001": "1234", "1003": "3456"][card])
            _ = FileManager.default.createFile(
                atPath: file.path, contents: Data("\(pin)\n".utf8), attributes: [.posixPermissions: 0o600])
            try handOver()
            return file.path
        }

        /// Gives the home to the user bok runs as.
        func handOver() throws {
            guard unprivileged, getuid() == 0 else { return }
            let (status, output) = try runProgram("/bin/chown", ["-R", "65534:65534", url.path])
            try #require(status == 0, "\(output)")
        }

        /// Runs `bok ARGUMENTS` with `input` on stdin to its end.
        func run(_ arguments: [String], input: String = "") async throws -> Run {
            let (binary, prefix) =
                unprivileged && getuid() == 0
                ? ("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
                : (OneShotProcessTests.binary.path, [])
            let all = prefix + (prefix.isEmpty ? [] : [OneShotProcessTests.binary.path]) + arguments
            let environment = BokProcess.environment(home: url)
            let errors = FileManager.default.temporaryDirectory.appendingPathComponent("bok-err-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: errors) }
            return try await offPool { () throws -> Run in
                _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: binary)
                process.arguments = all
                process.environment = environment
                let stdin = Pipe()
                let stdout = Pipe()
                let stderr = try FileHandle(forWritingTo: errors)
                process.standardInput = stdin
                process.standardOutput = stdout
                process.standardError = stderr
                try process.run()
                stdin.fileHandleForWriting.write(Data(input.utf8))
                try stdin.fileHandleForWriting.close()
                let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                try stderr.close()
                let err = try String(contentsOf: errors, encoding: .utf8)
                return Run(status: process.terminationStatus, out: out, err: err)
            }
        }

        /// Writes what is not a database over the state file.
        func damage() throws {
            let garbage = Data(repeating: 0x5A, count: 8192)
            try garbage.write(to: stateFile)
        }
    }

    struct Run: CustomStringConvertible {
        let status: Int32
        let out: String
        let err: String
        /// The lines that speak of the mock's shared state.
        var stateLines: [String] {
            err.split(separator: "\n").map(String.init).filter { $0.contains("mock library's shared state") }
        }
        var description: String { "status \(status)\n--- stdout\n\(out)\n--- stderr\n\(err)" }
    }

    static let books = SharedMockTests.unlimited

    /// A loan made by one bok and the active loans a second one lists: the state is shared.
    static func expectShared(_ home: Home, book: String) async throws {
        let pin = try home.pinFile("1001")
        let borrowed = try await home.run(["--mock", "borrow", "id:\(book)", "--card", "1001", "--pin-file", pin])
        #expect(borrowed.status == 0 && borrowed.out.contains("Borrowed"), "\(borrowed)")
        #expect(borrowed.stateLines.isEmpty, "\(borrowed)")
        let listed = try await home.run(["--mock", "loans", "--card", "1001", "--pin-file", pin, "--json"])
        #expect(listed.status == 0 && listed.out.contains(book), "the next bok sees the loan: \(listed)")
        #expect(listed.stateLines.isEmpty, "\(listed)")
    }

    enum Damage: String, CaseIterable, Sendable {
        case notADatabase = "not a database"
        case halfTruncated = "cut in half"
    }

    @Test(
        "A damaged state file: one line says what is wrong and what to do, and bok lends from a private library",
        arguments: Damage.allCases)
    func damagedFile(damage: Damage) async throws {
        let home = Home()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let pin = try home.pinFile("1001")
        // A state with a loan in it, then damaged.
        let made = try await home.run(["--mock", "borrow", "id:\(Self.books[0])", "--card", "1001", "--pin-file", pin])
        try #require(made.status == 0, "\(made)")
        switch damage {
        case .notADatabase: try home.damage()
        case .halfTruncated:
            let size = try #require(
                try FileManager.default.attributesOfItem(atPath: home.stateFile.path)[.size] as? Int)
            try #require(truncate(home.stateFile.path, off_t(size / 2)) == 0)
        }

        let run = try await home.run(
            ["--mock"], input: "login --card 1001 --pin-file \(pin)\nborrow id:\(Self.books[1])\nloans\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.out.contains("Borrowed"), "bok still lends: \(run)")
        #expect(run.stateLines.count == 1, "one line, once: \(run)")
        let line = try #require(run.stateLines.first)
        #expect(line.contains(home.stateFile.path) && line.contains("damaged"), "\(line)")
        #expect(line.contains("private") && line.contains("mock reset"), "\(line)")
        #expect(!run.err.contains("SQLite") && !run.err.contains("Something went wrong"), "\(run)")
    }

    @Test("mock reset rebuilds a damaged state file, and a loan made by one bok is seen by the next")
    func resetRebuilds() async throws {
        let home = Home()
        defer { try? FileManager.default.removeItem(at: home.url) }
        _ = try await home.run(["--mock", "mock", "state"])
        try home.damage()

        let reset = try await home.run(["--mock", "mock", "reset"])
        #expect(reset.status == 0, "\(reset)")
        #expect(reset.out.contains("rebuilt"), "it says so: \(reset)")
        #expect(reset.stateLines.isEmpty, "no warning once rebuilt: \(reset)")
        try await Self.expectShared(home, book: Self.books[2])
    }

    @Test(
        "A read-only -shm left beside the state: said in one line, and mock reset rebuilds it",
        .enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func readOnlyLeftover() async throws {
        var home = Home()
        home.unprivileged = true
        defer { try? FileManager.default.removeItem(at: home.url) }
        let pin = try home.pinFile("1001")
        _ = try await home.run(["--mock", "mock", "state"])
        let shm = URL(fileURLWithPath: home.stateFile.path + "-shm")
        try Data(count: 32768).write(to: shm)
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: shm.path)
        try home.handOver()

        let run = try await home.run(["--mock", "loans", "--card", "1001", "--pin-file", pin])
        #expect(run.status == 0, "bok works: \(run)")
        #expect(run.stateLines.count == 1, "\(run)")
        let line = try #require(run.stateLines.first)
        #expect(line.contains(shm.lastPathComponent) && line.contains("read-only"), "\(line)")
        #expect(line.contains("mock reset"), "\(line)")

        let reset = try await home.run(["--mock", "mock", "reset"])
        #expect(reset.status == 0 && reset.out.contains("rebuilt"), "\(reset)")
        try await Self.expectShared(home, book: Self.books[3])
    }

    @Test(
        "A read-only state folder: mock reset says in one line why it cannot rebuild",
        .enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func readOnlyFolder() async throws {
        var home = Home()
        home.unprivileged = true
        defer {
            chmod(home.stateFolder.path, 0o700)
            try? FileManager.default.removeItem(at: home.url)
        }
        _ = try home.pinFile("1001")
        _ = try await home.run(["--mock", "mock", "state"])
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: home.stateFolder.path)

        let reset = try await home.run(["--mock", "mock", "reset"])
        #expect(reset.status == 1, "\(reset)")
        #expect(reset.stateLines.count == 1, "one line: \(reset)")
        let line = try #require(reset.stateLines.first)
        #expect(line.contains(home.stateFolder.path) && line.contains("read-only"), "\(line)")
        #expect(FileManager.default.fileExists(atPath: home.stateFile.path), "nothing removed")
    }

    @Test("A loan made before the state broke is not shown as ended afterwards")
    func loanNotEnded() async throws {
        let home = Home()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let pin = try home.pinFile("1001")
        let first = try await home.run(
            ["--mock"], input: "login --card 1001 --pin-file \(pin)\nborrow id:\(Self.books[4])\nshelf\n")
        try #require(first.status == 0 && first.out.contains("Loans (1)"), "\(first)")
        try home.damage()

        let second = try await home.run(
            ["--mock"], input: "login --card 1001 --pin-file \(pin)\nshelf --sync\nnotices\n")
        #expect(second.status == 0, "\(second)")
        #expect(second.out.contains("Loans (1)"), "the loan is still a loan: \(second)")
        #expect(!second.out.contains("Ended") && !second.out.contains("has ended"), "\(second)")
        #expect(second.stateLines.count == 1, "and bok says why the library may not know it: \(second)")
    }
}
