import Foundation
import TestSupport
import Testing

private let soxInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/soxi")

/// `bok read FILE --aloud --to out.wav`, run as a tester would: the file is a WAV that sox accepts,
/// as long as the words take at the chosen rate, not silent, in the voice of the book's language.
@Suite("Reading aloud into a file", .serialized, .enabled(if: soxInstalled, "needs sox (soxi)"))
struct ReadAloudTests {
    static let swedish = """
        Det var en kall morgon i januari när Elsa gick ner till sjön. Isen låg tjock och grå över viken, \
        och längst bort syntes stugan där hennes morfar en gång hade bott. Hon stannade vid bryggan och lyssnade. \
        Någonstans ute på isen ropade en kråka, och sedan blev det tyst igen. Hon tänkte på breven i lådan hemma, \
        på det han hade skrivit om vintern det året, och på allt som ingen längre kunde fråga honom om.
        """
    static let english = """
        It was a cold morning in January when Elsa walked down to the lake. The ice lay thick and grey over the bay, \
        and far away stood the cabin where her grandfather had once lived. She stopped by the jetty and listened. \
        Somewhere out on the ice a crow called, and then it was quiet again. She thought of the letters in the drawer \
        at home, of what he had written about that winter, and of everything no one could ask him any more.
        """

    /// A one-chapter EPUB 3 in `language`, written with Python's zipfile (the test needs no other book code).
    static func book(_ text: String, language: String, chapterLanguage: String? = nil, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("book-\(language).epub")
        let script = """
            import sys, zipfile
            path, lang, chapter_lang, text = sys.argv[1], sys.argv[2], sys.argv[3], sys.stdin.read()
            html_lang = f' xml:lang="{chapter_lang}"' if chapter_lang else ""
            with zipfile.ZipFile(path, "w") as z:
                z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
                z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" \
            xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="c.opf" \
            media-type="application/oebps-package+xml"/></rootfiles></container>')
                z.writestr("c.opf", f'<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" \
            unique-identifier="i"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier \
            id="i">urn:uuid:1</dc:identifier><dc:title>Vinter</dc:title><dc:language>{lang}</dc:language></metadata>\
            <manifest><item id="n" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c" \
            href="c.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref \
            idref="c"/></spine></package>')
                z.writestr("nav.xhtml", '<html xmlns="http://www.w3.org/1999/xhtml" \
            xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol><li><a \
            href="c.xhtml">1</a></li></ol></nav></body></html>')
                z.writestr("c.xhtml", f'<html \
            xmlns="http://www.w3.org/1999/xhtml"{html_lang}><body><p>{text}</p></body></html>')
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url.path, language, chapterLanguage ?? ""]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return url
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> String { try runProgram(tool, arguments).output }

    @Test(
        "A Swedish and an English chapter become plausible, audible WAV files in their own voices",
        arguments: [
            (swedish, "sv", "sv"), (english, "en", "en"),
        ])
    func speaksAChapter(text: String, language: String, voice: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-aloud-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Self.book(text, language: language, in: folder)
        let wav = folder.appendingPathComponent("out.wav")
        let rate = 150
        let result = try await OneShotProcessTests().bok([
            "read", book.path, "--aloud", "--to", wav.path, "--rate", String(rate),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("voice \(voice) at \(rate) words a minute"), "\(result.stdout)")

        // sox reads it as 16-bit mono PCM.
        let info = try Self.run("/usr/bin/soxi", [wav.path])
        #expect(info.contains("Channels       : 1") && info.contains("16-bit"), "\(info)")
        let seconds = try #require(
            Double(try Self.run("/usr/bin/soxi", ["-D", wav.path]).trimmingCharacters(in: .whitespacesAndNewlines)))
        let words = Double(text.split(whereSeparator: \.isWhitespace).count)
        let expected = words / Double(rate) * 60
        #expect(
            abs(seconds - expected) / expected < 0.3,
            "\(seconds) s for \(Int(words)) words at \(rate) wpm (expected \(expected) s)")
        // Not silent: sox's RMS amplitude of real speech is well above zero.
        let stat = try Self.run("/usr/bin/sox", [wav.path, "-n", "stat"])
        let rmsLine = try #require(stat.split(separator: "\n").first { $0.hasPrefix("RMS     amplitude") })
        let rms = try #require(Double(rmsLine.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)))
        #expect(rms > 0.02, "\(stat)")
        #expect(!FileManager.default.fileExists(atPath: wav.path + ".part"))
    }

    @Test("A chapter whose xml:lang differs from the book's is read in its own language's voice")
    func chapterLanguage() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-aloud-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Self.book(Self.swedish, language: "en", chapterLanguage: "sv", in: folder)
        let result = try await OneShotProcessTests().bok([
            "read", book.path, "--aloud", "--to", folder.appendingPathComponent("o.wav").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("voice sv at"), "\(result.stdout)")
    }

    @Test("A passage marked as English inside a Swedish chapter is read in the English voice, the rest in Swedish")
    func passageLanguage() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-aloud-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text =
            "Elsa läste brevet högt för sig själv. <q xml:lang=\"en\">The ice lay thick and grey over the bay.</q> "
            + "Sedan blev det tyst igen."
        let book = try Self.book(text, language: "sv", in: folder)
        let result = try await OneShotProcessTests().bok([
            "read", book.path, "--aloud", "--to", folder.appendingPathComponent("o.wav").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("voices sv and en at"), "\(result.stdout)")
    }

    @Test("A passage in Chinese inside an English book is read, with --voice en too, by the voice that speaks it")
    func chinesePassage() async throws {
        let (folder, book) = try Self.folderWithBook(
            "It was cold. <span xml:lang=\"zh\">你好，世界。</span> Then it was quiet.")
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("o.wav").path
        let result = try await OneShotProcessTests().bok(["read", book.path, "--aloud", "--to", wav, "--voice", "en"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("voices en and zh at"), "\(result.stdout)")
    }

    @Test("A wrong rate or chapter is refused before anything is written")
    func badOptions() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-aloud-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Self.book(Self.english, language: "en", in: folder)
        let wav = folder.appendingPathComponent("out.wav").path
        let fast = try await OneShotProcessTests().bok(["read", book.path, "--aloud", "--to", wav, "--rate", "900"])
        #expect(fast.status == 2 && fast.stderr.contains("--rate takes a number from 80 to 450"), "\(fast.stderr)")
        let chapter = try await OneShotProcessTests().bok(["read", book.path, "--aloud", "--to", wav, "--from", "7"])
        #expect(chapter.status == 2 && chapter.stderr.contains("one entry"), "\(chapter.stderr)")
        let noVoice = try await OneShotProcessTests().bok([
            "read", book.path, "--aloud", "--to", wav, "--voice", "xx-nope",
        ])
        #expect(noVoice.status == 2 && noVoice.stderr.contains("no eSpeak NG voice xx-nope"), "\(noVoice.stderr)")
        #expect(!FileManager.default.fileExists(atPath: wav) && !FileManager.default.fileExists(atPath: wav + ".part"))
    }

    @Test("A book with no words says so, and writes no WAV (no list of voices with none in it)")
    func noWords() async throws {
        let (folder, book) = try Self.folderWithBook(" ")
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("o.wav").path
        let result = try await OneShotProcessTests().bok(["read", book.path, "--aloud", "--to", wav])
        #expect(result.status != 0)
        #expect(
            result.stderr.contains("The book has no words to read aloud, so nothing was written."), "\(result.stderr)")
        #expect(!result.stdout.contains("voices"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: wav) && !FileManager.default.fileExists(atPath: wav + ".part"))
    }

    @Test("A picture's description is read aloud where the picture stands")
    func pictureDescription() async throws {
        let (folder, book) = try Self.folderWithBook(
            #"</p><img src="a.png" alt="A map of the bay, the jetty and the islands far beyond them."/><p>"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("o.wav").path
        let result = try await OneShotProcessTests().bok(["read", book.path, "--aloud", "--to", wav])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("voice en at"), "\(result.stdout)")
        let seconds = try #require(
            Double(try Self.run("/usr/bin/soxi", ["-D", wav]).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(seconds > 2, "\"Image: A map of the bay…\" takes a few seconds to say")
    }

    /// A folder for one test, with an English book in it.
    static func folderWithBook(_ text: String = english) throws -> (folder: URL, book: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-aloud-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, try book(text, language: "en", in: folder))
    }

    @Test("--to a folder keeps everything in it and writes TITLE.wav inside")
    func toAFolder() async throws {
        let (folder, book) = try Self.folderWithBook()
        defer { try? FileManager.default.removeItem(at: folder) }
        let music = folder.appendingPathComponent("Music")
        try FileManager.default.createDirectory(
            at: music.appendingPathComponent("album"), withIntermediateDirectories: true)
        try "song".write(to: music.appendingPathComponent("album/track.flac"), atomically: false, encoding: .utf8)
        let result = try await OneShotProcessTests().bok(["read", book.path, "--aloud", "--to", music.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try String(contentsOf: music.appendingPathComponent("album/track.flac"), encoding: .utf8) == "song")
        let wav = music.appendingPathComponent("Vinter.wav")
        #expect(result.stdout.contains("Wrote \(wav.path)"), "\(result.stdout)")
        #expect(try Self.run("/usr/bin/soxi", [wav.path]).contains("16-bit"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: music.path).sorted() == ["Vinter.wav", "album"])
    }

    @Test("An existing file is replaced only with --force; a pipe or a device never")
    func existingFiles() async throws {
        let (folder, book) = try Self.folderWithBook()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("out.wav")
        try "mine".write(to: wav, atomically: false, encoding: .utf8)
        let kept = try await OneShotProcessTests().bok(["read", book.path, "--aloud", "--to", wav.path])
        #expect(kept.status == 1 && kept.stderr.contains("already exists. Add --force"), "\(kept.stderr)")
        #expect(kept.stderr.split(separator: "\n").count == 1)
        #expect(try String(contentsOf: wav, encoding: .utf8) == "mine")
        let replaced = try await OneShotProcessTests().bok([
            "read", book.path, "--aloud", "--to", wav.path, "--force",
        ])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try Self.run("/usr/bin/soxi", [wav.path]).contains("16-bit"))

        let pipe = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let toPipe = try await OneShotProcessTests().bok(["read", book.path, "--aloud", "--to", pipe, "--force"])
        #expect(toPipe.status == 1 && toPipe.stderr.contains("is a named pipe"), "\(toPipe.stderr)")
        let toDevice = try await OneShotProcessTests().bok([
            "read", book.path, "--aloud", "--to", "/dev/full", "--force",
        ])
        #expect(toDevice.status == 1 && toDevice.stderr.contains("is a device"), "\(toDevice.stderr)")
        var info = stat()
        #expect(lstat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/full is still a device")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == ["book-en.epub", "out.wav", "pipe"])
    }

    @Test("SIGTERM while speaking leaves no file behind")
    func terminated() async throws {
        let (folder, book) = try Self.folderWithBook(String(repeating: Self.english + " ", count: 200))
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("out.wav")
        // posix_spawn with no signal blocked: Foundation's Process passes on the test runner's mask.
        let null = open("/dev/null", O_RDWR)
        defer { close(null) }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.path + "/home"
        let child = try #require(
            ChildProcess(
                OneShotProcessTests.binary.path, arguments: ["read", book.path, "--aloud", "--to", wav.path],
                environment: environment, terminal: null))
        // Wait until speech is being written (the temporary file beside the target grows).
        var writing = false
        for _ in 0..<2000 where !writing {
            try await Task.sleep(for: .milliseconds(5))
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            writing = names.contains { $0.hasPrefix(".out.wav.bok-") }
        }
        #expect(writing, "bok never started writing")
        kill(child.pid, SIGTERM)
        #expect(await child.waitForExit(seconds: 10))
        #expect(child.signal == SIGTERM)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "home" }
        #expect(left == ["book-en.epub"], "\(left)")
    }
}
