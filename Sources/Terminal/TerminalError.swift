public import Localization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A terminal operation that could not be done, with a message saying what to do instead.
public struct TerminalError: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    // A struct over a private enum, so that cases can be added without breaking callers.
    private enum Kind: Sendable, Hashable {
        case notATerminal(fd: Int32)
        case settingsFailed(fd: Int32, errno: Int32)
    }

    private let kind: Kind

    /// The file descriptor is not a terminal, so it has no modes to change.
    static func notATerminal(fd: Int32) -> TerminalError {
        TerminalError(kind: .notATerminal(fd: fd))
    }

    /// `tcgetattr`/`tcsetattr` failed with `errno`.
    static func settingsFailed(fd: Int32, errno: Int32) -> TerminalError {
        TerminalError(kind: .settingsFailed(fd: fd, errno: errno))
    }

    /// A sentence for the user: what happened and what to do.
    public var description: String {
        // The file descriptor and errno are for a debugger, not the patron: `debugDescription`.
        switch kind {
        case .notATerminal(let fd) where fd == 0:
            return tr(
                "Standard input is not a terminal, so the full-screen view cannot run. "
                    + "Run bok in a terminal, without piping its input.")
        case .notATerminal:
            return tr(
                "bok's input or output is not a terminal, so the full-screen view cannot run. "
                    + "Run bok in a terminal, without piping its input or output.")
        case .settingsFailed:
            return tr("bok could not change the terminal's settings. Try again in a regular terminal window.")
        }
    }

    /// The file descriptor and the system's reason, for logs and debugging.
    public var debugDescription: String {
        switch kind {
        case .notATerminal(let fd): "file descriptor \(fd) is not a terminal"
        case .settingsFailed(let fd, let code): "tcsetattr on file descriptor \(fd): \(String(cString: strerror(code)))"
        }
    }
}

extension TerminalError: PatronFacingError {
    public var patronMessage: String { description }
}
