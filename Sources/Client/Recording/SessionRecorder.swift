import Foundation
import Localization
import Synchronization
import Terminal

/// Records an interactive session for later study (`bok --record FILE`): each command with its
/// timestamp, the time the patron took before it, what was shown, errors and uses of `help`.
///
/// Every event is written and flushed as it happens, one JSON object a line. PINs never reach
/// the file: answers to the PIN prompt are shown as `••••`, and any PIN of the session that
/// turns up in a typed line or on the screen is replaced by `••••` too.
@MainActor
final class SessionRecorder {
    /// The printer commands print through: it passes lines on and keeps a copy for the recording.
    let printer: RecordingPrinter
    /// The patron prompt, wrapped so that its questions are recorded (set by `watch(_:)`).
    private(set) var prompt: TranscribingPatronPrompt?
    /// The file's one writer, which a study's moderator notes reach from another thread too.
    let sink: RecordingSink
    let clock: () -> Date
    private var promptShownAt: Date
    private var enteredAt: Date?
    private var currentLine: String?
    /// Secrets known before anyone types them (a study's `pin:`), kept out of the file from the start.
    var knownSecrets = PINRedactor()

    /// Creates the recording file (mode 600: it holds what the patron saw) and refuses to
    /// overwrite one that exists.
    /// - Parameters:
    ///   - clock: Now; tests pass a clock of their own.
    /// - Throws: `UserError` when the file exists or cannot be created.
    init(file path: String, forwardingTo inner: any Printer, clock: @escaping () -> Date = Date.init) throws {
        // Made here and nowhere else: O_EXCL refuses anything already at the path (a link too, which
        // O_NOFOLLOW does not follow), so a recording never replaces a file or writes through a link.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST || code == ELOOP {
                throw UserError(
                    tr(
                        "{file} already exists; bok will not overwrite a recording. Give another name or remove it.",
                        ["file": path]))
            }
            throw UserError(
                tr(
                    "Could not create the recording {file}. Check that its folder exists and is writable.",
                    ["file": path]))
        }
        sink = RecordingSink(FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
        self.clock = clock
        printer = RecordingPrinter(inner)
        promptShownAt = clock()
    }

    /// Wraps the session's patron prompt, if it has one, so its questions are recorded.
    func watch(_ session: Session) {
        guard let inner = session.account.prompt else { return }
        let wrapped = TranscribingPatronPrompt(inner)
        session.account.prompt = wrapped
        prompt = wrapped
    }

    /// The first event: which bok, which library.
    func start(library: String) {
        var event = RecordedEvent(.start, at: clock())
        event.bok = Bok.version
        event.library = library
        write(event)
        printer.take()
    }

    /// The prompt is on the screen: the patron's time starts.
    func promptShown() { promptShownAt = clock() }

    /// The patron pressed Enter on `line`.
    func entered(_ line: String) {
        enteredAt = clock()
        currentLine = line
        printer.take()
        _ = prompt?.take()
    }

    /// The line has run; writes its event. `session` supplies the PIN to keep out of the file.
    func finished(session: Session) {
        guard let line = currentLine, let enteredAt else { return }
        currentLine = nil
        let redactor = redactor(for: session)
        let (out, errors) = printer.take()
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let think = Self.rounded(enteredAt.timeIntervalSince(promptShownAt))
        if trimmed.hasPrefix("#") {
            let text = trimmed.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            var event = RecordedEvent(Self.marker(text) == nil ? .note : .marker, at: enteredAt)
            event.line = redactor.redact(trimmed)
            event.think = think
            event.task = Self.marker(text) ?? nil
            write(event)
            return
        }
        if trimmed.isEmpty { return }
        var event = RecordedEvent(.command, at: enteredAt)
        event.line = redactor.redact(line)
        event.think = think
        event.seconds = Self.rounded(clock().timeIntervalSince(enteredAt))
        event.shown = ((prompt?.take() ?? []) + out).map { redactor.redact(Ansi.strip($0)) }
        event.errors = errors.map { redactor.redact(Ansi.strip($0)) }
        event.help = Self.isHelp(line)
        if !errors.isEmpty, let name = (try? LineSplitter.split(line))?.first {
            let table = CommandTable()
            if table.command(named: name) == nil {
                event.unknown = true
                event.suggested = table.suggestion(for: name) != nil
            }
        }
        write(event)
    }

    /// What keeps this session's PINs out of the file: those answered at a prompt, the one in use,
    /// and the ones known from the start.
    func redactor(for session: Session) -> PINRedactor {
        var redactor = prompt?.redactor ?? PINRedactor()
        redactor.add(session.account.pin)
        redactor.add(knownSecrets)
        return redactor
    }

    /// The last event: the session is over.
    func finish() {
        write(RecordedEvent(.end, at: clock()))
        sink.close()
    }

    /// `task: TITLE` → TITLE; `end`, `done`, `task end` → nil (a marker without a task);
    /// anything else is not a marker (outer nil).
    static func marker(_ text: String) -> String?? {
        let lower = text.lowercased()
        if ["end", "done", "task end", "end task", "task: end"].contains(lower) { return .some(nil) }
        guard lower.hasPrefix("task") else { return nil }
        let rest = text.dropFirst(4).trimmingCharacters(in: .whitespaces)
        guard rest.hasPrefix(":") else { return nil }
        let title = rest.dropFirst().trimmingCharacters(in: .whitespaces)
        return title.isEmpty ? nil : .some(title)
    }

    /// Whether a line asks for help: `help`, `help sort`, `?`, or any command with `--help`.
    static func isHelp(_ line: String) -> Bool {
        let words = (try? LineSplitter.split(line)) ?? []
        guard let first = words.first else { return false }
        return CommandTable().command(named: first)?.name == "help" || words.contains("--help")
    }

    static func rounded(_ seconds: Double) -> Double { (max(0, seconds) * 1000).rounded() / 1000 }

    func write(_ event: RecordedEvent) { sink.write(event) }
}

/// Writes a recording's events, one JSON line each, flushed, from any thread, in the order they
/// come; and hands each to an observer once written (a study's live view, `bok study watch`).
final class RecordingSink: Sendable {
    private struct State {
        var handle: FileHandle?
        var observer: (@Sendable (RecordedEvent) -> Void)?
    }
    private let state: Mutex<State>

    init(_ handle: FileHandle) { state = Mutex(State(handle: handle)) }

    /// Called with every event written from now on, on the writer's thread.
    func observe(_ observer: @escaping @Sendable (RecordedEvent) -> Void) {
        state.withLock { $0.observer = observer }
    }

    func write(_ event: RecordedEvent) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(event) else { return }
        let observer: (@Sendable (RecordedEvent) -> Void)? = state.withLock { state in
            guard let handle = state.handle else { return nil }
            handle.write(data + Data("\n".utf8))
            try? handle.synchronize()
            return state.observer
        }
        observer?(event)
    }

    /// Closes the file; later events are dropped.
    func close() {
        state.withLock { state in
            try? state.handle?.close()
            state.handle = nil
        }
    }
}

/// Passes lines on to another printer and keeps a copy until `take()`.
@MainActor
final class RecordingPrinter: Printer {
    private let inner: any Printer
    private var out: [String] = []
    private var errors: [String] = []

    init(_ inner: any Printer) { self.inner = inner }

    func out(_ line: String) {
        inner.out(line)
        out.append(line)
    }

    func err(_ line: String) {
        inner.err(line)
        out.append(line)
        errors.append(line)
    }

    /// Every line since the last call (errors included, in order), and the error lines alone.
    @discardableResult
    func take() -> (screen: [String], errors: [String]) {
        defer {
            out.removeAll()
            errors.removeAll()
        }
        return (out, errors)
    }
}
