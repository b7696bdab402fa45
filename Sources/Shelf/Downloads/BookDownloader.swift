#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import Crypto
public import Foundation
#if canImport(FoundationNetworking)
internal import FoundationNetworking
#endif

/// Downloads a book file the way a patron can trust: into `NAME.part`, resumed with `Range` after
/// an interruption, checked against the server's `Repr-Digest` when it sends one, and renamed
/// into place only when whole. A failed download leaves no file at the destination, and no
/// partial file either when the disk was full.
public struct BookDownloader: Sendable {
    /// How long to wait for the server to say anything (the whole download may take longer).
    public var timeout: TimeInterval

    /// Creates a downloader.
    public init(timeout: TimeInterval = 30) {
        self.timeout = timeout
    }

    /// What a download produced.
    public struct Result: Sendable, Hashable {
        /// The complete file.
        public var file: URL
        /// Its size in bytes.
        public var size: Int64
        /// Its SHA-256, lowercase hex.
        public var sha256: String
        /// Bytes already on disk from an earlier, interrupted attempt (0 when it started afresh).
        public var resumedFrom: Int64
        /// How many times the copy was refused and fetched again (a digest that did not match).
        public var refetched: Int
    }

    /// How far a download has come, for a progress bar.
    public struct Progress: Sendable, Hashable {
        /// Bytes on disk so far (an earlier attempt's included).
        public var received: Int64
        /// The file's whole size, when the server says.
        public var total: Int64?
        /// Bytes a second in this attempt.
        public var bytesPerSecond: Double

        /// Creates a report.
        public init(received: Int64, total: Int64?, bytesPerSecond: Double) {
            self.received = received
            self.total = total
            self.bytesPerSecond = bytesPerSecond
        }
    }

    /// Downloads `url` to `destination`.
    ///
    /// - Parameter progress: called now and then with how far it has come (on a background thread).
    /// - Throws: ``DownloadError``; the destination is then untouched.
    @discardableResult
    public func download(from url: URL, to destination: URL,
                         progress: (@Sendable (Progress) -> Void)? = nil) async throws(DownloadError) -> Result {
        let part = destination.appendingPathExtension("part")
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw DownloadError(.cannotWrite, path: destination.path, detail: "\(error.localizedDescription)")
        }
        var refetched = 0
        var resumedFrom: Int64 = 0
        var attempt = 0
        while true {
            attempt += 1
            let have = Self.size(of: part)
            if attempt == 1 { resumedFrom = have }
            let fetch = try await fetch(url, into: part, from: have, progress: progress)
            let sha = try Self.sha256(of: part)
            if let expected = fetch.digest, expected != sha {
                try? FileManager.default.removeItem(at: part)
                // One fresh try: a resumed part may have come from an older copy of the file.
                if refetched == 0 {
                    refetched += 1
                    continue
                }
                throw DownloadError(.checksumMismatch, path: destination.path,
                                    detail: "expected SHA-256 \(expected.prefix(12))…, got \(sha.prefix(12))…")
            }
            do {
                if FileManager.default.fileExists(atPath: destination.path) {
                    _ = try FileManager.default.replaceItemAt(destination, withItemAt: part)
                } else {
                    try FileManager.default.moveItem(at: part, to: destination)
                }
            } catch {
                throw DownloadError(.cannotWrite, path: destination.path, detail: error.localizedDescription)
            }
            return Result(file: destination, size: Self.size(of: destination), sha256: sha, resumedFrom: resumedFrom,
                          refetched: refetched)
        }
    }

    // MARK: - One request

    private struct Fetched {
        /// The SHA-256 the server says the whole file has, lowercase hex.
        var digest: String?
    }

    /// Fetches `url` into `part`, asking for the rest when `offset` bytes are already there.
    private func fetch(_ url: URL, into part: URL, from offset: Int64,
                       progress: (@Sendable (Progress) -> Void)?) async throws(DownloadError) -> Fetched {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        if offset > 0 { request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range") }
        let sink = FileSink(part: part, offset: offset, progress: progress)
        let delegate = StreamingDelegate(sink: sink)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let outcome: StreamingDelegate.Outcome = await withCheckedContinuation { continuation in
            delegate.finished = { continuation.resume(returning: $0) }
            session.dataTask(with: request).resume()
        }
        sink.close()
        switch outcome {
        case .done(let status, let digest):
            switch status {
            case 200, 206: return Fetched(digest: digest)
            case 416:
                // What we have is not a prefix of this file (it changed, or is complete and wrong): start again.
                try? FileManager.default.removeItem(at: part)
                return try await fetch(url, into: part, from: 0, progress: progress)
            case 404, 410:
                try? FileManager.default.removeItem(at: part)
                throw DownloadError(.gone, path: part.deletingPathExtension().path, detail: "HTTP \(status)")
            default:
                throw DownloadError(.server, path: part.deletingPathExtension().path, detail: "HTTP \(status)")
            }
        case .writeFailed(let code):
            // A full disk must not leave a partial file behind, taking up the space that is short.
            try? FileManager.default.removeItem(at: part)
            let kind: DownloadError.Kind = [ENOSPC, EDQUOT, EFBIG].contains(code) ? .diskFull : .cannotWrite
            throw DownloadError(kind, path: part.deletingPathExtension().path, detail: String(cString: strerror(code)))
        case .network(let message):
            // The part stays: the next attempt resumes from it.
            throw DownloadError(.network, path: part.deletingPathExtension().path, detail: message)
        }
    }

    // MARK: - Files

    /// A file's size in bytes, 0 when it is not there.
    public static func size(of file: URL) -> Int64 {
        var info = stat()
        return stat(file.path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// The SHA-256 of a file, read in pieces, lowercase hex.
    public static func sha256(of file: URL) throws(DownloadError) -> String {
        guard let handle = FileHandle(forReadingAtPath: file.path) else {
            throw DownloadError(.cannotRead, path: file.path, detail: "cannot open")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk: Data
            do {
                guard let read = try handle.read(upToCount: 1 << 20), !read.isEmpty else { break }
                chunk = read
            } catch {
                throw DownloadError(.cannotRead, path: file.path, detail: error.localizedDescription)
            }
            hasher.update(data: chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

/// Writes a download's bytes to its part file with `write(2)`, so a full disk is told apart
/// from other failures by its errno.
final class FileSink: @unchecked Sendable {
    // Touched only from the URLSession delegate queue, one callback at a time, and by close() after it.
    private var descriptor: Int32 = -1
    private let part: URL
    private var offset: Int64
    private(set) var received: Int64 = 0
    private(set) var total: Int64?
    private let started = Date()
    private var lastReport = Date.distantPast
    private let progress: (@Sendable (BookDownloader.Progress) -> Void)?

    init(part: URL, offset: Int64, progress: (@Sendable (BookDownloader.Progress) -> Void)?) {
        self.part = part
        self.offset = offset
        self.progress = progress
    }

    /// Opens the file for this answer: appended to for 206, truncated for anything else.
    func begin(status: Int, contentLength: Int64?) -> Int32? {
        let append = status == 206
        if !append { offset = 0 }
        total = contentLength.map { $0 + offset }
        let flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC)
        descriptor = open(part.path, flags, 0o644)
        return descriptor < 0 ? errno : nil
    }

    /// Writes a piece; returns the errno when it could not.
    func write(_ data: Data) -> Int32? {
        let failure: Int32? = data.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(descriptor, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return nil
        }
        if failure != nil { return failure }
        received += Int64(data.count)
        let now = Date()
        if let progress, now.timeIntervalSince(lastReport) >= 0.1 || (total.map { offset + received >= $0 } ?? false) {
            lastReport = now
            let seconds = max(0.001, now.timeIntervalSince(started))
            progress(BookDownloader.Progress(received: offset + received, total: total,
                                             bytesPerSecond: Double(received) / seconds))
        }
        return nil
    }

    /// True when fewer bytes arrived than the server promised.
    var isShort: Bool { total.map { offset + received < $0 } ?? false }

    /// Flushes to disk and closes: the rename that follows must not publish a file still in memory.
    func close() {
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        Glibc.close(descriptor)
        descriptor = -1
    }
}

/// Receives an answer piece by piece and hands each to the sink.
final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Outcome: Sendable {
        case done(status: Int, digest: String?)
        case writeFailed(Int32)
        case network(String)
    }

    private let sink: FileSink
    private var status = 0
    private var digest: String?
    private var failure: Int32?
    /// Called once with the outcome (set before the task starts).
    var finished: (@Sendable (Outcome) -> Void)?

    init(sink: FileSink) { self.sink = sink }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        status = http?.statusCode ?? 0
        digest = (http?.value(forHTTPHeaderField: "Repr-Digest")).flatMap(Self.sha256Digest)
        guard status == 200 || status == 206 else { completionHandler(.allow); return }
        let length = response.expectedContentLength
        if let code = sink.begin(status: status, contentLength: length >= 0 ? length : nil) {
            failure = code
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil, status == 200 || status == 206 else { return }
        if let code = sink.write(data) {
            failure = code
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let outcome: Outcome
        if let failure {
            outcome = .writeFailed(failure)
        } else if let error {
            outcome = .network(error.localizedDescription)
        } else if status == 200 || status == 206, sink.isShort {
            outcome = .network("the connection closed before the whole book had arrived")
        } else {
            outcome = .done(status: status, digest: digest)
        }
        finished?(outcome)
        finished = nil
    }

    /// The SHA-256 in `sha-256=:BASE64:` (RFC 9530), as lowercase hex.
    static func sha256Digest(_ header: String) -> String? {
        for item in header.split(separator: ",") {
            let parts = item.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "sha-256" else { continue }
            let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: ":"))
            guard let data = Data(base64Encoded: value), data.count == 32 else { return nil }
            return data.map { String(format: "%02x", $0) }.joined()
        }
        return nil
    }
}

/// Why a download failed, in words a patron can act on.
public struct DownloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// No space left (or over a quota or file size limit).
        case diskFull
        /// The file could not be written for another reason.
        case cannotWrite
        /// A file could not be read back.
        case cannotRead
        /// The network failed; the part on disk is kept for a resume.
        case network
        /// The server no longer has the file (the loan ended).
        case gone
        /// The server answered with an error.
        case server
        /// The copy did not match the server's digest, twice.
        case checksumMismatch
    }

    /// What went wrong.
    public let kind: Kind
    /// The file concerned.
    public let path: String
    /// The technical detail (an errno text, an HTTP status).
    public let detail: String

    init(_ kind: Kind, path: String, detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var description: String {
        switch kind {
        case .diskFull:
            "The disk is full: the download of \(path) stopped and its partial file was removed (\(detail)). Free some space and try again."
        case .cannotWrite:
            "Could not write \(path) (\(detail)). Check that the directory is writable."
        case .cannotRead:
            "Could not read \(path) (\(detail))."
        case .network:
            "The download stopped (\(detail)). Try again: it resumes where it stopped."
        case .gone:
            "The library no longer offers this file (\(detail)): the loan may have ended."
        case .server:
            "The library could not send the book (\(detail)). Try again later."
        case .checksumMismatch:
            "The library sent a damaged copy twice (\(detail)); nothing was kept. Try again later."
        }
    }
}
