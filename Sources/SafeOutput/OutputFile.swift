public import Localization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file bok writes at a path that a person or a file (a scenario) named: a WAV, a report.
///
/// Nothing that is already at the path is lost. The bytes go to a temporary file of bok's own
/// beside the target (created with `O_EXCL`, mode 0600); ``commit()`` syncs it and puts it in
/// place only when the target is absent, or a regular file the caller was told to replace
/// (`--force`). A folder gets a file of its own inside it; a device, a FIFO, a socket or a
/// symbolic link is refused. A stopped run (an error, Ctrl-C, SIGTERM) removes the temporary
/// file, and only it: bok never removes anything it did not create.
///
/// Written with POSIX calls rather than `FileManager`, whose `moveItem` and `removeItem` are
/// what replaced folders and devices before: every step here says what it may touch.
public final class OutputFile {
    /// Where the file will be once committed.
    public let path: String
    /// The temporary file beside it.
    private let temporary: String
    private var descriptor: Int32
    private let replacing: Bool
    /// The folder the file is written in.
    public var folder: String { path.lastIndex(of: "/").map { String(path[...$0]) } ?? "." }
    /// Bytes appended so far.
    public private(set) var size: Int64 = 0

    /// Opens a temporary file for `path`.
    /// - Parameters:
    ///   - path: What was asked for (`~` is the home folder). A folder stands for `name` inside it.
    ///   - name: The file's name inside a folder given as `path` (e.g. the book's title and `.wav`).
    ///   - replace: Whether a regular file at the target may be replaced (`--force`).
    /// - Throws: ``OutputFileError`` when the target may not be written.
    public init(path asked: String, name: String, replace: Bool) throws {
        var target = Self.expandingTilde(asked)
        if asked.hasSuffix("/") || Self.isFolder(target) {
            guard Self.isFolder(target) else { throw OutputFileError(.noFolder, path: target) }
            target = (target.hasSuffix("/") ? target : target + "/") + Self.fileName(name)
        }
        try Self.check(target, replace: replace)
        path = target
        replacing = replace
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { String(target[...$0]) } ?? ""
        let base = slash.map { String(target[target.index(after: $0)...]) } ?? target
        // The name is registered for removal before the file is made, so that no moment is left in
        // which a signal would leave it; O_EXCL makes sure the name was free (another is tried if not).
        var attempt = 0
        while true {
            let suffix = String((0..<10).map { _ in Self.nameCharacters.randomElement()! })
            let candidate = folder + "." + base.prefix(80) + ".bok-" + suffix
            OutputCleanup.register(candidate)
            let created = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if created >= 0 {
                descriptor = created
                temporary = candidate
                break
            }
            let code = errno
            OutputCleanup.unregister(candidate)
            attempt += 1
            guard code == EEXIST, attempt < 10 else {
                throw OutputFileError(.notWritable(code), path: folder.isEmpty ? "." : folder)
            }
        }
    }

    deinit { discard() }

    /// Appends `bytes`.
    /// - Throws: ``OutputFileError`` (a full disk, a failed device).
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        try write(bytes, at: size)
        size += Int64(bytes.count)
    }

    /// Writes `bytes` at `offset` (a header filled in at the end).
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        guard descriptor >= 0 else { throw OutputFileError(.writeFailed(EBADF), path: path) }
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw OutputFileError(.writeFailed(n < 0 ? errno : ENOSPC), path: path) }
            done += n
        }
    }

    /// Syncs the file and puts it in place; on any failure nothing is left behind.
    /// - Throws: ``OutputFileError``: the disk was full, or something took the target's place meanwhile.
    public func commit() throws {
        guard descriptor >= 0 else { throw OutputFileError(.writeFailed(EBADF), path: path) }
        defer { discard() }
        guard fsync(descriptor) == 0 else { throw OutputFileError(.writeFailed(errno), path: path) }
        close(descriptor)
        descriptor = -1
        // What is at the target now, not what was there when writing began.
        try Self.check(path, replace: replacing)
        if replacing, Self.kind(path) == .regular {
            guard rename(temporary, path) == 0 else { throw OutputFileError(.writeFailed(errno), path: path) }
        } else {
            // A hard link fails when anything has appeared at the target: nothing is replaced.
            if link(temporary, path) != 0 {
                let code = errno
                guard code == EPERM || code == ENOTSUP || code == EXDEV, Self.kind(path) == nil else {
                    throw code == EEXIST
                        ? OutputFileError(.exists, path: path) : OutputFileError(.writeFailed(code), path: path)
                }
                // A file system without hard links (FAT, some network ones): the check just above stands in.
                guard rename(temporary, path) == 0 else { throw OutputFileError(.writeFailed(errno), path: path) }
            }
        }
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "."
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// Removes the temporary file (a stopped or failed run); the target is never touched.
    public func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if OutputCleanup.unregister(temporary) { unlink(temporary) }
    }

    private static let nameCharacters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    /// What a path is, by `lstat` (a link is not followed).
    enum Kind: Equatable { case regular, folder, link, device, fifo, socket }

    static func kind(_ path: String) -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        default: return .device
        }
    }

    /// A folder, or a link to one (`~/Music` may be a link to another disk).
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether a file may be put at `path`.
    static func check(_ path: String, replace: Bool) throws {
        switch kind(path) {
        case nil:
            let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "."
            guard isFolder(folder) else { throw OutputFileError(.noFolder, path: folder) }
        case .regular?:
            guard replace else { throw OutputFileError(.exists, path: path) }
        case .folder?: throw OutputFileError(.folder, path: path)
        case .link?: throw OutputFileError(.link, path: path)
        case .device?: throw OutputFileError(.device, path: path)
        case .fifo?: throw OutputFileError(.fifo, path: path)
        case .socket?: throw OutputFileError(.socket, path: path)
        }
    }

    /// `name` as one file name: no folder separators, no control characters, not hidden, not too long.
    public static func fileName(_ name: String) -> String {
        var cleaned = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { $0 == "/" || $0.value < 0x20 || $0.value == 0x7F ? "-" : $0 }))
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        if cleaned.utf8.count > 200 {
            let ext = cleaned.lastIndex(of: ".").map { String(cleaned[$0...]) } ?? ""
            var stem = String(cleaned.dropLast(ext.count))
            while stem.utf8.count + ext.utf8.count > 200 { stem.removeLast() }
            cleaned = stem + ext
        }
        return cleaned.isEmpty ? "bok-output" : cleaned
    }

    /// `~` and `~/…` as the home folder.
    static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return path }
        return home + path.dropFirst()
    }
}

/// Why bok would not, or could not, write a file where it was asked to.
public struct OutputFileError: PatronFacingError, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case exists, folder, link, device, fifo, socket, noFolder
        case notWritable(Int32)
        case writeFailed(Int32)
    }
    public let reason: Reason
    /// The path it is about.
    public let path: String

    public init(_ reason: Reason, path: String) {
        self.reason = reason
        self.path = path
    }

    public var description: String { patronMessage }

    /// One line for the patron: what is in the way and what to do.
    public var patronMessage: String {
        switch reason {
        case .exists:
            return tr("{path} already exists. Add --force to replace it, or give another name.", ["path": path])
        case .folder:
            return tr("{path} is a folder. Give the name of a file to write.", ["path": path])
        case .link:
            return tr(
                "{path} is a symbolic link; bok does not write through links. "
                    + "Give the file's own path or another name.",
                ["path": path])
        case .device:
            return tr("{path} is a device, not a file. Give the name of a file to write.", ["path": path])
        case .fifo:
            return tr("{path} is a named pipe, not a file. Give the name of a file to write.", ["path": path])
        case .socket:
            return tr("{path} is a socket, not a file. Give the name of a file to write.", ["path": path])
        case .noFolder:
            return tr("The folder {path} does not exist. Create it first, or give another path.", ["path": path])
        case .notWritable(let code):
            return tr(
                "bok cannot write in {path} ({why}). Check that the folder is yours and writable.",
                ["path": path, "why": String(cString: strerror(code))])
        case .writeFailed(let code):
            return tr(
                "bok could not finish {path} ({why}); nothing was written. Is the disk full?",
                ["path": path, "why": String(cString: strerror(code))])
        }
    }
}
