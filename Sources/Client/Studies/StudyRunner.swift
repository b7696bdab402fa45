import Foundation
import Localization
import MockLending
import Reader
import ReadingState
import Shelf
import Terminal

/// `bok study run`: one participant's sitting. Before each task the instruction is shown; the
/// participant uses bok as at its prompt, and ends the task by typing `done` (bok checks the
/// task's condition) or `give up`; the first line typed after the time limit ends it as timed
/// out. Last come the ten statements of the System Usability Scale. Everything is recorded as
/// `bok --record` records it (PINs as `••••`), with the study's own events (docs/studies.md).
@MainActor
struct StudyRunner {
    let study: Study
    /// Who sits the study: `P7`.
    let participant: String
    /// Now; tests give a clock of their own, so times on task are known.
    var clock: () -> Date = Date.init

    /// The words that end a task, in English and in every language bok speaks (`klar`, `ge upp`).
    static let done = TypedWord("typed: study", "done")
    static let giveUp = TypedWord("typed: study", "give up")

    /// Runs the sitting on `session` (on the study's library, fresh), reading the participant's lines
    /// from `source`, showing through `printer`, recording into `recorder`.
    /// - Returns: each task's outcome, in order (fewer when the input ended early).
    func run(
        session: Session, source: any LineSource, printer: any Printer, recorder: SessionRecorder
    ) async
        -> [TaskOutcome]
    {
        let theme = session.theme
        let repl = REPL(session: session, recorder: recorder)
        recorder.watch(session)
        var start = RecordedEvent(.start, at: clock())
        start.bok = Bok.version
        start.library = session.library.name
        start.study = study.name
        start.participant = participant
        start.language = study.setup.language
        recorder.write(start)
        recorder.printer.take()
        printer.out(theme.bold(study.name) + " \(theme.marks.middleDot) " + participant)
        printer.out(
            theme.dim(
                tr(
                    "Type done when you have finished a task, or give up to go on to the next. "
                        + "help shows bok's commands.")))
        var outcomes: [TaskOutcome] = []
        var ended = false
        for (index, task) in study.tasks.enumerated() {
            printer.out("")
            printer.out(
                theme.bold(
                    tr(
                        "Task {n} of {count}: {title}",
                        ["n": index + 1, "count": study.tasks.count, "title": task.title])))
            printer.out("  " + task.instruction)
            printer.out(
                theme.dim(
                    "  "
                        + tr(
                            "Time: {time}. Type done when you have finished, give up to go on.",
                            ["time": Self.limit(task.timeLimit)])))
            let began = clock()
            var marker = RecordedEvent(.marker, at: began)
            marker.line = "# task: " + task.title
            marker.think = 0
            marker.task = task.title
            marker.instruction = task.instruction
            marker.limit = task.timeLimit
            recorder.write(marker)
            let (outcome, line, think, stop) = await perform(task, began: began, repl: repl, source: source)
            var end = RecordedEvent(.marker, at: clock())
            end.line = line
            end.think = think
            end.outcome = outcome
            recorder.write(end)
            outcomes.append(outcome)
            printer.out(theme.dim(tr("Task {n}: {outcome}.", ["n": index + 1, "outcome": outcome.inWords])))
            if stop == .endOfInput { ended = true }
            if stop != nil { break }
        }
        if !ended, let answers = askSUS(source: source, printer: printer, theme: theme) {
            var event = RecordedEvent(.sus, at: clock())
            event.sus = answers
            recorder.write(event)
            printer.out(tr("Thank you! That was the last question."))
        }
        recorder.finish()
        return outcomes
    }

    /// A time limit as a participant is told it: `5 minutes`, `1 min 30 s`.
    static func limit(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole >= 60, whole % 60 == 0 { return trn("{n} minute", "{n} minutes", whole / 60) }
        return RecordingSummary.duration(seconds)
    }

    /// Why the sitting stops before its last task.
    enum Stop { case quit, endOfInput }

    /// One task, from its instruction to done, give up or the time limit.
    func perform(
        _ task: StudyTask, began: Date, repl: REPL, source: any LineSource
    ) async
        -> (TaskOutcome, line: String, think: Double, stop: Stop?)
    {
        while true {
            repl.printNotices()
            let shown = clock()
            repl.recorder?.promptShown()
            guard let line = source.readLine(prompt: repl.prompt) else {
                return (.gaveUp, "", 0, .endOfInput)
            }
            let now = clock()
            let think = SessionRecorder.rounded(now.timeIntervalSince(shown))
            if now.timeIntervalSince(began) > task.timeLimit {
                repl.printer.out(tr("The time for this task is up."))
                let safe = repl.recorder?.redactor(for: repl.session).redact(line) ?? ""
                return (.timedOut, safe, think, nil)
            }
            let words = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            if Self.done.isNamed(words) {
                let holds = await holds(task.success, session: repl.session)
                return (holds ? .success : .failed, words, think, nil)
            }
            if Self.giveUp.isNamed(words) { return (.gaveUp, words, think, nil) }
            repl.recorder?.entered(line)
            // At a terminal, as at bok's own prompt, Ctrl-C cancels the command and the prompt comes back.
            let quit = source is ReadlineSource ? await repl.executeInterruptibly(line) : await repl.execute(line)
            repl.recorder?.finished(session: repl.session)
            if quit { return (.gaveUp, "", 0, .quit) }
        }
    }

    /// Whether every condition holds now: on the shelf, and in the books' places and highlights.
    func holds(_ conditions: [StudyCondition], session: Session) async -> Bool {
        for condition in conditions {
            switch condition {
            case .shelf(let kind):
                let shelf = await session.shelfScreen()
                if ShelfCheck.failure(kind, lines: shelf.lines, error: shelf.error) != nil { return false }
            case .reading(let title, let chapter):
                guard
                    session.books(titled: title).contains(where: { book in
                        guard let place = try? book.store.position(bookID: book.id.rawValue),
                            let file = book.file, let epub = try? EPUBBook.open(path: file)
                        else { return false }
                        let shown = BookContent(book: epub).document(at: place.spineIndex).title ?? ""
                        return shown.localizedCaseInsensitiveContains(chapter)
                    })
                else { return false }
            case .highlight(let title):
                guard
                    session.books(titled: title).contains(where: { book in
                        !((try? book.store.highlights(bookID: book.id)) ?? []).isEmpty
                    })
                else { return false }
            }
        }
        return true
    }

    /// The System Usability Scale, one statement at a time; nil when the input ends first.
    func askSUS(source: any LineSource, printer: any Printer, theme: Theme) -> [Int]? {
        printer.out("")
        printer.out(theme.bold(tr("Last, ten statements about bok.")))
        printer.out(
            tr("Answer each from 1 (strongly disagree) to 5 (strongly agree), and press Enter."))
        var answers: [Int] = []
        for (index, statement) in SystemUsabilityScale.statements.enumerated() {
            printer.out("")
            printer.out("\(index + 1). " + statement)
            while true {
                guard let line = source.readLine(prompt: tr("1 (disagree) – 5 (agree): ")) else { return nil }
                if let n = Int(line.trimmingCharacters(in: .whitespaces)), (1...5).contains(n) {
                    answers.append(n)
                    break
                }
                printer.out(theme.dim(tr("Type a number from 1 to 5.")))
            }
        }
        return answers
    }
}

/// Answers the card and PIN questions with the study's `card:` and `pin:`, when it gives them,
/// and otherwise asks the participant (at the terminal).
@MainActor
final class StudyPatronPrompt: PatronPrompt {
    let card: String?
    let pin: String?
    let inner: (any PatronPrompt)?

    init(card: String?, pin: String?, inner: (any PatronPrompt)?) {
        self.card = card
        self.pin = pin
        self.inner = inner
    }

    func ask(_ prompt: String) -> String? { card ?? inner?.ask(prompt) }
    func askSecret(_ prompt: String) -> String? { pin ?? inner?.askSecret(prompt) }
    func confirm(_ question: String) -> Bool? { inner?.confirm(question) }
    func tell(_ line: String) { inner?.tell(line) }
    func answeredSecret(_ text: String) -> Bool { text == pin || inner?.answeredSecret(text) == true }

    /// The PIN the study's `pin:` gives: the mock's for `pin: mock`, a `BOK_` variable's, or a
    /// private file's beside the study.
    static func pin(
        _ source: PINSource?, card: String?, studyFile: String, environment: [String: String]
    ) throws
        -> String?
    {
        switch source {
        case .mock?:
            return card.flatMap { MockLendingServer.seededPIN(card: $0) }
        case .environment(let name)?:
            guard let value = environment[name], !value.isEmpty else {
                throw UserError(tr("pin: env {name}, but {name} is not set. Set it before running.", ["name": name]))
            }
            return value
        case .file(let path)?:
            let folder = URL(fileURLWithPath: studyFile).deletingLastPathComponent()
            let text = try CredentialStore.readPrivate(folder.appendingPathComponent(path), what: tr("The PIN file"))
            return text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
        case .wrong?, .none?, nil:
            return nil
        }
    }
}

extension Session {
    /// A book of the shelf whose title has `title` and that has been opened: its reading state's
    /// id, and its file when it is on this computer.
    struct OpenedBook {
        let store: ShelfStore
        let id: BookID
        let file: String?
    }

    /// The books on the shelf (loans, ended loans, samples) titled `title`, that were opened.
    func books(titled title: String) -> [OpenedBook] {
        guard let store = try? shelfStore(), let shelf = try? currentShelf() else { return [] }
        return shelf.sections.flatMap(\.entries).filter { $0.title.localizedCaseInsensitiveContains(title) }
            .compactMap { entry in
                guard let id = try? store.bookIdentity(productID: entry.productID) else { return nil }
                let sample = (try? store.samples(card: shelfCard() ?? ""))?.first { $0.productID == entry.productID }
                let file = (try? store.download(productID: entry.productID))??.path ?? sample?.path
                return OpenedBook(store: store, id: id, file: file)
            }
    }
}
