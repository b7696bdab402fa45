import Catalog
import Foundation
import Shelf
import Terminal

/// The interactive prompt: reads a line, runs it through the command table, prints the answer.
///
/// A failed command prints one line and the prompt comes back; nothing ends the REPL but
/// `quit`, `exit` or Ctrl-D.
@MainActor
final class REPL {
    let table: CommandTable
    /// The library in use; `library use NAME` replaces it.
    private(set) var session: Session
    let printer: any Printer
    /// Records the session (`bok --record FILE`); its printer must be `printer`.
    let recorder: SessionRecorder?

    init(table: CommandTable = CommandTable(), session: Session, printer: any Printer, recorder: SessionRecorder? = nil)
    {
        self.table = table
        self.session = session
        self.printer = printer
        self.recorder = recorder
    }

    /// A REPL whose session is recorded: commands print through the recorder's printer.
    convenience init(session: Session, recorder: SessionRecorder) {
        self.init(session: session, printer: recorder.printer, recorder: recorder)
    }

    /// The prompt: the library's name, shortened to fit.
    var prompt: String {
        let name = DisplayWidth.truncate(session.library.name, to: 32, ellipsis: session.theme.marks.ellipsis)
        let painted = session.theme.paint(name, .color(.cyan))
        return painted + "> "
    }

    /// Reads and runs lines until quit or end of input.
    /// - Parameter interruptible: At a terminal, Ctrl-C cancels the command in flight and the
    ///   prompt comes back (as in psql) instead of ending bok.
    func run(lines source: any LineSource, interruptible: Bool = false) async {
        while true {
            printNotices()
            recorder?.promptShown()
            guard let line = source.readLine(prompt: prompt) else { break }
            recorder?.entered(line)
            // Like bash's ignorespace: a line typed with a leading space stays out of the history;
            // so do comments (a tester's `# task: …` markers), and a PIN or password typed here by mistake.
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !line.hasPrefix(" "), !trimmed.isEmpty, !trimmed.hasPrefix("#"), !isSecret(trimmed) {
                source.remember(line)
            }
            let quit = interruptible ? await executeInterruptibly(line) : await execute(line)
            recorder?.finished(session: session)
            if quit { break }
        }
        recorder?.finish()
    }

    /// Whether `line` is a secret this session knows: the PIN in use, or one answered at a question.
    func isSecret(_ line: String) -> Bool {
        line == session.account.pin || session.account.prompt?.answeredSecret(line) == true
    }

    /// Runs one line as ``execute(_:)`` does, in a task Ctrl-C cancels: what the command was
    /// waiting for (an answer, a download) stops, it says "Cancelled." and the prompt comes back.
    func executeInterruptibly(_ line: String) async -> Bool {
        let spinner = session.spinner
        let task = Task { await LibraryWait.$observer.withValue(spinner) { await self.execute(line) } }
        return await CommandInterrupt.whileRunning(interrupt: { task.cancel() }, { await task.value })
    }

    /// Runs one line; returns true when the REPL should end. A line starting with `#` is a
    /// comment: nothing runs (a recording keeps it, see `SessionRecorder`).
    @discardableResult
    func execute(_ line: String) async -> Bool {
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("#") { return false }
        do {
            let words = try LineSplitter.split(line)
            guard !words.isEmpty else { return false }
            session.theme = session.theme.resizedToTerminal()
            let output = try await table.run(words, in: session)
            printer.answer(output)
            if let next = output.switchTo { switchLibrary(to: next) }
            printNotices()
            return output.quit
        } catch {
            printer.err(session.theme.red(ErrorReport.message(for: error)))
            printNotices()
            return false
        }
    }

    /// Goes on with another library: the patron's prompt, bars and recorder follow, and its shelf
    /// syncs in the background as at start.
    func switchLibrary(to next: Session) {
        next.account.prompt = session.account.prompt
        next.progress = session.progress
        next.spinner = session.spinner
        recorder?.watch(next)
        session = next
        next.startSyncInBackground()
    }

    /// What the last syncs found changed at the library, one line each (each told once), and on
    /// stderr why the mock library lends privately (once).
    func printNotices() {
        if let warning = session.library.mock?.stateWarning() { printer.err(ErrorReport.diagnostic(warning)) }
        for line in NoticeCommands.pending(session: session) { printer.out(line) }
    }
}
