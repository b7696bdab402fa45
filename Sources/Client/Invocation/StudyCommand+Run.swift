import ArgumentParser
import Catalog
import Foundation
import Localization
import Logging
import Terminal

extension StudyCommand {
    /// `bok study run FILE --participant P7 [--out DIR]`.
    struct Run: ParsableCommand, Invocation {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: tr(
                    "Sit a participant down to a study's tasks on its library, recorded in DIR/P.jsonl, "
                        + "then ask the System Usability Scale."),
                usage: "bok study run FILE --participant P [--out DIR] [--library NAME|URL] [--kind elib|opds]",
                discussion: tr(
                    "Each task's instruction is shown before it; the participant types done (or give up) to end it, "
                        + "and bok checks the task's success condition. PINs are recorded as ••••. "
                        + "The study's mock library unless --library names another; --kind opds talks to the mock's "
                        + "OPDS face, or says what --library speaks. bok study note and bok study watch reach the "
                        + "sitting from another terminal."))
        }
        @ParentCommand var bok: BokCommand
        @Argument(
            help: ArgumentHelp(tr("A study file (docs/studies.md)."), valueName: "FILE"),
            completion: .file(extensions: ["study"]))
        var file: String
        @Option(help: ArgumentHelp(tr("Who sits the study, e.g. P7: the recording's name."), valueName: "P"))
        var participant: String
        @Option(
            help: ArgumentHelp(tr("The folder the recording goes in (made if need be)."), valueName: "DIR"),
            completion: .directory)
        var out = "."
        @Option(help: GlobalFlags.libraryHelp) var library: String?
        @Option(help: GlobalFlags.kindHelp) var kind: LibraryConfig.Kind?

        @MainActor
        func execute(environment: [String: String], printer: any Printer) async -> Int32 {
            do {
                guard participant.wholeMatch(of: /[A-Za-z0-9_-]{1,40}/) != nil else {
                    throw UserError.usage(
                        tr("--participant takes letters, digits, - and _ (it names the recording), e.g. P7."))
                }
                let study: Study
                do {
                    study = try StudyParser.parse(file: file)
                } catch let error as ScenarioParseError {
                    for line in error.lines { printer.err(line) }
                    return 2
                }
                // As everywhere in bok: before the command (bok --kind opds study run …) or after it.
                var options = GlobalOptions([bok.global])
                if let library {
                    options.libraryURL = library.contains("://") ? library : nil
                    options.libraryName = library.contains("://") ? nil : library
                }
                options.kind = kind ?? options.kind
                return try await StudyCommand.run(
                    study, participant: participant, out: out, library: options, environment: environment,
                    printer: printer)
            } catch {
                return ErrorReport.report(error, printer: printer)
            }
        }
    }

    /// The sitting, in the study's language, on a fresh mock with the study's setup (over its OPDS
    /// face with `--kind opds`), or on the library `--library` names, with a fresh patron state.
    @MainActor
    static func run(
        _ study: Study, participant: String, out: String, library: GlobalOptions = GlobalOptions(),
        environment: [String: String], printer: any Printer, source given: (any LineSource)? = nil,
        clock: @escaping () -> Date = Date.init
    ) async throws -> Int32 {
        try FileManager.default.createDirectory(
            atPath: out, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = (out as NSString).appendingPathComponent(participant + ".jsonl")
        let before = Localization.language
        Localization.use(study.setup.language, environment: environment)
        defer { Localization.use(before, environment: environment) }
        let recorder = try SessionRecorder(file: path, forwardingTo: printer, clock: clock)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-study-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        var opener = ScenarioRunner(environment: environment)
        let terminal = isatty(0) == 1 && given == nil
        opener.caps = TerminalCapabilities.detect(environment: environment, isTTY: isatty(1) == 1)
        opener.protocolKind = library.kind
        let session =
            if library.libraryURL != nil || (library.libraryName.map { $0 != "mock" } ?? false) {
                try await openLibrary(
                    library, setup: study.setup, home: home, caps: opener.caps, environment: environment)
            } else {
                try await opener.openSession(study.setup, home: home)
            }
        let pin = try StudyPatronPrompt.pin(
            study.setup.pin, card: study.setup.card, studyFile: study.file, environment: environment)
        let source: any LineSource
        var inner: (any PatronPrompt)?
        if let given {
            source = given
        } else if terminal {
            let readline = ReadlineSource(historyFile: nil) { line, word in
                MainActor.assumeIsolated { CommandTable().completions(line: line, word: word, session: session) }
            }
            inner = TerminalPatronPrompt(editor: readline.editor)
            source = readline
        } else {
            source = StdinSource()
        }
        session.account.prompt = StudyPatronPrompt(card: study.setup.card, pin: pin, inner: inner)
        // Typed at the prompt by mistake before any command asked for it, the study's PIN is masked too.
        recorder.knownSecrets.add(pin)
        // A sitting at a terminal or on a pipe, not a test's: notes and watchers reach it over the socket.
        let live =
            given == nil
            ? openLive(study, participant: participant, recorder: recorder, environment: environment, printer: printer)
            : nil
        defer { live?.stop() }
        let runner = StudyRunner(study: study, participant: participant, clock: clock)
        _ = await runner.run(session: session, source: source, printer: printer, recorder: recorder)
        await session.library.mock?.stop()
        printer.out("")
        printer.out(
            tr(
                "Recorded in {file}. bok study report {folder} sums up every participant.",
                ["file": path, "folder": out]))
        return 0
    }

    /// The socket `bok study note` and `bok study watch` reach this sitting at; nil, said in a
    /// line, when it cannot be had (the sitting goes on without).
    @MainActor
    static func openLive(
        _ study: Study, participant: String, recorder: SessionRecorder, environment: [String: String],
        printer: any Printer
    ) -> StudyLiveServer? {
        do {
            guard let folder = try StudyRendezvous.folder(environment: environment, create: true) else { return nil }
            let server = try StudyLiveServer(
                path: StudyRendezvous.socket(in: folder), participant: participant, study: study.name,
                sink: recorder.sink, secrets: recorder.knownSecrets, clock: { Date() })
            server.start()
            return server
        } catch {
            printer.err(ErrorReport.message(for: error))
            return nil
        }
    }

    /// A session on the library of `options` (not the mock): the library as the config file and the
    /// options give it, the patron state fresh under `home`, so no card or PIN of the moderator's is
    /// at hand for the participant.
    @MainActor
    static func openLibrary(
        _ options: GlobalOptions, setup: Scenario.Setup, home: URL, caps: TerminalCapabilities,
        environment: [String: String]
    ) async throws -> Session {
        let profiles = Result { try LibraryProfiles.load(file: Paths(environment: environment).configFile) }
        var fresh = environment
        fresh["HOME"] = home.path
        for (variable, folder) in [
            ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
            ("XDG_STATE_HOME", "state"),
        ] {
            let directory = home.appendingPathComponent(folder)
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            fresh[variable] = directory.path
        }
        let logger = Logger(label: "bok.study") { _ in SwiftLogNoOpLogHandler() }
        let startup = try await Startup.connect(
            options: options, environment: fresh, profiles: profiles, theme: Theme(caps: caps, width: setup.width),
            logger: logger)
        startup.session.startSyncInBackground()
        return startup.session
    }
}
