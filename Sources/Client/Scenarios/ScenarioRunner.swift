import Catalog
import Foundation
import Localization
import Logging
import MockLending
import Terminal

/// Runs scenarios the way a patron would use bok: each file on a fresh mock library, with a fresh
/// patron state (its own temporary XDG directories), each step typed into the same REPL and
/// command table as at the prompt, with a terminal's rendering, colour removed for matching.
@MainActor
struct ScenarioRunner {
    /// The environment `pin: env NAME` reads (the runner's own, not the patron's fresh one).
    var environment: [String: String]
    /// The terminal the steps are rendered for; colour is removed before matching. Pictures are
    /// never drawn in a graphics protocol in a scenario run.
    var caps: TerminalCapabilities = {
        var caps = TerminalCapabilities(isTTY: true, colorDepth: .ansi256, unicode: true)
        caps.images = .forced(.blocks)
        return caps
    }()
    /// Where the temporary patron directories go.
    var temporaryDirectory = FileManager.default.temporaryDirectory
    /// The protocol every file runs over (`scenario run --protocol opds`), whatever its own `protocol:` says.
    var protocolKind: LibraryConfig.Kind?
    /// Files the tester named for secrets (`scenario run --pin-file F`): besides the files beside a
    /// scenario, the only ones its `pin: file` may read (see ``ScenarioConfinement``).
    var pinFiles: [String] = []
    /// Every file against a mock with none of bok's extensions (`scenario run --plain-elib`): only
    /// the calls a plain Elib lending service answers.
    var plainElib = false

    /// Runs one scenario. Never throws: whatever goes wrong is in the result.
    func run(_ scenario: Scenario) async -> ScenarioResult {
        let started = ContinuousClock.now
        var result = ScenarioResult(file: scenario.file, name: scenario.name)
        result.language = scenario.setup.language
        let home = temporaryDirectory.appendingPathComponent("bok-scenario-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        // The file says its language; the one in use before comes back after it.
        let before = Localization.language
        Localization.use(scenario.setup.language, environment: environment)
        defer { Localization.use(before, environment: environment) }
        do {
            let session = try await openSession(scenario.setup, home: home)
            let output = home.appendingPathComponent("output")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            session.confinement = ScenarioConfinement(
                scenarioFile: scenario.file, namedFiles: pinFiles, outputFolder: output.path)
            var run = SessionRun(scenario: scenario, session: session, environment: environment)
            // A setup PIN that cannot be found stops the file before it starts, rather than at
            // whichever step first asks for it.
            _ = try run.pin(scenario.setup.pin.map { ($0, scenario.setup.pinLine) }, card: scenario.setup.card)
            for task in scenario.tasks { result.tasks.append(await run.perform(task)) }
            // Wait for the port to close, so a run of many files does not pile up servers.
            await session.library.mock?.stop()
        } catch let error as ScenarioSetupError {
            result.setupError = error.message
        } catch {
            result.setupError = tr(
                "The mock library could not start: {reason}", ["reason": ErrorReport.message(for: error)])
        }
        result.seconds = Self.seconds(started.duration(to: .now))
        return result
    }

    /// A session as `bok --mock` builds it, on a stopped clock at the scenario's date, with an
    /// environment whose XDG directories are new and empty.
    func openSession(_ setup: Scenario.Setup, home: URL) async throws -> Session {
        var environment = ["HOME": home.path]
        for (variable, folder) in [
            ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
        ] {
            let directory = home.appendingPathComponent(folder)
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            environment[variable] = directory.path
        }
        var options = GlobalOptions()
        options.mock = true
        options.seed = setup.seed
        options.catalogSize = setup.catalogSize
        options.mockClockStart = setup.date.date(in: MockRules.stockholm)
        options.mockClockRuns = false
        options.mockPace = setup.pace
        options.kind = protocolKind ?? setup.protocolKind
        if plainElib {
            // A plain Elib lending service: its API without bok's extensions (the OPDS face is one).
            options.mockDialect = .upstreamOnly
            options.kind = .elib
        }
        let logger = Logger(label: "bok.scenario") { _ in SwiftLogNoOpLogHandler() }
        let startup = try await Startup.connect(
            options: options, environment: environment,
            theme: Theme(caps: caps, width: setup.width), logger: logger)
        let session = startup.session
        if let now = try await session.library.mock?.now() { session.library.clock.follow(now) }
        // As at the prompt (a fresh patron state has no card yet, so this syncs nothing until one is given).
        session.startSyncInBackground()
        return session
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}

// Not patron-facing: the runner puts its message in the scenario's result.
/// Why a scenario could not start.
struct ScenarioSetupError: Error {
    let message: String
}

/// One scenario's session while its tasks run.
@MainActor
private struct SessionRun {
    let scenario: Scenario
    let session: Session
    let environment: [String: String]
    let printer = CapturingPrinter()
    let answers = ScriptedPatronPrompt()
    let prompt: TranscribingPatronPrompt
    let repl: REPL
    /// Every PIN used so far, to keep them out of screens and reports.
    var redactor = PINRedactor()
    /// Set once a step has typed quit.
    var quitAt: Int?

    init(scenario: Scenario, session: Session, environment: [String: String]) {
        self.scenario = scenario
        self.session = session
        self.environment = environment
        prompt = TranscribingPatronPrompt(answers)
        session.account.prompt = prompt
        repl = REPL(session: session, printer: printer)
    }

    mutating func perform(_ task: Scenario.TaskPlan) async -> TaskResult {
        let started = ContinuousClock.now
        var result = TaskResult(title: task.title, line: task.line, passed: true, seconds: 0, steps: [], notRun: [])
        for (index, step) in task.steps.enumerated() {
            let stepResult = await perform(step)
            result.steps.append(stepResult)
            if !stepResult.failures.isEmpty {
                result.passed = false
                result.notRun = task.steps[(index + 1)...].map { "> \($0.command)" }
                break
            }
        }
        result.seconds = ScenarioRunner.seconds(started.duration(to: .now))
        return result
    }

    mutating func perform(_ step: Scenario.Step) async -> StepResult {
        let started = ContinuousClock.now
        var result = StepResult(
            line: step.line, command: step.command, screen: [], errors: [], seconds: 0, failures: [])
        if let quitAt {
            result.failures = [
                ExpectationFailure(
                    line: step.line, expected: "> \(step.command)",
                    message: tr(
                        "bok has already quit (quit on line {line}); no step after it can run.", ["line": quitAt]))
            ]
            return result
        }
        let card = step.card ?? scenario.setup.card
        do {
            answers.answers = card.map { [$0] } ?? []
            // A secret answers only the library the run started with (a step cannot switch, and if it could,
            // the answer would not follow it).
            answers.secrets =
                repl.session !== session
                ? []
                : try pin(
                    step.pin.map { ($0, step.pinLine) } ?? scenario.setup.pin.map { ($0, scenario.setup.pinLine) },
                    card: card
                ).map { [$0] } ?? []
        } catch let error as ScenarioSetupError {
            result.failures = [
                ExpectationFailure(
                    line: step.pinLine ?? scenario.setup.pinLine ?? step.line, expected: "pin:",
                    message: error.message)
            ]
            return result
        } catch {
            result.failures = [
                ExpectationFailure(line: step.line, expected: "pin:", message: ErrorReport.message(for: error))
            ]
            return result
        }

        printer.clear()
        if await repl.execute(step.command) { quitAt = step.line }
        redactor.add(prompt.redactor)
        redactor.add(session.account.pin)
        let shown = prompt.take() + printer.screen
        result.screen = shown.map { redactor.redact(Ansi.strip($0)) }
        result.errors = printer.errors.map { redactor.redact(Ansi.strip($0)) }

        let check = ScreenCheck(screen: result.screen, errors: result.errors, list: session.lists.list)
        var expectsError = false
        for expectation in step.expectations {
            switch expectation.kind {
            case .error: expectsError = true
            default: break
            }
            if let failure = await failure(of: expectation, check: check) { result.failures.append(failure) }
        }
        // After the expectations: a failed one says more about what went wrong than the error alone.
        if !expectsError, !result.errors.isEmpty {
            result.failures.append(
                ExpectationFailure(
                    line: step.line, expected: "> \(step.command)",
                    message: tr(
                        "The command printed an error. If that is what the patron should see, "
                            + "add error: TEXT after the step.")))
        }
        result.seconds = ScenarioRunner.seconds(started.duration(to: .now))
        return result
    }

    func failure(of expectation: Expectation, check: ScreenCheck) async -> ExpectationFailure? {
        let written = expectation.kind.written
        switch expectation.kind {
        case .shelf, .notShelf:
            let shelf = await session.shelfScreen()
            let lines = shelf.lines.map(redactor.redact)
            let message = ShelfCheck.failure(expectation.kind, lines: lines, error: shelf.error.map(redactor.redact))
            return message.map {
                ExpectationFailure(line: expectation.line, expected: written, message: $0, shown: lines)
            }
        default:
            return check.failure(expectation.kind).map {
                ExpectationFailure(line: expectation.line, expected: written, message: $0)
            }
        }
    }

    /// The PIN a source gives for `card`.
    func pin(_ given: (source: PINSource, line: Int?)?, card: String?) throws -> String? {
        guard let (source, line) = given else { return nil }
        // `line 4: ` before a message, when the source has a line.
        func at(_ message: String) -> String {
            line.map { tr("line {line}: {message}", ["line": $0, "message": message]) } ?? message
        }
        switch source {
        case .none:
            return nil
        case .mock:
            guard let card, let pin = MockLendingServer.seededPIN(card: card) else {
                throw ScenarioSetupError(
                    message: at(
                        tr(
                            "pin: mock knows only the mock's cards {cards}.",
                            ["cards": MockLendingServer.seededCards.joined(separator: ", ")])))
            }
            return pin
        case .environment(let name):
            guard let value = environment[name], !value.isEmpty else {
                throw ScenarioSetupError(
                    message: at(
                        tr(
                            "pin: env {name}, but {name} is not set. Set it before running (export {name}=…), "
                                + "or use pin: mock for the mock's cards.",
                            ["name": name])))
            }
            return value
        case .file(let path):
            let url: URL
            let text: String
            do {
                url = try session.confinement?.secretFile(path) ?? URL(fileURLWithPath: path)
                text = try CredentialStore.readPrivate(url, what: tr("The PIN file"))
            } catch {
                throw ScenarioSetupError(message: at(ErrorReport.message(for: error)))
            }
            guard let first = text.split(separator: "\n").first?.trimmingCharacters(in: .whitespaces), !first.isEmpty
            else {
                throw ScenarioSetupError(
                    message: at(tr("the PIN file {file} is empty. Put the PIN on its first line.", ["file": url.path])))
            }
            return first
        case .wrong:
            // A PIN that is certainly not the card's: not the one the setup gives.
            let right =
                scenario.setup.pin == .wrong
                ? nil : try? pin(scenario.setup.pin.map { ($0, scenario.setup.pinLine) }, card: card)
            return ["0000", "9999"].first { $0 != right } ?? "0000"
        }
    }
}

/// Checks `shelf:` and `not shelf:` against the shelf's screen: for a scenario's step and for a
/// study's success condition.
enum ShelfCheck {
    /// Nil when `kind` holds on the shelf `lines` (or `error`, when `shelf` failed); otherwise why not.
    static func failure(_ kind: Expectation.Kind, lines: [String], error: String?) -> String? {
        if let error, kind.isShelf { return tr("shelf did not run: {error}", ["error": error]) }
        switch kind {
        case .shelf(let title, let badge):
            let shown = lines.filter { ScreenCheck.shelfLine($0, shows: title) }
            if shown.isEmpty { return tr("The shelf does not show “{title}”.", ["title": title]) }
            if let badge, !shown.contains(where: { $0.contains(badge) }) {
                return tr(
                    "The shelf shows “{title}” without “{badge}” on its line.", ["title": title, "badge": badge])
            }
            return nil
        case .notShelf(let title):
            guard let line = lines.first(where: { ScreenCheck.shelfLine($0, shows: title) }) else { return nil }
            return tr("The shelf shows “{title}”: {line}", ["title": title, "line": line])
        default:
            return nil
        }
    }
}

extension Expectation.Kind {
    /// `shelf:` or `not shelf:`, which look at the shelf rather than the step's screen.
    var isShelf: Bool {
        switch self {
        case .shelf, .notShelf: true
        default: false
        }
    }
}

extension Session {
    /// Runs `shelf` as the patron would type it, on a screen of its own, colour removed; the last
    /// lists stay what they were, so a later `info 3` or `read 2` means the same as without it.
    func shelfScreen() async -> (lines: [String], error: String?) {
        let (savedList, savedShelf, savedNumbers) = (lists.list, lists.shelfList, lists.numbered)
        defer { (lists.list, lists.shelfList, lists.numbered) = (savedList, savedShelf, savedNumbers) }
        let capture = CapturingPrinter()
        await REPL(session: self, printer: capture).execute("shelf")
        return (capture.screen.map { Ansi.strip($0) }, capture.errors.first.map { Ansi.strip($0) })
    }
}
