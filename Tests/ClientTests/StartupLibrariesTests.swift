#if os(Linux)
import Foundation
import Glibc
import Terminal
import Testing
import TestSupport

/// `bok read FILE` never touches the network, so it must not pay for it: libcurl and the 28
/// libraries it brings (GnuTLS, libcrypto, Kerberos, LDAP) took 5.5 MB and a few milliseconds
/// of every start before they were loaded at the first exchange, and the built-in mock library
/// (the library of an account with none configured) started beside the reader: 20 MB and 30 ms
/// of CPU for nothing (docs/performance.md).
@Suite(
    "What a start of the reader loads", .serialized,
    .enabled(if: access("/dev/ptmx", R_OK | W_OK) == 0, "needs /dev/ptmx"),
    .enabled(
        if: FileManager.default.fileExists(atPath: ReadCommandTests.manual),
        "needs live-manual-epub (scripts/install-test-epubs.sh)"))
struct StartupLibrariesTests {
    @Test("bok read FILE shows its first page without libcurl, URLSession, libxml2 or ICU loaded")
    func noNetworkingLibraries() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let (tty, bok) = try Self.readManual(home: home)
        defer { if bok.isRunning { kill(bok.pid, SIGKILL) } }

        // The status line ends the first frame: "… 1/12 · 0% …".
        let frame = Ansi.strip(await tty.read(until: { Ansi.strip($0).contains("%") }))
        #expect(frame.contains("%"), "no first page: \(frame)")
        // Read to its end: a file in /proc says its size is 0, and String(contentsOfFile:) believes it.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(bok.pid)/maps"))
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        #expect(maps.contains("/bok"), "not the maps of bok: \(maps.prefix(200))")
        let loaded = Set(maps.split(separator: "\n").compactMap { $0.split(separator: "/").last.map(String.init) })
        let networking = loaded.filter { $0.hasPrefix("libcurl") || $0.contains("FoundationNetworking") }
        #expect(networking.isEmpty, "loaded at start: \(networking.sorted())")
        #expect(!loaded.contains { $0.hasPrefix("libgnutls") }, "\(loaded.sorted())")
        // Nor libxml2 and the system's ICU, which Foundation's XMLParser brought for OPDS feeds.
        let xml = loaded.filter { $0.hasPrefix("libxml2") || $0.hasPrefix("libicu") || $0.contains("FoundationXML") }
        #expect(xml.isEmpty, "loaded at start: \(xml.sorted())")
        tty.type("q")
        #expect(await bok.waitForExit(seconds: 10))
        // No library is configured, so the built-in mock is the library; reading a file never
        // asked it anything, so it never started (it keeps its state in this folder when it does).
        let state = home.appendingPathComponent("state/bok")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
        #expect(!files.contains { $0.hasPrefix("mock-library") }, "the mock library started: \(files)")
    }

    @Test("A first bok read FILE makes the shelf beside its first page, and the next start opens at the same place")
    func firstStartKeepsThePlace() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        func open(_ keys: String) async throws -> String {
            let (tty, bok) = try Self.readManual(home: home)
            defer { if bok.isRunning { kill(bok.pid, SIGKILL) } }
            // The status line names the chapter: "Live Systems Manual — Table of Contents  1/15 · 0% …".
            var frame = Ansi.strip(await tty.read(until: { Ansi.strip($0).contains("%") }))
            if !keys.isEmpty {
                tty.type(keys)
                frame = Ansi.strip(await tty.read(until: { Ansi.strip($0).contains("About") }))
            }
            tty.type("q")
            #expect(await bok.waitForExit(seconds: 10))
            return frame
        }
        let first = try await open("nn")
        #expect(first.contains("About"), "two chapters on: \(first.suffix(300))")
        let shelf = home.appendingPathComponent("data/bok/shelf.sqlite")
        #expect(FileManager.default.fileExists(atPath: shelf.path), "no shelf database was made")
        let again = try await open("")
        #expect(again.contains("About"), "did not open where it was left: \(again.suffix(300))")
    }

    /// `bok read` of the Debian manual in a 100×30 pseudo-terminal, on the account in `home`.
    static func readManual(home: URL) throws -> (PseudoTerminal, ChildProcess) {
        let tty = try #require(PseudoTerminal(columns: 100, rows: 30))
        let environment = BokProcess.environment(
            home: home, ["TERM": "xterm-256color", "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no", "LANG": "C.UTF-8"])
        let bok = try #require(
            ChildProcess(
                OneShotProcessTests.binary.path, arguments: ["read", ReadCommandTests.manual],
                environment: environment, terminal: tty.device))
        return (tty, bok)
    }

    @Test("A one-shot command that asks the library starts the mock library it needs")
    func libraryCommandStartsTheMock() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let (status, output) = try await BokProcess.run(["search", "the"], home: home)
        #expect(status == 0, "\(output)")
        #expect(output.contains("hits for"), "\(output)")
        let files =
            (try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("state/bok").path)) ?? []
        #expect(files.contains { $0.hasPrefix("mock-library") }, "\(files)")
    }
}
#endif
