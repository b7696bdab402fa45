#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A terminal operation that could not be done, with a message saying what to do instead.
public struct TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
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
        switch kind {
        case let .notATerminal(fd):
            let name = fd == 0 ? "Standard input" : "File descriptor \(fd)"
            return "\(name) is not a terminal, so the full-screen view cannot run. "
                + "Run bok in a terminal, without piping its input."
        case let .settingsFailed(fd, code):
            return "Could not change the terminal settings of file descriptor \(fd): "
                + "\(String(cString: strerror(code))). Try again in a regular terminal window."
        }
    }
}
