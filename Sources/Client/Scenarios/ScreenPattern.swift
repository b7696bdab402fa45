#if canImport(_FoundationICU)
internal import _FoundationICU
#else
import Foundation
#endif

/// The regular expression of a `line:`, `no line:` or `count N:` expectation, compiled once and
/// matched against screen lines with a bound on the work one line may take.
///
/// A scenario file is untrusted input (a tester downloads it), and a backtracking engine takes
/// time exponential in the length of a line for a pattern such as `(a|a)*b`: 24 `a`s took 2 s,
/// and each one more about doubles it. The bound is the regex engine's own. NSRegularExpression on
/// Linux is ICU's engine, which can stop a match by itself, but NSRegularExpression does not let
/// the limits be set; so the same engine is called directly (`_FoundationICU`, the ICU the
/// toolchain's Foundation uses: the same syntax and the same answers as before; its functions
/// carry the `swift_` prefix its build renames them with, so they never meet another ICU's):
/// - `uregex_setTimeLimit` counts the engine's own steps (its backtracking state saves, in units
///   of 10 000), not the clock, so it bounds the CPU of one match whatever the machine's load,
///   and a pattern fails the same way on every run;
/// - `uregex_setStackLimit` bounds the memory of its backtracking stack.
///
/// The other ways were no bound: Swift's `Regex` backtracks too, with no limit to set, and a match
/// on a thread abandoned at a deadline would go on taking a CPU (and its memory) until bok exits.
final class ScreenPattern {
    /// What looking at one line found.
    enum Outcome: Equatable {
        case match, noMatch
        /// The match took more than ``stepLimit`` steps, and was stopped.
        case tooSlow
        /// The match needed more than ``stackLimit`` bytes of backtracking, and was stopped.
        case tooDeep
    }

    // Not patron-facing: the scenario parser says which line's pattern does not compile.
    /// A pattern that does not compile.
    struct Invalid: Error {}

    /// Steps of one match, in ICU's units of 10 000 state saves: a million, about 15 ms on the
    /// build machine. A pattern that is not pathological takes a few per character of a line.
    static let stepLimit: Int32 = 100
    /// Bytes of backtracking stack for one match: ICU's default, made explicit. 8 MB is about 160 000
    /// saved states, far more than the characters of any screen line.
    static let stackLimit: Int32 = 8 << 20

    /// The pattern as written.
    let pattern: String

    #if canImport(_FoundationICU)
    private let regex: OpaquePointer
    #else
    private let regex: NSRegularExpression
    #endif

    /// Compiles `pattern` (ICU syntax, no flags: as `String.range(of:options: .regularExpression)`).
    /// - Throws: ``Invalid`` when it is not a regular expression.
    init(_ pattern: String) throws(Invalid) {
        self.pattern = pattern
        #if canImport(_FoundationICU)
        var status = U_ZERO_ERROR
        let units = Array(pattern.utf16)
        guard let regex = swift_uregex_open(units, Int32(units.count), 0, nil, &status), !Self.failed(status) else {
            throw Invalid()
        }
        swift_uregex_setTimeLimit(regex, Self.stepLimit, &status)
        swift_uregex_setStackLimit(regex, Self.stackLimit, &status)
        self.regex = regex
        #else
        // No ICU to reach (Darwin's Foundation): unbounded, as bok's own builds are Linux ones.
        guard let regex = try? NSRegularExpression(pattern: pattern) else { throw Invalid() }
        self.regex = regex
        #endif
    }

    #if canImport(_FoundationICU)
    deinit { swift_uregex_close(regex) }
    #endif

    /// Whether the pattern is found somewhere in `line`, or why that could not be told.
    func outcome(in line: String) -> Outcome {
        #if canImport(_FoundationICU)
        // A terminating 0 that is not part of the text, so that even an empty line has an address.
        let units = Array(line.utf16) + [0]
        return units.withUnsafeBufferPointer { text -> Outcome in
            // ICU keeps a pointer to the text rather than a copy: it is matched while `text` lives.
            var status = U_ZERO_ERROR
            swift_uregex_setText(regex, text.baseAddress, Int32(text.count - 1), &status)
            let found = swift_uregex_find(regex, 0, &status)
            switch status {
            case U_REGEX_TIME_OUT: return .tooSlow
            case U_REGEX_STACK_OVERFLOW: return .tooDeep
            default: return !Self.failed(status) && found != 0 ? .match : .noMatch
            }
        }
        #else
        let range = NSRange(line.startIndex..., in: line)
        return regex.firstMatch(in: line, range: range) != nil ? .match : .noMatch
        #endif
    }

    #if canImport(_FoundationICU)
    /// ICU's `U_FAILURE`: errors are positive, warnings negative.
    private static func failed(_ status: UErrorCode) -> Bool { status.rawValue > U_ZERO_ERROR.rawValue }
    #endif
}
