import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pager (`less`, `more`, `most`, or whatever the patron names) that long output is piped
/// through at a terminal, started as git starts one.
///
/// A command made of plain words (`less -R`) is started directly, so one that does not exist is
/// known at once; anything with the shell's characters (`sh -c '…'`, `less | tee`) goes to
/// `/bin/sh -c`. The pager gets the text on its standard input and the terminal as its output;
/// bok waits until the patron leaves it, ignoring Ctrl-C meanwhile (the pager has it).
public struct Pager: Sendable, Equatable {
    /// The command as the patron gave it.
    public let command: String

    /// The pager run when the patron names none: less, which quits by itself when the text fits
    /// the window (F), passes colours on (R) and leaves the last page on screen (X).
    public static let standard = Pager(command: "less")

    public init(command: String) { self.command = command }

    /// The environment the pager runs in: `environment` with `LESS=FRX` and `LV=-c` when they are
    /// unset, as git sets them.
    public static func environment(_ environment: [String: String]) -> [String: String] {
        var result = environment
        if result["LESS"] == nil { result["LESS"] = "FRX" }
        if result["LV"] == nil { result["LV"] = "-c" }
        return result
    }

    /// Pipes `text` through the pager and waits for it to end.
    /// - Parameter environment: The process's environment (``environment(_:)`` adds less's options).
    /// - Returns: False when the pager could not be started or could not run (nothing was shown),
    ///   so the caller prints the text itself.
    public func show(_ text: String, environment: [String: String]) -> Bool {
        guard let argv = arguments else { return false }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // The pager must not hold the write end open: it would never see the end of the text.
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { if readEnd >= 0 { close(readEnd) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The pager starts with every signal at its default and none blocked, whatever bok ignores.
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = Self.environment(environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in cArguments + cEnvironment { free(pointer) } }
        var child: pid_t = 0
        guard posix_spawnp(&child, argv[0], &actions, &attributes, cArguments, cEnvironment) == 0 else {
            close(writeEnd)
            return false
        }
        close(readEnd)

        // Ctrl-C and Ctrl-\ are the pager's while it runs; a pager quit before the end (q) must not
        // end bok with SIGPIPE.
        var ignore = sigaction()
        #if canImport(Glibc)
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        #else
        ignore.__sigaction_u.__sa_handler = SIG_IGN
        #endif
        sigemptyset(&ignore.sa_mask)
        var saved: [sigaction] = Array(repeating: sigaction(), count: 3)
        let held = [SIGINT, SIGQUIT, SIGPIPE]
        for (index, signal) in held.enumerated() { sigaction(signal, &ignore, &saved[index]) }
        defer { for (index, signal) in held.enumerated() { sigaction(signal, &saved[index], nil) } }

        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeMutableBytes { write(writeEnd, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        bytes.removeAll()
        close(writeEnd)

        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        // 127: the shell found no such command (it said so on stderr); the text was never shown.
        let exited = status & 0x7F == 0
        return !(exited && (status >> 8) & 0xFF == 127)
    }

    /// The words to start: the command itself when it is plain words, else the shell with it.
    var arguments: [String]? {
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !words.isEmpty else { return nil }
        let shellCharacters = Set("|&;<>()$`\\\"'*?[#~=%{}\n")
        if command.contains(where: { shellCharacters.contains($0) }) { return ["/bin/sh", "-c", command] }
        return words
    }
}
