import Foundation

/// Where a command's lines go: stdout for answers, stderr for errors; tests capture both.
@MainActor
protocol Printer: AnyObject {
    /// Prints an answer line.
    func out(_ line: String)
    /// Prints an error or a notice that is not the answer.
    func err(_ line: String)
}

/// Prints to the process's stdout and stderr.
@MainActor
final class StandardPrinter: Printer {
    func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    func err(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Collects lines, for REPL tests and scenario runs.
@MainActor
final class CapturingPrinter: Printer {
    /// Every line, in order, errors included (as a screen shows them).
    private(set) var screen: [String] = []
    /// Error lines only.
    private(set) var errors: [String] = []

    func out(_ line: String) { screen.append(line) }

    func err(_ line: String) {
        screen.append(line)
        errors.append(line)
    }

    /// Forgets what was collected.
    func clear() {
        screen.removeAll()
        errors.removeAll()
    }
}
