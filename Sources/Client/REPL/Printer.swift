import Foundation
import Terminal
import TextSafety

/// Where a command's lines go: stdout for answers, stderr for errors; tests capture both.
@MainActor
protocol Printer: AnyObject {
    /// Prints an answer line.
    func out(_ line: String)
    /// Prints an error or a notice that is not the answer.
    func err(_ line: String)
    /// Prints a command's answer: through the pager when it is taller than the window
    /// (``StandardPrinter``), else line by line as ``out(_:)`` does.
    func show(_ lines: [String])
    /// Prints a document a command makes for another program (an iCalendar file): byte for byte,
    /// never wrapped, paged or styled. The command has made its text safe.
    func document(_ text: String)
    /// Prints an answer with covers in pixels over their half-block rows where it can, else
    /// as ``show(_:)`` does.
    func pictured(_ lines: [String], pictures: [CoverPicture])
}

extension Printer {
    func show(_ lines: [String]) {
        for line in lines { out(line) }
    }

    /// Line by line, for printers that keep lines (tests, recordings).
    func document(_ text: String) {
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast() { out(String(line)) }
    }

    /// Half-blocks, for printers that keep lines (tests, recordings).
    func pictured(_ lines: [String], pictures: [CoverPicture]) { show(lines) }

    /// A command's answer: its document when it made one, else its lines, with its pictures.
    func answer(_ output: CommandOutput) {
        if let document = output.document {
            self.document(document)
        } else if !output.pictures.isEmpty {
            pictured(output.lines, pictures: output.pictures)
        } else {
            show(output.lines)
        }
    }
}

/// Prints to the process's stdout and stderr.
///
/// Every line passes ``SafeText/guardingOutput(_:)``: bok's own colours go out, any other control
/// that outside text carried past the model's boundary (a file name in a message, say) is shown
/// as a visible stand-in instead of reaching the terminal. At a terminal, a line wider than the
/// window is wrapped at word boundaries (``DisplayWidth/wrapLine(_:width:)``), as wide as the
/// window is when the line is printed.
///
/// An answer taller than the window goes through ``pager`` as git's does; the one place that
/// decides it is ``show(_:)``.
@MainActor
final class StandardPrinter: Printer {
    private let outIsTerminal = isatty(STDOUT_FILENO) == 1
    private let errIsTerminal = isatty(STDERR_FILENO) == 1
    /// The pager for answers taller than the window; nil prints them whole (`--no-pager`, `--json`,
    /// `PAGER=cat`). Set once bok knows its options and config file (``Pager/chosen(environment:configured:)``).
    var pager: Pager?
    /// The environment the pager starts in.
    var environment: [String: String] = [:]

    func out(_ line: String) {
        write(line, to: .standardOutput, fd: STDOUT_FILENO, wrapping: outIsTerminal)
    }

    func err(_ line: String) {
        write(line, to: .standardError, fd: STDERR_FILENO, wrapping: errIsTerminal)
    }

    /// Pages the answer only at a terminal, and only when it and the prompt after it would not fit
    /// the window; a pager that cannot start leaves it printed as before.
    /// The answer goes out in one write, not one a line: a shelf of thousands of books printed
    /// line by line spent more time in system calls than in finding the books.
    func show(_ lines: [String]) {
        let size = outIsTerminal ? TerminalSize.current(fd: STDOUT_FILENO) : nil
        let wrapped = lines.flatMap { DisplayWidth.wrapLine(SafeText.guardingOutput($0), width: size?.columns ?? 0) }
        guard !wrapped.isEmpty else { return }
        let text = wrapped.joined(separator: "\n") + "\n"
        if let size, let pager {
            // Rows, counting a line break inside a line (a help text is one string of many lines).
            let rows = text.utf8.count { $0 == UInt8(ascii: "\n") }
            if rows >= size.rows, pager.show(text, environment: environment) { return }
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func document(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// At a terminal, the lines with the pictures over them: only the pictures whose rows are
    /// on screen once the answer is printed (one scrolled above the window keeps its
    /// half-blocks), and only when no line wraps and the answer is not paged. The pictures'
    /// own escape sequences pass the guard: ``CoverPicture`` holds only what bok encoded.
    func pictured(_ lines: [String], pictures: [CoverPicture]) {
        guard outIsTerminal else { return show(lines) }
        let size = TerminalSize.current(fd: STDOUT_FILENO)
        let guarded = lines.map(SafeText.guardingOutput)
        let fits = guarded.allSatisfy { DisplayWidth.wrapLine($0, width: size.columns).count <= 1 }
        guard fits, pager == nil || guarded.count + 1 < size.rows else { return show(lines) }
        let (blanked, placed) = CoverPicture.place(
            pictures, in: guarded, firstLine: guarded.count + 1 - size.rows)
        FileHandle.standardOutput.write(Data(CoverPicture.text(blanked, placed: placed)))
    }

    private func write(_ line: String, to handle: FileHandle, fd: Int32, wrapping: Bool) {
        let guarded = SafeText.guardingOutput(line)
        let width = wrapping ? TerminalSize.current(fd: fd).columns : 0
        let text = DisplayWidth.wrapLine(guarded, width: width).joined(separator: "\n")
        handle.write(Data((text + "\n").utf8))
    }
}

/// Collects lines, for REPL tests and scenario runs, guarded and wrapped as ``StandardPrinter``
/// prints them on a terminal `width` cells wide (0: no limit).
@MainActor
final class CapturingPrinter: Printer {
    /// Every line, in order, errors included (as a screen shows them).
    private(set) var screen: [String] = []
    /// Error lines only.
    private(set) var errors: [String] = []
    /// The window's width in cells; 0 keeps every line whole.
    let width: Int

    init(width: Int = 0) { self.width = width }

    func out(_ line: String) { screen += DisplayWidth.wrapLine(SafeText.guardingOutput(line), width: width) }

    func err(_ line: String) {
        let lines = DisplayWidth.wrapLine(SafeText.guardingOutput(line), width: width)
        screen += lines
        errors += lines
    }

    /// Forgets what was collected.
    func clear() {
        screen.removeAll()
        errors.removeAll()
    }
}
