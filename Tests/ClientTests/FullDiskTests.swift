import Foundation
import Testing

@testable import Client

#if canImport(Glibc)
import Glibc
#endif

/// A full disk (issue 17, item 10) on a real file system: a small tmpfs under the patron's data
/// folder, filled to the last byte. Mounting needs root, as the build machines and CI run.
@Suite("A full disk", .serialized, .enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
@MainActor
struct FullDiskTests {
    /// Mounts a 2 MB tmpfs at `folder`.
    static func mountTmpfs(at folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=2m,mode=700", "tmpfs", folder.path]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "mount -t tmpfs failed")
    }

    static func unmount(_ folder: URL) {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/bin/umount")
        umount.arguments = ["-l", folder.path]
        try? umount.run()
        umount.waitUntilExit()
    }

    /// Writes zeros into `file` until the file system has no byte left (or only `leaving` bytes).
    static func fill(_ file: URL, leaving: Int = 0) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        if leaving > 0 { ftruncate(descriptor, max(0, lseek(descriptor, 0, SEEK_END) - off_t(leaving))) }
    }

    @Test(
        """
        The shelf stays readable and says the disk is full; a loan made meanwhile is recorded by the next sync \
        once there is space
        """
    )
    func shelfOnAFullDisk() async throws {
        let h = try await Harness()
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        let data = h.dataDirectory.appendingPathComponent("data")
        try Self.mountTmpfs(at: data)
        defer { Self.unmount(data) }
        defer { Task { await h.stop() } }

        await h.run("search thriller")
        #expect(await h.run("borrow 15").first?.hasPrefix("Borrowed") == true)
        let filler = data.appendingPathComponent("filler")
        Self.fill(filler)

        // The library lends; the book cannot be kept, and bok says so in words.
        let borrowed = await h.run("borrow 17").joined(separator: "\n")
        #expect(borrowed.contains("Borrowed"), "\(borrowed)")
        #expect(borrowed.contains("disk is full"), "\(borrowed)")
        var shelf = await h.run("shelf --sync")
        var text = shelf.joined(separator: "\n")
        #expect(text.contains("The disk is full, so bok cannot save to"), "\(text)")
        #expect(shelf.contains("Loans (1)"), "the shelf as last saved: \(text)")
        #expect(!text.contains("SQLite") && !text.contains("Something went wrong"), "\(text)")

        try FileManager.default.removeItem(at: filler)
        shelf = await h.run("shelf --sync")
        text = shelf.joined(separator: "\n")
        #expect(shelf.contains("Loans (2)"), "the loan made while the disk was full: \(text)")
        #expect(!text.contains("disk is full"), "\(text)")
    }

    @Test(
        "A disk that fills while the shelf is made: the loan is made and the disk is said to be full",
        arguments: [0, 16, 48, 96, 160])
    func fullWhileMakingTheShelf(kilobytesLeft: Int) async throws {
        let h = try await Harness()
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        let data = h.dataDirectory.appendingPathComponent("data")
        try Self.mountTmpfs(at: data)
        defer { Self.unmount(data) }
        defer { Task { await h.stop() } }
        Self.fill(data.appendingPathComponent("filler"), leaving: kilobytesLeft << 10)
        await h.run("search thriller")
        let borrowed = (await h.run("borrow 17") + h.errors).joined(separator: "\n")
        #expect(borrowed.contains("Borrowed"), "\(borrowed)")
        #expect(borrowed.contains("disk is full"), "\(borrowed)")
        #expect(!borrowed.contains("is yours and writable"), "\(borrowed)")
    }

    @Test("bok started on a full disk opens the shelf as last saved and says why")
    func startOnAFullDisk() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-full-\(UUID().uuidString)")
        let data = home.appendingPathComponent("data")
        try Self.mountTmpfs(at: data)
        defer {
            Self.unmount(data)
            try? FileManager.default.removeItem(at: home)
        }
        // The data folder is the tmpfs mounted above; the rest is the home's own.
        func bok(_ input: String) async throws -> (Int32, String) {
            try await BokProcess.run(["--mock"], home: home, stdin: input, environment: ["XDG_DATA_HOME": data.path])
        }
        let pin = home.appendingPathComponent("pin")
        _ = FileManager.default.createFile(
            atPath: pin.path, contents: Data("1234\n".utf8), attributes: [.posixPermissions: 0o600])
        let login = "login --card 1001 --pin-file \(pin.path)\n"
        let (first, before) = try await bok(login + "top 3\nborrow 1\ntbr add 2\nshelf\n")
        #expect(first == 0 && before.contains("To be read (1)"), "\(before)")
        Self.fill(data.appendingPathComponent("filler"))

        let (status, text) = try await bok(login + "top 3\ntbr add 3\nshelf\n")
        #expect(status == 0, "\(text)")
        #expect(text.contains("The disk is full, so bok cannot save to"), "\(text)")
        #expect(
            text.contains("To be read (1)"), "the shelf as last saved, without the book tbr add could not save: \(text)"
        )
        #expect(text.components(separatedBy: "The disk is full").count == 3, "tbr add and shelf each say so: \(text)")
        #expect(!text.contains("SQLite") && !text.contains("Something went wrong"), "\(text)")
    }

    @Test("read --aloud refuses at once a WAV the disk has no room for, and writes nothing")
    func aloudOnASmallDisk() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bok-aloud-disk-\(UUID().uuidString)")
        let disk = folder.appendingPathComponent("disk")
        try Self.mountTmpfs(at: disk)
        defer {
            Self.unmount(disk)
            try? FileManager.default.removeItem(at: folder)
        }
        // About 1 000 words: some 7 minutes of speech, 18 MB of WAV for a 2 MB disk.
        let book = try ReadAloudTests.book(
            String(repeating: ReadAloudTests.english + " ", count: 12), language: "en", in: folder)
        let started = Date()
        let result = try await OneShotProcessTests().bok([
            "read", book.path, "--aloud", "--to", disk.appendingPathComponent("o.wav").path,
        ])
        #expect(result.status == 1 && result.stderr.contains("The WAV would take about"), "\(result.stderr)")
        #expect(result.stderr.contains("free. Free some space"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 10, "refused before speaking")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    }
}
