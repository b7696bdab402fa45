import Foundation
import Testing

@testable import SafeOutput

/// What a person would see in the folder after bok wrote (or refused to write) a file there.
@Suite struct OutputFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ text: String, to path: String, name: String = "book.wav", replace: Bool = false) throws -> String {
        let file = try OutputFile(path: path, name: name, replace: replace)
        var text = text
        try text.withUTF8 { bytes throws in try file.append(UnsafeRawBufferPointer(bytes)) }
        try file.commit()
        return file.path
    }

    /// Names in the folder other than the ones given: what a failed or refused write left behind.
    func leftovers(besides names: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !names.contains($0) }
    }

    @Test func aNewFileAppearsWholeWithMode600() throws {
        let written = try write("hello", to: path("out.wav"))
        #expect(written == path("out.wav"))
        #expect(try String(contentsOfFile: written, encoding: .utf8) == "hello")
        let mode = try FileManager.default.attributesOfItem(atPath: written)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try leftovers(besides: ["out.wav"]).isEmpty)
    }

    @Test func aFolderKeepsEverythingAndGetsTheFileInside() throws {
        let album = path("Music/album")
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
        try "song".write(toFile: album + "/track.flac", atomically: false, encoding: .utf8)
        let written = try write("speech", to: path("Music"), name: "Röda rummet.wav")
        #expect(written == path("Music/Röda rummet.wav"))
        #expect(try String(contentsOfFile: album + "/track.flac", encoding: .utf8) == "song")
        #expect(try String(contentsOfFile: written, encoding: .utf8) == "speech")
    }

    @Test func anExistingFileIsKeptUnlessReplacingWasAskedFor() throws {
        try "mine".write(toFile: path("out.wav"), atomically: false, encoding: .utf8)
        #expect(throws: OutputFileError(.exists, path: path("out.wav"))) { try write("new", to: path("out.wav")) }
        #expect(try String(contentsOfFile: path("out.wav"), encoding: .utf8) == "mine")
        _ = try write("new", to: path("out.wav"), replace: true)
        #expect(try String(contentsOfFile: path("out.wav"), encoding: .utf8) == "new")
        #expect(try leftovers(besides: ["out.wav"]).isEmpty)
    }

    @Test func devicesPipesAndLinksAreRefusedEvenWithForce() throws {
        #expect(throws: OutputFileError(.device, path: "/dev/null")) { try write("x", to: "/dev/null", replace: true) }
        #expect(mkfifo(path("pipe"), 0o600) == 0)
        #expect(throws: OutputFileError(.fifo, path: path("pipe"))) { try write("x", to: path("pipe"), replace: true) }
        try "target".write(toFile: path("real"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path("link"), withDestinationPath: path("real"))
        #expect(throws: OutputFileError(.link, path: path("link"))) { try write("x", to: path("link"), replace: true) }
        #expect(try String(contentsOfFile: path("real"), encoding: .utf8) == "target")
        #expect(try leftovers(besides: ["pipe", "real", "link"]).isEmpty)
    }

    @Test func aMissingFolderIsSaidAndNothingIsMade() throws {
        #expect(throws: OutputFileError(.noFolder, path: path("nowhere") + "/")) {
            try write("x", to: path("nowhere/out.wav"))
        }
        #expect(try leftovers(besides: []).isEmpty)
    }

    @Test func aFileThatAppearsWhileWritingIsNotReplaced() throws {
        let file = try OutputFile(path: path("out.wav"), name: "x", replace: false)
        try "someone else's".write(toFile: path("out.wav"), atomically: false, encoding: .utf8)
        #expect(throws: OutputFileError(.exists, path: path("out.wav"))) { try file.commit() }
        #expect(try String(contentsOfFile: path("out.wav"), encoding: .utf8) == "someone else's")
        #expect(try leftovers(besides: ["out.wav"]).isEmpty)
    }

    @Test func discardingLeavesNothing() throws {
        let file = try OutputFile(path: path("out.wav"), name: "x", replace: false)
        try "half".withCString { try file.append(UnsafeRawBufferPointer(start: $0, count: 4)) }
        file.discard()
        #expect(try leftovers(besides: []).isEmpty)
    }

    @Test func aTitleBecomesOneHarmlessFileName() {
        #expect(OutputFile.fileName("../../etc/passwd.wav") == "-..-etc-passwd.wav")
        #expect(OutputFile.fileName(".hidden\u{1B}[31m.wav") == "hidden-[31m.wav")
        #expect(OutputFile.fileName(String(repeating: "å", count: 300) + ".wav").utf8.count <= 200)
        #expect(OutputFile.fileName(String(repeating: "å", count: 300) + ".wav").hasSuffix(".wav"))
    }
}
