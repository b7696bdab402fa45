import CReadline
public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads command lines with GNU readline: editing keys, history (↑, Ctrl-R) and tab completion.
///
/// Readline has one history list and one set of hooks per process, so create one editor for
/// the REPL. Nothing is added to history by ``readLine(prompt:)`` itself: the caller decides,
/// with ``addHistory(_:)``, which lines are kept (never a PIN; never a line typed with a
/// leading space, as with bash's `HISTCONTROL=ignorespace`). The history file is appended
/// to after every accepted line, so it survives a crash, and kept to ``maxHistory`` lines.
///
/// When standard input is not a terminal (piped scenarios, tests), lines are read plainly
/// and no prompt is printed, so the output stays clean.
public final class LineEditor: Sendable {
    /// Where the history is kept between runs, or `nil` for history in memory only.
    public let historyFile: URL?
    /// The most history lines kept in memory and in the file; 0 turns history off.
    public let maxHistory: Int
    private let entries: Mutex<[String]>

    /// Creates the editor and loads the history file, creating its folder (mode 700) and the file (600).
    ///
    /// A history file that cannot be created or read leaves the history in memory only;
    /// line editing still works.
    /// - Parameters:
    ///   - historyFile: The history file, e.g. `$XDG_DATA_HOME/bok/history`.
    ///   - maxHistory: The most lines to keep; older ones are dropped from memory and the file.
    public init(historyFile: URL?, maxHistory: Int = 1000) {
        let maxHistory = max(0, maxHistory)
        self.maxHistory = maxHistory
        let path = historyFile.flatMap { maxHistory > 0 ? Self.prepareHistoryFile($0) : nil }
        self.historyFile = path == nil ? nil : historyFile

        let loaded = ReadlineBridge.lock.withLock { _ -> [String] in
            // The newest editor owns readline's in-memory list (used by ↑ and Ctrl-R).
            clear_history()
            stifle_history(Int32(clamping: maxHistory))
            if let path {
                _ = read_history(path)
                _ = history_truncate_file(path, Int32(clamping: maxHistory))
            }
            return (0..<bok_history_count()).compactMap { offset in
                bok_history_line(offset).map { String(cString: $0) }
            }
        }
        entries = Mutex(loaded)
    }

    /// The history of this editor, oldest first.
    public var history: [String] {
        entries.withLock { $0 }
    }

    /// Reads one line, showing `prompt`; returns `nil` at end of input (Ctrl-D on an empty line).
    ///
    /// Escape codes in `prompt` are marked for readline (see ``readlinePrompt(_:)``), so a
    /// coloured prompt does not confuse cursor movement. Ctrl-C discards the typed text and
    /// shows a fresh prompt, like bash. The call blocks until the user presses Return (and
    /// other calls into readline wait meanwhile); call it from the thread that runs the REPL.
    /// - Parameter cancelOnInterrupt: For a question inside a command (a card number): Ctrl-C
    ///   cancels it and the call returns `nil`, as the PIN prompt does.
    /// - Returns: The line without its line break, or `nil` at end of input (or when cancelled).
    public func readLine(prompt: String, cancelOnInterrupt: Bool = false) -> String? {
        guard isatty(STDIN_FILENO) == 1 else {
            return Swift.readLine(strippingNewline: true)
        }
        let prompt = Self.readlinePrompt(prompt)
        return ReadlineBridge.lock.withLock { _ -> String? in
            ReadlineBridge.installHooks()
            PromptSignals.prepare()
            var action = sigaction()
            TerminalModeGuard.setHandler(&action, notePromptSignal)
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            // Whichever thread takes a signal, the handler wakes the key reader through a pipe.
            var previous = Array(repeating: sigaction(), count: promptSignals.count)
            ReadlineBridge.cancelled.store(false, ordering: .releasing)
            PromptSignals.cancels.store(cancelOnInterrupt, ordering: .releasing)
            for (index, signal) in promptSignals.enumerated() {
                sigaction(signal, nil, &previous[index])
                // An ignored signal stays ignored (nohup, or a parent that ignores SIGINT).
                if !TerminalModeGuard.isIgnored(previous[index]) { sigaction(signal, &action, nil) }
            }
            defer {
                for (index, signal) in promptSignals.enumerated() { sigaction(signal, &previous[index], nil) }
                ReadlineBridge.interrupted.store(false, ordering: .releasing)
                PromptSignals.stop.store(false, ordering: .releasing)
            }
            fflush(nil)  // anything printed before the prompt must appear above it
            // At end of input readline 8 itself moves to a new line, so nothing is printed here.
            guard let line = readline(prompt) else { return nil }
            defer { free(line) }
            if ReadlineBridge.cancelled.exchange(false, ordering: .acquiringAndReleasing) { return nil }
            return String(cString: line)
        }
    }

    /// Adds `line` to the history and appends it to the history file.
    ///
    /// Not added: empty or blank lines, a line equal to the previous entry, a line starting
    /// with a space (the user's way to keep a line out of history) and a line containing a
    /// line break (it would become two entries in the file).
    /// - Returns: Whether the line was added.
    @discardableResult
    public func addHistory(_ line: String) -> Bool {
        guard maxHistory > 0, Self.isRecordable(line) else { return false }
        return ReadlineBridge.lock.withLock { _ -> Bool in
            let added = entries.withLock { entries -> Bool in
                guard entries.last != line else { return false }
                entries.append(line)
                if entries.count > maxHistory { entries.removeFirst(entries.count - maxHistory) }
                return true
            }
            guard added else { return false }
            add_history(line)
            if let path = historyFile?.path(percentEncoded: false) {
                // append_history writes the newest entry of readline's list: the one just added.
                if append_history(1, path) == 0 {
                    _ = history_truncate_file(path, Int32(clamping: maxHistory))
                }
            }
            return true
        }
    }

    /// Sets the tab-completion function; the last one set is used by every editor.
    ///
    /// - Parameter completer: Gets the line up to the cursor and the word under the cursor
    ///   and returns the candidates; those not starting with the word are dropped. Readline
    ///   inserts the common prefix, and lists the candidates on a second Tab.
    public func setCompleter(_ completer: @escaping @Sendable (_ line: String, _ word: String) -> [String]) {
        ReadlineBridge.completion.withLock { $0.completer = completer }
    }

    /// Reads a secret such as a PIN without showing it, and never puts it in history.
    ///
    /// At a terminal the prompt is shown, echo is off while typing (Backspace and Ctrl-U
    /// work), and a line break is printed after. Ctrl-C or Ctrl-D on an empty line cancels.
    /// The terminal settings are restored on every way out, including SIGTERM and SIGHUP.
    /// When standard input is not a terminal, one line is read from it with no prompt.
    /// - Returns: The secret, or `nil` when cancelled or at end of input.
    public func readSecret(prompt: String) -> String? {
        let output = isatty(STDOUT_FILENO) == 1 ? STDOUT_FILENO : STDERR_FILENO
        return SecretReader(input: STDIN_FILENO, output: output).read(prompt: prompt)
    }

    /// Marks every escape code in `prompt` as invisible for readline, wrapping it in `\u{01}`…`\u{02}`.
    ///
    /// Readline counts every byte of the prompt as a column unless told otherwise, and a
    /// coloured prompt then makes long lines wrap and redraw in the wrong place. A prompt
    /// that already holds the markers is returned unchanged.
    public static func readlinePrompt(_ prompt: String) -> String {
        guard !prompt.unicodeScalars.contains("\u{01}") else { return prompt }
        var result = ""
        for segment in StyledSegments(prompt) {
            switch segment {
            case .text(let text): result += text
            case .escape(let code): result += "\u{01}" + code + "\u{02}"
            }
        }
        return result
    }

    /// Whether a line may go into history at all (the duplicate check needs the history).
    static func isRecordable(_ line: String) -> Bool {
        guard let first = line.unicodeScalars.first, first != " " else { return false }
        guard !line.allSatisfy(\.isWhitespace) else { return false }
        return !line.contains(where: \.isNewline)
    }

    /// Creates the history file's folder and the file itself; returns its path, or `nil` if that failed.
    private static func prepareHistoryFile(_ url: URL) -> String? {
        let path = url.path(percentEncoded: false)
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
        } catch {
            return nil
        }
        // append_history does not create the file; the history is the patron's own, so 600.
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { return nil }
        close(fd)
        return path
    }
}
