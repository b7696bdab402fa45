import Foundation
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
            process.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                   "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                                   "XDG_STATE_HOME": home.appendingPathComponent("state").path]
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

    func temporaryHome() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-privacy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
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

        let target = home.appendingPathComponent("pin-target"), link = home.appendingPathComponent("pin-link")
        try Data("1234\n".utf8).write(to: target)
        chmod(target.path, 0o600)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let linked = try await bok(["--mock", "whoami", "--card", "1001", "--pin-file", link.path], home: home)
        #expect(linked.status == 0, "\(linked.stderr)")

        chmod(target.path, 0o640)
        let open = try await bok(["--mock", "whoami", "--card", "1001", "--pin-file", link.path], home: home)
        #expect(open.status == 1)
        #expect(open.stderr == "bok: The PIN file \(link.path) (a link to \(target.path)) can be read by others (its group may; mode 640); bok will not use it. Run: chmod 600 \(target.path)\n", "\(open.stderr)")
    }
}
