import Foundation
import TestSupport
import Testing

@testable import Catalog

/// KOReader names a document by a partial MD5 of its file (`util.partialMD5` in KOReader's
/// frontend/util.lua, its kosync plugin's default "binary" method). bok's must give the same id
/// for the same file, or a place left on a KOReader device is never found.
struct KOSyncDocumentIDTests {
    /// An independent reimplementation, in Python, of the published algorithm: one MD5 over
    /// 1024-byte samples at `bit.lshift(1024, 2 * i)` for i = -1…10, stopping at the first read
    /// past the end. LuaJIT's `bit.lshift` takes the shift count modulo 32 and keeps 32 bits
    /// (checked with `luajit -e 'print(bit.lshift(1024, -2))'`, which prints 0), so i = -1 reads at 0.
    static let python = """
        import hashlib, sys
        for path in sys.argv[1:]:
            md5 = hashlib.md5()
            with open(path, "rb") as f:
                for i in range(-1, 11):
                    f.seek((1024 << ((2 * i) & 31)) & 0xFFFFFFFF)
                    sample = f.read(1024)
                    if not sample:
                        break
                    md5.update(sample)
            print(md5.hexdigest())
        """

    static func pythonIDs(_ files: [URL]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", python] + files.map(\.path)
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Files of sizes around every sample offset, of bytes that differ everywhere.
    static func files(in folder: URL) throws -> [URL] {
        var generator = SystemRandomNumberGenerator()
        let sizes = [0, 1, 255, 256, 1023, 1024, 1025, 4095, 4096, 4097, 20_000, 65_536, 70_000, 300_000, 1_100_000]
        return try sizes.map { size in
            let url = folder.appendingPathComponent("book-\(size).epub")
            try Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
            return url
        }
    }

    @Test("The id of a file is the one KOReader's published algorithm gives it, at every size")
    func sameAsAnIndependentReimplementation() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kosync-md5-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.files(in: folder)
        let expected = try Self.pythonIDs(files)
        #expect(expected.count == files.count, "python3 gave \(expected)")
        for (file, id) in zip(files, expected) {
            #expect(KOSync.documentID(of: file) == id, "\(file.lastPathComponent)")
        }
    }

    @Test("Worked by hand: an empty file, and a file under 4 KB whose samples are the whole file")
    func handComputed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kosync-md5-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Nothing to read at 0: no sample, the MD5 of nothing (`md5sum /dev/null`).
        let empty = folder.appendingPathComponent("empty")
        try Data().write(to: empty)
        #expect(KOSync.documentID(of: empty) == "d41d8cd98f00b204e9800998ecf8427e")
        // "abc" alone: one sample at 0, the whole file (`printf abc | md5sum`); a first sample at
        // 256, as a reading that ignores LuaJIT's shift would take, would read nothing and differ.
        let abc = folder.appendingPathComponent("abc")
        try Data("abc".utf8).write(to: abc)
        #expect(KOSync.documentID(of: abc) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(KOSync.sampleOffsets.prefix(4) == [0, 1024, 4096, 16384])
        #expect(KOSync.sampleOffsets.last == 1 << 30)
        #expect(KOSync.documentID(of: folder.appendingPathComponent("missing")) == nil)
    }

    @Test("The key is the password's MD5, as KOReader sends it")
    func key() {
        // `printf hemligt | md5sum`
        #expect(KOSync.key(password: "hemligt") == "1a2806367d23c7884dfde273882ad6a9")
    }
}

/// A KOReader sync server that answers garbage, too much, too slowly or elsewhere gets bok's usual
/// bounds, and the key leaves only in its headers, to that server.
struct KOSyncHostileServerTests {
    static let document = "0123456789abcdef0123456789abcdef"

    func client(_ server: HostileServer, deadline: TimeInterval = 2) -> KOSync {
        KOSync(
            server: server.baseURL.appendingPathComponent("kosync"), name: "reader", user: "elsa",
            key: KOSync.key(password: "hemligt"), deadline: deadline)
    }

    @Test("Garbage, a huge answer, a slow one and a redirect away are each a failure in words, in bounds")
    func bounded() async throws {
        let garbage = try HostileServer.start { _ in HostileServer.answer(200, json: "<html>not json</html>") }
        defer { garbage.stop() }
        await #expect(throws: KOSync.Failure(kind: .strangeAnswer, server: "reader")) {
            _ = try await client(garbage).progress(of: Self.document)
        }
        let huge = try HostileServer.start { _ in
            [.send(HostileServer.head(200, [("Content-Type", "application/json")])), .stream(total: 50 << 20)]
        }
        defer { huge.stop() }
        await #expect(throws: KOSync.Failure(kind: .unreachable, server: "reader")) {
            _ = try await client(huge).progress(of: Self.document)
        }
        #expect(huge.bytesSent < 8 << 20, "read on past the bound: \(huge.bytesSent) bytes")
        let slow = try HostileServer.start { _ in [.pause(30)] }
        defer { slow.stop() }
        let started = Date()
        await #expect(throws: KOSync.Failure(kind: .unreachable, server: "reader")) {
            _ = try await client(slow, deadline: 1).progress(of: Self.document)
        }
        #expect(Date().timeIntervalSince(started) < 10)
        let away = try HostileServer.start { _ in
            [.send(HostileServer.head(302, [("Location", "http://127.0.0.2:9/kosync/users/auth")]))]
        }
        defer { away.stop() }
        await #expect(throws: KOSync.Failure(kind: .unreachable, server: "reader")) {
            try await client(away).authorize()
        }
    }

    @Test("The key goes in x-auth-key, never in the address; the password never leaves at all")
    func keyOnlyInHeaders() async throws {
        let server = try HostileServer.start { _ in HostileServer.answer(200, json: #"{"authorized":"OK"}"#) }
        defer { server.stop() }
        try await client(server).authorize()
        try await client(server).send(
            KOSyncProgress(progress: "/body/DocFragment[1].0", percentage: 0.5, device: "laptop", deviceID: "D"),
            of: Self.document)
        let requests = server.requests
        #expect(requests.map(\.path) == ["/kosync/users/auth", "/kosync/syncs/progress"])
        for request in requests {
            #expect(
                request.headers["x-auth-user"] == "elsa"
                    && request.headers["x-auth-key"] == KOSync.key(password: "hemligt"))
            #expect(request.headers["accept"] == KOSync.mediaType, "\(request.headers)")
            #expect(!request.target.contains(KOSync.key(password: "hemligt")) && !request.target.contains("hemligt"))
        }
    }
}
