public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One download of a book at a time, across every bok process of the user: an exclusive `flock`
/// on a lock file of that book, held from looking at what is on disk to recording what was
/// downloaded.
///
/// Two REPLs adding the same sample had written one `.part` together, renamed it under each
/// other, and one had removed a file the other was replacing (its checksum looked wrong
/// half-way), leaving rows for files that were gone. Holding this lock, the second finds the
/// first one's file recorded and takes it instead of fetching it again.
/// The lock file stays (removing it would let a third process lock a file no one else sees);
/// `flock` locks go with the process, so a killed bok never leaves a book locked.
public final class DownloadLock {
    private var descriptor: Int32

    /// Takes the lock `file`, waiting (asleep, not spinning) while another process holds it.
    /// - Parameters:
    ///   - waiting: called once when another process holds it (with that process's id, when the
    ///     file says), before waiting, and once more with nil when the wait is over.
    /// - Throws: `DownloadError` when the lock file cannot be made, the task is cancelled, or the
    ///   other process holds it longer than `timeout`.
    public init(
        file: URL, timeout: TimeInterval, waiting: (@Sendable (_ holder: Int32?, _ over: Bool) -> Void)? = nil
    ) async throws(DownloadError) {
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw DownloadError(
                .cannotWrite, path: file.deletingLastPathComponent().path, detail: error.localizedDescription)
        }
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw DownloadError(.cannotWrite, path: file.path, detail: String(cString: strerror(errno)))
        }
        let deadline = Date().addingTimeInterval(timeout)
        var told = false
        defer { if told { waiting?(nil, true) } }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline, !Task.isCancelled else {
                let cancelled = Task.isCancelled
                close(descriptor)
                throw DownloadError(
                    cancelled ? .cancelled : .busy, path: file.path, detail: "another bok is downloading it")
            }
            if !told {
                told = true
                waiting?(Self.holder(descriptor), false)
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        // Who holds it, for a process that comes to wait: this process's id, in the file.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 { _ = pwrite(descriptor, pid, pid.count, 0) }
        self.descriptor = descriptor
    }

    /// The process id the holder wrote into the lock file.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Lets the next process have it.
    public func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
