import Foundation
import TestSupport
import Testing

/// bok's files are its patron's alone (issue 17, items 11–13): folders 0700 and files 0600 even
/// under `umask 000`, older open ones tightened once with a line that says so, the remembered PIN
/// written private from the start, and a PIN file read as `--pin-stdin` reads (no CR) and judged by
/// the file a link points to. Tested on the real binary.
@Suite("bok's files are private", .serialized)
struct FilePrivacyTests {
    struct Run {
        let status: Int32
        let stderr: String
    }

    /// Runs bok under `umask 000` (the worst a patron's shell could have) with its XDG folders under `home`.
    func bok(_ arguments: [String], home: URL, input: String? = nil) async throws -> Run {
        let binary = PINSafetyTests.binary
        return try await offPool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask 000; exec \"$0\" \"$@\"", binary.path] + arguments
            process.environment = [
                "HOME": home.path, "PATH": "/usr/bin:/bin",
                "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                "XDG_STATE_HOME": home.appendingPathComponent("state").path,
                "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
            ]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            let stdin = Pipe()
            process.standardInput = stdin
            try process.run()
            if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
            try stdin.fileHandleForWriting.close()
            let data = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(status: process.terminationStatus, stderr: String(decoding: data, as: UTF8.self))
        }
    }

    func mode(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? Int
    }

    /// Every file and folder under `root` whose mode lets group or others in.
    func openEntries(under root: URL) -> [String] {
        var found: [String] = []
        if let mode = mode(root), mode & 0o077 != 0 { found.append("\(root.path) \(String(mode, radix: 8))") }
        let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = walk?.nextObject() as? URL {
            if let mode = mode(url), mode & 0o077 != 0 { found.append("\(url.path) \(String(mode, radix: 8))") }
        }
        return found
    }

    @Test("bok leaves nothing in the XDG folders but its own bok folder (no stray URL cache or build-named folder)")
    func noStrayFolders() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try await bok(["--mock"], home: home, input: "top 3\nsample 1\nmock clock +1d\nmock state\nshelf\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("data/bok/shelf.sqlite").path))
        for folder in ["config", "data", "state", "cache"] {
            let entries =
                (try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent(folder).path)) ?? []
            #expect(entries.allSatisfy { $0 == "bok" }, "\(folder): \(entries)")
        }
    }

    @Test("Item 11: under umask 000, the shelf, its folders and a remembered PIN are created private")
    func createdPrivate() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let pinFile = home.appendingPathComponent("pin")
        try "1234\n".write(to: pinFile, atomically: true, encoding: .utf8)
        chmod(pinFile.path, 0o600)
        let login = try await bok(
            ["--mock", "login", "--remember", "--card", "1001", "--pin-file", pinFile.path], home: home)
        #expect(login.status == 0, "\(login.stderr)")
        // A REPL fed by a pipe: two samples downloaded, the shelf shown.
        let shelf = try await bok(["--mock"], home: home, input: "top 5\nsample 1\nsample 2\nshelf\n")
        #expect(shelf.status == 0, "\(shelf.stderr)")
        let books = try FileManager.default.contentsOfDirectory(
            atPath: home.appendingPathComponent("data/bok/books").path)
        #expect(books.filter { $0.hasSuffix(".epub") }.count == 2, "\(books)")
        let data = home.appendingPathComponent("data/bok")
        let config = home.appendingPathComponent("config/bok")
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("shelf.sqlite").path))
        #expect(mode(config.appendingPathComponent("credentials")) == 0o600)
        #expect(openEntries(under: data).isEmpty, "\(openEntries(under: data))")
        #expect(openEntries(under: config).isEmpty, "\(openEntries(under: config))")
        // Item 12: no temporary left behind by the atomic write.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: config.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
        #expect(
            !login.stderr.contains("private") && !shelf.stderr.contains("private"), "\(login.stderr) \(shelf.stderr)")
    }

    @Test("Item 11: folders and files an older bok left open are tightened at start, said once")
    func tightenedOnce() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let data = home.appendingPathComponent("data/bok")
        let state = home.appendingPathComponent("state/bok")
        let books = data.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data("PK".utf8).write(to: books.appendingPathComponent("1.epub"))
        for (path, mode) in [
            (data, 0o755), (books, 0o755), (state, 0o755), (books.appendingPathComponent("1.epub"), 0o644),
        ] {
            chmod(path.path, mode_t(mode))
        }
        let first = try await bok(["--mock", "library"], home: home)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stderr
                == """
                bok: made 4 of its files and folders private (readable by you only): they hold your card number \
                and reading history, and others could read them. Nothing else changed.\n
                """,
            "\(first.stderr)")
        #expect(openEntries(under: data).isEmpty && openEntries(under: state).isEmpty)
        #expect(mode(books.appendingPathComponent("1.epub")) == 0o600 && mode(books) == 0o700)
        let second = try await bok(["--mock", "library"], home: home)
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second.stderr)")
    }

    @Test("A file whose name is not UTF-8 is tightened too, and a link in bok's folders is left as it is")
    func oddNamesAreTightened() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let books = home.appendingPathComponent("data/bok/books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        // "bok\xFF.epub": a name in Latin-1 from an older system, which no String holds as it is.
        let odd = Array(books.path.utf8) + Array("/bok".utf8) + [0xFF] + Array(".epub".utf8)
        let descriptor = (odd.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
            open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644)
        }
        #expect(descriptor >= 0)
        close(descriptor)
        let outside = home.appendingPathComponent("outside.txt")
        try Data("x".utf8).write(to: outside)
        chmod(outside.path, 0o644)
        try FileManager.default.createSymbolicLink(
            at: books.appendingPathComponent("link"), withDestinationURL: outside)
        let run = try await bok(["--mock", "library"], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(mode(books) == 0o700)
        var info = stat()
        #expect(
            (odd.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { lstat($0.baseAddress!, &info) } == 0)
        #expect(info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
        #expect(mode(outside) == 0o644, "the link's target is not bok's to change")
    }

    @Test("Item 13: a PIN file ending in CRLF sends no CR; a linked PIN file is judged by its target, in words")
    func pinFiles() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let crlf = home.appendingPathComponent("pin-crlf")
        try Data("1234 \r\n".utf8).write(to: crlf)
        chmod(crlf.path, 0o600)
        let windows = try await bok(["--mock", "whoami", "--card", "1001", "--pin-file", crlf.path], home: home)
        #expect(windows.status == 0, "\(windows.stderr)")

        let target = home.appendingPathComponent("pin-target")
        let link = home.appendingPathComponent("pin-link")
        try Data("1234\n".utf8).write(to: target)
        chmod(target.path, 0o600)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let linked = try await bok(["--mock", "whoami", "--card", "1001", "--pin-file", link.path], home: home)
        #expect(linked.status == 0, "\(linked.stderr)")

        chmod(target.path, 0o640)
        let open = try await bok(["--mock", "whoami", "--card", "1001", "--pin-file", link.path], home: home)
        #expect(open.status == 1)
        #expect(
            open.stderr
                == """
                bok: The PIN file \(link.path) (a link to \(target.path)) can be read by others (its group may; \
                mode 640); bok will not use it. Run: chmod 600 \(target.path)\n
                """,
            "\(open.stderr)")
    }
}
