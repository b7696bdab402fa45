import Catalog
import Foundation
import Localization
import Logging
import MockLending
import Reader
import Shelf
import Speech
import Terminal

/// The one place that turns any error into the line a patron sees and a one-shot's exit status:
/// never a stack trace, a type name or an HTTP body. It knows every module's errors, so commands
/// let them through instead of rewrapping each one.
///
/// Exit statuses, as `docs/commands.md` documents them: 0 done, 1 failed (the library refused, a
/// file could not be read, a network error), 2 a usage mistake (an unknown command or option, a
/// bad argument: nothing was tried), 130 interrupted (Ctrl-C), as shells report SIGINT.
enum ErrorReport {
    /// The one line for `error`.
    static func message(for error: any Error) -> String {
        switch error {
        case is CancellationError: tr("Cancelled.")
        case let error as any PatronFacingError: error.patronMessage
        default: unexpected(error)
        }
    }

    /// An error no module words for the patron: what it was goes to the debug log (BOK_LOG=debug),
    /// never a type name or a library's text on screen.
    static func unexpected(_ error: any Error) -> String {
        var logger = Logger(label: "bok") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel =
            ProcessInfo.processInfo.environment["BOK_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .error
        logger.debug("unexpected error", metadata: ["error": "\(String(reflecting: error))"])
        return tr(
            "Something went wrong. Try again; if it keeps happening, please report it (BOK_LOG=debug shows the "
                + "details).")
    }

    /// The exit status for `error`.
    static func exitCode(for error: any Error) -> Int32 {
        switch error {
        case is CancellationError: 130
        case let error as DownloadError where error.kind == .cancelled: 130
        case let error as UserError: error.exitCode
        case is SearchQuery.ParseError: 2
        default: 1
        }
    }

    /// Says `error` on stderr after bok's name (and, with `json`, as `{"error": …}` on stdout, so a
    /// script reading stdout sees it too); returns the exit status.
    @MainActor
    static func report(_ error: any Error, json: Bool = false, hint: String = "", printer: any Printer) -> Int32 {
        let message = message(for: error)
        if json { printer.out(JSONOutput.encode(["error": message])) }
        printer.err(diagnostic(message + hint))
        return exitCode(for: error)
    }

    /// A message for stderr, after bok's name: "bok: could not read …", not "bok: bok could not read …"
    /// for the messages (the reader's among them) that already start with bok's name.
    static func diagnostic(_ message: String) -> String {
        message.hasPrefix("bok ") ? "bok: " + message.dropFirst(4) : "bok: " + message
    }
}
