import Catalog
import Foundation
import Logging
import MockLending
import Speech
import Terminal
import Testing

@testable import Client

/// Several libraries as named profiles in the config file (issue 14): add, list, use, remove, at
/// the prompt and one-shot, with the built-in mock always there and secrets never shown.
@Suite("Library profiles", .serialized)
@MainActor
struct LibraryProfilesTests {
    @Test(
        "library add, list, use and remove; use switches the prompt at once; the file is 0600 and the key never shown")
    func addListUseRemove() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let url = h.server.baseURL.absoluteString
        var screen = await h.run(
            "library add branch \(url) --service-id bok-mock --service-key mock-secret --name Filialen")
        #expect(
            screen.first == "Added branch: a lending service at \(url). library use branch switches to it.", "\(screen)"
        )
        let file = try #require(h.session.paths?.configFile)
        let mode = (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?
            .intValue
        #expect(mode == 0o600)
        let list = await h.run("library list").joined(separator: "\n")
        #expect(list.contains("mock") && list.contains("branch") && list.contains("Filialen"), "\(list)")
        #expect(!list.contains("mock-secret"), "the service key was shown: \(list)")
        screen = await h.run("library use branch")
        #expect(screen.first == "Now using branch: Filialen. bok starts with it from now on.", "\(screen)")
        #expect(h.repl.session.library.identity.profileName == "branch" && h.repl.session.library.name == "Filialen")
        #expect(await h.run("top 1").first == "Top 1 by popularity")
        #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("use = branch\n"))
        #expect(await h.run("library remove mock").first?.contains("cannot be removed") == true)
        screen = await h.run("library remove branch")
        #expect(screen.first?.hasPrefix("Removed branch from ") == true, "\(screen)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("branch") && !text.contains("mock-secret"), "\(text)")
    }

    @Test("A lending service without its id and key, a bad name and a second library of one name are refused in words")
    func refusals() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let url = h.server.baseURL.absoluteString
        #expect(await h.text("library add branch \(url)").contains("needs the service id and key"))
        #expect(await h.text("library add ../x \(url)").contains("letters, digits, - and _"))
        #expect(await h.text("library add mock \(url)").contains("built-in mock library"))
        await h.run("library add branch \(url) --service-id bok-mock --service-key mock-secret")
        #expect(
            await h.text("library add branch \(url) --service-id a --service-key b").contains("called branch already"))
        #expect(await h.text("library use nosuch").contains("there is no library called nosuch"))
    }

    @Test("speech = auto|espeak|speechd is read from the top of the file; anything else is refused in one line")
    func speechSetting() throws {
        #expect(try LibraryProfiles.parse("speech = espeak\n", fileName: "config").speech == .espeak)
        #expect(try LibraryProfiles.parse("speech = SpeechD\n", fileName: "config").speech == .speechd)
        #expect(try LibraryProfiles.parse("language = sv\n", fileName: "config").speech == nil)
        let error = #expect(throws: UserError.self) { try LibraryProfiles.parse("speech = loud\n", fileName: "config") }
        #expect(error?.message.contains("speech is auto, espeak or speechd, not \"loud\"") == true)
    }

    @Test("An address that names a file or has a query is kept as typed; a folder gets its trailing slash")
    func addressesKeepTheirShape() throws {
        func parsed(_ text: String) throws -> String {
            try LibraryConfig.parseURL(text, source: "library add").absoluteString
        }
        #expect(try parsed("http://127.0.0.1:8080/opds/index.xml") == "http://127.0.0.1:8080/opds/index.xml")
        #expect(try parsed("https://example.org/catalog.php?lang=sv") == "https://example.org/catalog.php?lang=sv")
        #expect(try parsed("https://example.org/opds?lang=sv") == "https://example.org/opds?lang=sv")
        #expect(try parsed("https://example.org/library/v3.0") == "https://example.org/library/v3.0/")
        #expect(try parsed("https://example.org/opds") == "https://example.org/opds/")
        #expect(try parsed("https://example.org/opds/") == "https://example.org/opds/")
        #expect(try parsed("https://example.org") == "https://example.org/")
    }

    @Test("A config file with a service key that others can read is refused, as the credentials file is")
    func secretFileMustBePrivate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config")
        try "[library malmo]\nurl = https://elib.example.org/library/v3.0/\nservice-id = 1\nservice-key = s3cret\n"
            .write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let error = try #require(throws: UserError.self) {
            try LibraryConfig.resolve(LibraryProfiles.load(file: file), file: file, environment: [:], profile: "malmo")
        }
        #expect(
            error.message.contains("can be read by others") && error.message.contains("chmod 600"), "\(error.message)")
        #expect(!error.message.contains("s3cret"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let config = try LibraryConfig.resolve(
            LibraryProfiles.load(file: file), file: file, environment: [:], profile: "malmo")
        #expect(config.serviceKey == "s3cret" && config.profile == "malmo")
        let mock = try LibraryConfig.resolve(
            LibraryProfiles.load(file: file), file: file, environment: [:], profile: "mock")
        #expect(mock.isMock)
    }

    @Test("allow-redirects names the servers a catalogue may send bok to; a wrong one is said with its line")
    func allowRedirects() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-profiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config")
        let profile = "[library hem]\nurl = http://127.0.0.1:8080/opds\nkind = opds\n"
        try (profile + "allow-redirects = cdn.example.org, files.example.org:8443\n")
            .write(to: file, atomically: true, encoding: .utf8)
        let config = try LibraryConfig.resolve(
            LibraryProfiles.load(file: file), file: file, environment: [:], profile: "hem")
        #expect(config.redirectsAllowed == RedirectAllowance(["cdn.example.org", "files.example.org:8443"]))
        try "[library hem]\nurl = http://127.0.0.1:8080/opds\nallow-redirects = https://cdn.example.org/\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let error = try #require(throws: UserError.self) {
            try LibraryConfig.resolve(LibraryProfiles.load(file: file), file: file, environment: [:], profile: "hem")
        }
        #expect(error.message.contains("allow-redirects lists servers as host or host:port"), "\(error.message)")
        #expect(error.message.contains(":3"), "\(error.message)")
    }

    @Test("images = sixel in the config file chooses how the reader draws pictures; a wrong word is said with its line")
    func imagesSetting() throws {
        #expect(try LibraryProfiles.parse("images = sixel\n", fileName: "config").images == .forced(.sixel))
        #expect(try LibraryProfiles.parse("images = Off\n", fileName: "config").images == .forced(.off))
        #expect(try LibraryProfiles.parse("language = sv\n", fileName: "config").images == nil, "auto by default")
        let error = try #require(throws: UserError.self) {
            try LibraryProfiles.parse("\nimages = pictures\n", fileName: "config")
        }
        #expect(
            error.message == "config:2: images is auto|kitty|iterm|sixel|blocks|off, not \"pictures\".",
            "\(error.message)")
        // The message is shared with screen-reader =, whose words it names.
        let other = try #require(throws: UserError.self) {
            try LibraryProfiles.parse("screen-reader = maybe\n", fileName: "config")
        }
        #expect(other.message == "config:1: screen-reader is on|off|auto, not \"maybe\".", "\(other.message)")
    }

    @Test("bok --library NAME runs one command against that library; --library mock is the built-in one")
    func oneShotByName() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-profiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config/bok")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // A library that does not answer: naming it must reach it (and fail in words), not the mock.
        try "[library gone]\nurl = http://127.0.0.1:9/library/v3.0/\nservice-id = x\nservice-key = y\n"
            .write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: config.appendingPathComponent("config").path)
        func bok(_ arguments: [String]) async throws -> (Int32, String) {
            try await BokProcess.run(arguments, home: home)
        }
        let (gone, goneText) = try await bok(["--library", "gone", "top", "1"])
        #expect(gone != 0 && goneText.contains("127.0.0.1:9"), "\(goneText)")
        let (mock, mockText) = try await bok(["--library", "mock", "top", "1"])
        #expect(mock == 0 && mockText.contains("Top 1 by popularity"), "\(mockText)")
        let (unknown, unknownText) = try await bok(["--library", "nosuch", "top", "1"])
        #expect(unknown != 0 && unknownText.contains("there is no library called nosuch"), "\(unknownText)")
    }

    @Test(
        """
        The shelf shows the other library's loans under its name, narrows with --library, and refuses to return \
        one from here
        """
    )
    func shelfAcrossLibraries() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let branch = try await MockLendingServer.start(
            MockConfiguration(seed: 1, catalogSize: 600),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        defer { Task { await branch.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001", "1001"], secrets: ["1234", "1234"])
        await h.run("top 1")
        let first = try #require(h.session.lists.list?.byNumber[1]?.title)
        #expect(await h.run("borrow 1").first?.hasPrefix("Borrowed") == true)
        await h.run(
            """
            library add branch \(branch.baseURL.absoluteString) --service-id bok-mock --service-key mock-secret \
            --name Filialen
            """
        )
        await h.run("library use branch")
        await h.run("search thriller")
        let second = try #require(h.repl.session.lists.list?.byNumber[15]?.title)
        #expect(await h.run("borrow 15").first?.hasPrefix("Borrowed") == true)

        let shelf = await h.run("shelf")
        let name = MockLendingServer.libraryName
        let other = try #require(shelf.firstIndex { $0.hasPrefix(name) && $0.contains("another library") }, "\(shelf)")
        #expect(shelf[..<other].contains { $0.contains(second) }, "the branch's loan first: \(shelf)")
        #expect(
            shelf[other...].contains { $0.hasPrefix(" 2  ") && $0.contains(first) },
            "the first library's loan, numbered on: \(shelf)")
        #expect(await h.text("return 2").contains("is at \(name), not the library in use"))
        let narrowed = await h.run("shelf --library \"\(name)\"")
        #expect(narrowed.contains { $0.contains(first) } && !narrowed.contains { $0.contains(second) }, "\(narrowed)")
        #expect(await h.text("shelf --library nosuch").contains("No library called nosuch"))
    }

    @Test("A line break in library add's --name or --service-key is refused: it would write keys of its own")
    func controlCharactersInValues() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let url = h.server.baseURL.absoluteString
        for option in ["name", "service-key", "service-id"] {
            let value = "x\n[library evil]\nurl = http://127.0.0.9/"
            var words = ["library", "add", "branch", url, "--service-id", "bok-mock", "--service-key", "k"]
            words += ["--\(option)", value]
            let session = h.repl.session
            await #expect(throws: UserError.self) { _ = try await CommandTable().run(words, in: session) }
            let error = await h.run(
                "library add branch \(url) --service-id bok-mock --service-key k --\(option) \"a\tb\"")
            #expect(h.errors.first?.contains("must be one line of text") == true, "\(error) \(h.errors)")
        }
        let file = try #require(h.session.paths?.configFile)
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        #expect(!text.contains("evil") && !text.contains("branch"), "\(text)")
    }

    @Test("A config file that is a link stays a link when library add writes it")
    func linkedConfigStaysALink() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let file = try #require(h.session.paths?.configFile)
        let kept = file.deletingLastPathComponent().appendingPathComponent("dotfiles-config")
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "# mine\n".write(to: kept, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: kept.path)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: kept)
        let url = h.server.baseURL.absoluteString
        _ = await h.run("library add branch \(url) --service-id bok-mock --service-key mock-secret")
        #expect(h.errors.isEmpty, "\(h.errors)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == kept.path)
        let text = try String(contentsOf: kept, encoding: .utf8)
        #expect(text.hasPrefix("# mine\n") && text.contains("[library branch]"), "\(text)")
    }

    @Test("A config file that is not text, or too large, is said in one line; bok --mock starts without it")
    func unreadableConfig() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-profiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("config/bok")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("config")
        for (content, says) in [
            (Data([0x75, 0x73, 0x65, 0x00, 0xFF, 0xFE]), "is not text (UTF-8)"),
            (Data(repeating: 0x61, count: 3 << 20), "is larger than 1 MB"),
            (Data("[library\n".utf8), "expected a section"),
        ] {
            try content.write(to: config)
            // Private, as bok keeps them: only what is wrong with the file is said.
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config.path)
            for path in [home.appendingPathComponent("config").path, folder.path] {
                try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
            }
            let (status, text) = try await BokProcess.run(["top", "1"], home: home)
            #expect(status == 1 && text.contains(says), "\(text)")
            #expect(text.split(separator: "\n").count == 1, "\(text)")
            let (mock, mockText) = try await BokProcess.run(["--mock", "top", "1"], home: home)
            #expect(mock == 0 && mockText.contains("Top 1 by popularity"), "\(mockText)")
            #expect(mockText.contains(says) && mockText.contains("bok --mock starts without it"), "\(mockText)")
        }
    }
}
