import Localization

/// A failure to show the patron as one line: what happened and what to do.
///
/// Commands throw it for bad input; the REPL prints it and keeps going, a one-shot command prints
/// it to stderr and exits with `exitCode`.
struct UserError: Error, CustomStringConvertible {
    /// The line to show.
    let message: String
    /// Exit status of a one-shot command: 2 for usage mistakes, 1 for everything else.
    let exitCode: Int32

    init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    /// A usage mistake (unknown command, wrong arguments): exit status 2.
    static func usage(_ message: String) -> UserError { UserError(message, exitCode: 2) }

    var description: String { message }
}

extension UserError: PatronFacingError {
    var patronMessage: String { message }
}
