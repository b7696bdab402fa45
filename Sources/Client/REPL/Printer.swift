import Foundation
import TextSafety

/// Where a command's lines go: stdout for answers, stderr for errors; tests capture both.
@MainActor
protocol Printer: AnyObject {
    /// Prints an answer line.
    func out(_ line: String)
    /// Prints an error or a notice that is not the answer.
    func err(_ line: String)
}

/// Prints to the process's stdout and stderr.
///
/// Every line passes ``SafeText/guardingOutput(_:)``: bok's own colours go out, any other control
/// that outside text carried past the model's boundary (a file name in a message, say) is shown
/// as a visible stand-in instead of reaching the terminal.
@MainActor
final class StandardPrinter: Printer {
    func out(_ line: String) {
        FileHandle.standardOutput.write(Data((SafeText.guardingOutput(line) + "\n").utf8))
    }

    func err(_ line: String) {
        FileHandle.standardError.write(Data((SafeText.guardingOutput(line) + "\n").utf8))
    }
}

/// Collects lines, for REPL tests and scenario runs, guarded as ``StandardPrinter`` prints them.
@MainActor
final class CapturingPrinter: Printer {
    /// Every line, in order, errors included (as a screen shows them).
    private(set) var screen: [String] = []
    /// Error lines only.
    private(set) var errors: [String] = []

    func out(_ line: String) { screen.append(SafeText.guardingOutput(line)) }

    func err(_ line: String) {
        let line = SafeText.guardingOutput(line)
        screen.append(line)
        errors.append(line)
    }

    /// Forgets what was collected.
    func clear() {
        screen.removeAll()
        errors.removeAll()
    }
}
