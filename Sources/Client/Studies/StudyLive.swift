import Foundation
import Localization
import Synchronization
import TextSafety

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a running study is found by `bok study note` and `bok study watch` from another terminal:
/// a Unix socket in a folder only this user can enter, on this machine alone.
enum StudyRendezvous {
    /// `$XDG_RUNTIME_DIR/bok` when the session has one, else `/tmp/bok-UID`: a folder of mode 700
    /// that this user owns, made when `create` and missing.
    /// - Throws: `UserError` when the folder is someone else's, a link, or open to others.
    static func folder(environment: [String: String], create: Bool) throws -> String? {
        let base: String
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), isDirectory(runtime) {
            base = (runtime as NSString).appendingPathComponent("bok")
        } else {
            base = "/tmp/bok-\(getuid())"
        }
        if create, mkdir(base, 0o700) != 0, errno != EEXIST {
            throw UserError(tr("Could not make the folder {folder} for the study's socket.", ["folder": base]))
        }
        var info = stat()
        guard lstat(base, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw UserError(
                tr(
                    "{folder} is not a private folder of yours (mode 700), so bok will not use it for a study. "
                        + "Remove it, or set XDG_RUNTIME_DIR.",
                    ["folder": base]))
        }
        return base
    }

    /// The socket of the running study, in ``folder(environment:create:)``.
    static func socket(in folder: String) -> String { (folder as NSString).appendingPathComponent("study.sock") }

    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// A connected socket to `path`, or nil when nothing listens there.
    static func connect(_ path: String) -> Int32? {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = self.address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
        }
        return address
    }

    /// Whether `path` fits a socket's address (108 bytes on Linux, its end included).
    static func fits(_ path: String) -> Bool {
        path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path)
    }

    /// Sends all of `data`, never raising SIGPIPE; false when the other end has gone.
    @discardableResult
    static func send(_ fd: Int32, _ data: [UInt8], flags: Int32 = 0) -> Bool {
        var sent = 0
        while sent < data.count {
            let n = data[sent...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, flags | Int32(MSG_NOSIGNAL))
            }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// The line up to `\n` (without it), at most 8 KB; nil when the other end says nothing.
    static func readLine(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 8192 {
            let n = read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            guard n == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A running study's end of the socket (`bok study run`): the moderator's notes go into the
/// participant's recording, attached to the task under way; watchers get the screen so far, then
/// each moment as it is recorded. What is sent is the recording's, PINs already `••••`: never
/// the keys the participant pressed.
final class StudyLiveServer: Sendable {
    /// One line of `bok study watch`'s stream: a moment of the screen, ended by a NUL byte (never
    /// in the text, whose controls are guarded).
    static let frameEnd: UInt8 = 0

    private struct State {
        var listener: Int32
        /// Everything sent so far, for a watcher who joins late.
        var screen: [UInt8] = []
        var watchers: [Int32] = []
        /// The task under way, if one is.
        var task: String?
        var prompt = "bok> "
        /// The prompt is the screen's last line: the participant is at it.
        var atPrompt = false
        var ended = false
    }

    let path: String
    let participant: String
    let study: String
    private let sink: RecordingSink
    private let clock: @Sendable () -> Date
    private let secrets: PINRedactor
    private let state: Mutex<State>

    /// Listens at `path` (mode 600), replacing a socket nobody answers at any more.
    /// - Throws: `UserError` when another study is running there.
    init(
        path: String, participant: String, study: String, sink: RecordingSink, secrets: PINRedactor,
        clock: @escaping @Sendable () -> Date
    ) throws {
        if let other = StudyRendezvous.connect(path) {
            close(other)
            throw UserError(
                tr(
                    "Another study is running for you on this machine: "
                        + "bok study note and bok study watch reach it, not this one."))
        }
        guard StudyRendezvous.fits(path) else {
            throw UserError(
                tr("The socket path {path} is too long. Set XDG_RUNTIME_DIR to a shorter folder.", ["path": path]))
        }
        unlink(path)
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = StudyRendezvous.address(path)
        // Made 600 from the start: no moment when another user could connect.
        let mask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(mask)
        guard fd >= 0, bound == 0, listen(fd, 8) == 0 else {
            if fd >= 0 { close(fd) }
            throw UserError(tr("Could not open the study's socket {path}.", ["path": path]))
        }
        chmod(path, 0o600)
        self.path = path
        self.participant = participant
        self.study = study
        self.sink = sink
        self.secrets = secrets
        self.clock = clock
        state = Mutex(State(listener: fd))
    }

    /// Starts answering, and follows the recording.
    func start() {
        sink.observe { [self] event in self.recorded(event) }
        let listener = state.withLock { $0.listener }
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    return
                }
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                self.serve(client)
            }
        }
    }

    /// Stops answering: watchers are let go, the socket removed.
    func stop() {
        let (listener, watchers) = state.withLock { state -> (Int32, [Int32]) in
            let taken = (state.listener, state.watchers)
            state.listener = -1
            state.watchers = []
            state.ended = true
            return taken
        }
        for fd in watchers { close(fd) }
        guard listener >= 0 else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }

    /// One request: `note TEXT` or `watch`, from this user alone.
    private func serve(_ fd: Int32) {
        // Linux's struct ucred (glibc shows it only with _GNU_SOURCE): pid, uid, gid.
        var credentials = (pid: Int32(0), uid: UInt32.max, gid: UInt32.max)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.uid == getuid()
        else {
            close(fd)
            return
        }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = StudyRendezvous.readLine(fd) else {
            close(fd)
            return
        }
        if request.hasPrefix("note ") {
            note(String(request.dropFirst(5)), reply: fd)
            close(fd)
        } else if request == "watch" {
            watch(fd)
        } else {
            close(fd)
        }
    }

    /// Writes the moderator's note into the recording, on the task under way, and says which.
    private func note(_ text: String, reply fd: Int32) {
        let task = state.withLock { $0.task }
        var event = RecordedEvent(.note, at: clock())
        event.line = secrets.redact(SafeText.line(text))
        event.task = task
        event.moderator = true
        sink.write(event)
        let fields = ["noted", participant, task ?? "", event.at].map { $0.replacing(/[\t\n]/, with: " ") }
        StudyRendezvous.send(fd, Array((fields.joined(separator: "\t") + "\n").utf8))
    }

    /// Sends the screen so far, then keeps the watcher for what comes; lets it go at once when the
    /// sitting is over.
    private func watch(_ fd: Int32) {
        let header = ["watching", participant, study].map { $0.replacing(/[\t\n]/, with: " ") }
        state.withLock { state in
            let sent =
                StudyRendezvous.send(fd, Array((header.joined(separator: "\t") + "\n").utf8))
                && StudyRendezvous.send(fd, state.screen)
            if sent, !state.ended {
                state.watchers.append(fd)
            } else {
                close(fd)
            }
        }
    }

    /// A recorded event: the task it starts or ends, and what the screen showed, to every watcher.
    private func recorded(_ event: RecordedEvent) {
        state.withLock { state in
            switch event.event {
            case .start:
                state.prompt = SafeText.line(event.library ?? "bok") + "> "
            case .marker where event.instruction != nil:
                state.task = event.task
            case .marker where event.outcome != nil:
                state.task = nil
            default:
                break
            }
            var texts = RecordingPlayback.output(event, prompt: state.prompt).map(\.text).filter { !$0.isEmpty }
            // The prompt already waits on the screen: the line typed at it follows it.
            if state.atPrompt, texts.first == state.prompt {
                texts.removeFirst()
                state.atPrompt = false
            }
            // After a task's instruction and after a command's answer the participant is at the prompt
            // again: the watcher sees it there, not only when the next line comes.
            let prompts =
                switch event.event {
                case .command: true
                case .note: event.moderator != true
                case .marker: event.outcome == nil
                case .start, .end, .sus: false
                }
            if prompts, !texts.isEmpty {
                texts.append(state.prompt)
                state.atPrompt = true
            }
            let bytes = texts.flatMap { Array($0.utf8) + [Self.frameEnd] }
            state.screen += bytes
            if !bytes.isEmpty {
                // A watcher that cannot take a moment at once has stopped reading: it is let go.
                state.watchers.removeAll { fd in
                    if StudyRendezvous.send(fd, bytes, flags: Int32(MSG_DONTWAIT)) { return false }
                    close(fd)
                    return true
                }
            }
            if event.event == .end {
                state.ended = true
                for fd in state.watchers { close(fd) }
                state.watchers = []
            }
        }
    }
}
