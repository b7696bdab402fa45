internal import Catalog
internal import Crypto
public import Foundation
public import Localization
internal import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Downloads a book file the way a patron can trust: into `NAME.part`, resumed with `Range` after
/// an interruption, checked against the server's `Repr-Digest` when it sends one, and renamed
/// into place only when whole. A failed download leaves no file at the destination, and no
/// partial file either when the disk was full. Processes that may fetch the same file hold a
/// ``DownloadLock`` around looking, downloading and recording.
///
/// A hostile server cannot make it loop, wait or fill the disk without end: at most three
/// requests per download (a refused resume starts over once, a damaged copy is fetched again
/// once), the answer's head within `timeout` and the whole within `maxDuration`, and no more
/// bytes than the book's stated size plus slack (``maxBytes(statedSize:)``), checked while the
/// bytes stream in.
public struct BookDownloader: Sendable {
    /// How long to wait for the server to say anything (and, after that, the longest silence).
    public var timeout: TimeInterval
    /// The longest a whole download may take.
    public var maxDuration: TimeInterval

    /// The largest book accepted when the library states no size (EPUBs are rarely over 100 MB).
    public static let defaultMaxBytes: Int64 = 256 << 20

    /// Creates a downloader.
    public init(timeout: TimeInterval = 30, maxDuration: TimeInterval = 600) {
        self.timeout = timeout
        self.maxDuration = maxDuration
    }

    /// The most bytes accepted for a book the library says has `statedSize` bytes: 10 % (at least
    /// 1 MB) of slack over it, or ``defaultMaxBytes`` when no size is stated.
    public static func maxBytes(statedSize: Int64?) -> Int64 {
        guard let statedSize, statedSize > 0 else { return defaultMaxBytes }
        return statedSize + max(statedSize / 10, 1 << 20)
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
    /// - Parameters:
    ///   - statedSize: the book's size as the library's product states it, when known.
    ///   - progress: called now and then with how far it has come (on a background thread).
    /// - Throws: ``DownloadError``; the destination is then untouched.
    @discardableResult
    ///   - authorization: an `Authorization` header value, sent only to `url`'s own origin (a
    ///     redirect elsewhere goes without it).
    public func download(
        from url: URL, to destination: URL, statedSize: Int64? = nil, authorization: String? = nil,
        expecting format: Format? = nil, progress: (@Sendable (Progress) -> Void)? = nil
    ) async throws(DownloadError) -> Result {
        let limit = Self.maxBytes(statedSize: statedSize)
        let part = destination.appendingPathExtension("part")
        do {
            // A patron's books are theirs alone: the folder 0700, the files 0600.
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw DownloadError(.cannotWrite, path: destination.path, detail: "\(error.localizedDescription)")
        }
        var refetched = 0
        var restarted = false
        var resumedFrom: Int64 = 0
        var attempt = 0
        // At most three requests: the first, one fresh start after a refused resume, one refetch after a bad digest.
        while true {
            attempt += 1
            let have = Self.size(of: part)
            if attempt == 1 { resumedFrom = have }
            let fetch: Fetched
            switch try await self.fetch(
                url, into: part, from: have, limit: limit, authorization: authorization, progress: progress)
            {
            case .fetched(let fetched):
                fetch = fetched
            case .startAfresh(let status):
                // What we have is not a prefix of this file (it changed): one fresh start, never a loop.
                try? FileManager.default.removeItem(at: part)
                guard have > 0, !restarted else {
                    throw DownloadError(
                        .server, path: destination.path, detail: "HTTP \(status) to a request for the whole file")
                }
                restarted = true
                continue
            }
            let sha = try Self.sha256(of: part)
            if let expected = fetch.digest, expected != sha {
                try? FileManager.default.removeItem(at: part)
                // One fresh try: a resumed part may have come from an older copy of the file.
                if refetched == 0 {
                    refetched += 1
                    continue
                }
                throw DownloadError(
                    .checksumMismatch, path: destination.path,
                    detail: "expected SHA-256 \(expected.prefix(12))…, got \(sha.prefix(12))…")
            }
            if let format, !format.isWhole(part) {
                try? FileManager.default.removeItem(at: part)
                throw DownloadError(.notThatFormat, path: destination.path, detail: "not a whole \(format)")
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
            return Result(
                file: destination, size: Self.size(of: destination), sha256: sha, resumedFrom: resumedFrom,
                refetched: refetched)
        }
    }

    /// A format a download must be in to be kept.
    public enum Format: Sendable, CustomStringConvertible {
        /// An EPUB: a zip whose end (the central directory) is there, not an HTML page, a gzip
        /// stream or a zip cut short. (The reader checks the rest when the book opens.)
        case epub

        public var description: String { "EPUB" }

        /// Whether the file at `url` is a whole file of this format; reads its first bytes and
        /// its last 64 KB, however large it is.
        func isWhole(_ url: URL) -> Bool {
            guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
            defer { try? handle.close() }
            guard let size = try? handle.seekToEnd(), size >= 22 else { return false }
            try? handle.seek(toOffset: 0)
            guard let head = try? handle.read(upToCount: 4), head == Data([0x50, 0x4B, 0x03, 0x04]) else {
                return false
            }
            // The end of central directory record: within the last 22 + 65 535 bytes (its comment).
            let tailStart = size > 65_557 ? size - 65_557 : 0
            try? handle.seek(toOffset: tailStart)
            guard let tail = try? handle.readToEnd().map(Array.init) else { return false }
            var index = tail.count - 22
            while index >= 0 {
                if tail[index] == 0x50, tail[index + 1] == 0x4B, tail[index + 2] == 0x05, tail[index + 3] == 0x06 {
                    func u32(_ at: Int) -> UInt64 {
                        UInt64(tail[at]) | UInt64(tail[at + 1]) << 8 | UInt64(tail[at + 2]) << 16
                            | UInt64(tail[at + 3]) << 24
                    }
                    let directorySize = u32(index + 12)
                    let directoryOffset = u32(index + 16)
                    // Zip64 keeps 0xFFFFFFFF here and the real figures elsewhere: trust the record's presence.
                    if directoryOffset == 0xFFFF_FFFF { return true }
                    return directoryOffset + directorySize <= tailStart + UInt64(index)
                }
                index -= 1
            }
            return false
        }
    }

    // MARK: - One request

    private struct Fetched {
        /// The SHA-256 the server says the whole file has, lowercase hex.
        var digest: String?
    }

    private enum Fetch {
        case fetched(Fetched)
        /// The server refused the resume (416) or sent another range: start from the first byte.
        case startAfresh(status: Int)
    }

    /// Redirects followed per request (to any http(s) origin: a book file may sit on a content
    /// server of its own, and its URL carries no card number or checksum).
    static let maxRedirects = 5

    /// Fetches `url` into `part`, asking for the rest when `offset` bytes are already there.
    private func fetch(
        _ url: URL, into part: URL, from offset: Int64, limit: Int64, authorization: String?,
        progress: (@Sendable (Progress) -> Void)?
    ) async throws(DownloadError) -> Fetch {
        let origin = Origin(url)
        let path = part.deletingPathExtension().path
        // The whole download within `maxDuration`, and no silence (below a byte a second) longer
        // than `timeout`: libcurl's own limits, so a dripping server cannot hold it for ever.
        let transfer = HTTPTransfer(timeout: maxDuration, connectTimeout: timeout, stallTimeout: timeout)
        var url = url
        var redirects = 0
        while true {
            let sink = FileSink(part: part, offset: offset, progress: progress)
            let receiver = DownloadReceiver(sink: sink, limit: limit)
            let headers =
                [("Accept", "application/epub+zip, */*;q=0.5"), ("User-Agent", "bok/0.1")]
                + (offset > 0 ? [("Range", "bytes=\(offset)-")] : [])
                + (authorization.flatMap { Origin(url) == origin ? [("Authorization", $0)] : nil } ?? [])
            var transferFailure: HTTPTransfer.Failure?
            do {
                _ = try await transfer.perform(
                    url: url, headers: headers,
                    onHead: { receiver.begin($0) }, onData: { receiver.receive($0) })
            } catch {
                transferFailure = error
            }
            sink.close()
            let outcome = receiver.outcome
            switch outcome.stop {
            case .redirect(let location)?:
                guard redirects < Self.maxRedirects, let target = URL(string: location, relativeTo: url)?.absoluteURL,
                    ["http", "https"].contains(target.scheme?.lowercased() ?? "")
                else {
                    throw DownloadError(
                        .server, path: path, detail: "HTTP \(outcome.status) to an address bok does not follow")
                }
                redirects += 1
                url = target
                continue
            case .status?:
                switch outcome.status {
                case 416:
                    return .startAfresh(status: 416)
                case 404, 410:
                    try? FileManager.default.removeItem(at: part)
                    throw DownloadError(.gone, path: path, detail: "HTTP \(outcome.status)")
                default:
                    // The part (if any) is untouched: a 5xx now does not spoil a resume later.
                    throw DownloadError(.server, path: path, detail: "HTTP \(outcome.status)")
                }
            case .wrongRange?:
                return .startAfresh(status: 206)
            case .tooLarge?:
                // Refused while streaming: the part holds at most the limit, and is of no use.
                try? FileManager.default.removeItem(at: part)
                throw DownloadError(.tooLarge, path: path, detail: Self.megabytes(limit))
            case .writeFailed(let code)?:
                // A full disk must not leave a partial file behind, taking up the space that is short.
                try? FileManager.default.removeItem(at: part)
                let kind: DownloadError.Kind = [ENOSPC, EDQUOT, EFBIG].contains(code) ? .diskFull : .cannotWrite
                throw DownloadError(kind, path: path, detail: String(cString: strerror(code)))
            case nil:
                break
            }
            if let transferFailure {
                // The part stays: the next attempt resumes from it.
                switch transferFailure.kind {
                case .cancelled:
                    throw DownloadError(.cancelled, path: path, detail: "cancelled")
                case .timedOut:
                    let slow = sink.received > 0 || offset > 0
                    throw DownloadError(
                        .network, path: path,
                        detail: slow
                            ? """
                            the library sent too slowly: nothing for \(Int(timeout)) s, or not all within \
                            \(Int(maxDuration / 60)) minutes
                            """
                            : "the library did not answer within \(Int(timeout)) s",
                        reason: slow
                            ? tr("the library sent it too slowly")
                            : tr("the library did not answer within {seconds} s", ["seconds": Int(timeout)]))
                case .cannotConnect, .cannotFindHost:
                    throw DownloadError(
                        .network, path: path, detail: "cannot reach the library's server: \(transferFailure)",
                        reason: tr("bok cannot reach the library's server"))
                default:
                    throw DownloadError(
                        .network, path: path, detail: "the connection closed early: \(transferFailure)",
                        reason: tr("the connection closed before the whole book had arrived"))
                }
            }
            if sink.isShort {
                throw DownloadError(
                    .network, path: path, detail: "the connection closed before the whole book had arrived",
                    reason: tr("the connection closed before the whole book had arrived"))
            }
            return .fetched(Fetched(digest: outcome.digest))
        }
    }

    static func megabytes(_ bytes: Int64) -> String {
        "\(max(1, (bytes + (1 << 19)) >> 20)) MB"
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
    // Touched only by curl's callbacks on the transfer's thread, one at a time, and by close() after it.
    private var descriptor: Int32 = -1
    private let part: URL
    private(set) var offset: Int64
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
        descriptor = open(part.path, flags, 0o600)
        return descriptor < 0 ? errno : nil
    }

    /// Writes a piece; returns the errno when it could not.
    func write(_ raw: UnsafeRawBufferPointer) -> Int32? {
        var done = 0
        while done < raw.count {
            // write(2) by its module's name: this method's own name would shadow it.
            #if canImport(Glibc)
            let n = Glibc.write(descriptor, raw.baseAddress! + done, raw.count - done)
            #else
            let n = Darwin.write(descriptor, raw.baseAddress! + done, raw.count - done)
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += n
        }
        received += Int64(raw.count)
        let now = Date()
        if let progress, now.timeIntervalSince(lastReport) >= 0.1 || (total.map { offset + received >= $0 } ?? false) {
            lastReport = now
            let seconds = max(0.001, now.timeIntervalSince(started))
            progress(
                BookDownloader.Progress(
                    received: offset + received, total: total,
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

/// Receives one answer for a download: decides from its head whether to write it, and writes
/// it piece by piece within the limit. curl calls it on the transfer's thread, one call at a time.
final class DownloadReceiver: Sendable {
    /// Why the receiver stopped the transfer itself.
    enum Stop: Sendable {
        /// A redirect, to this location.
        case redirect(String)
        /// A status other than 200 or 206 (see `status`).
        case status
        /// More bytes than the limit, announced or sent.
        case tooLarge
        /// A 206 whose range does not start where the part ends.
        case wrongRange
        /// The part could not be written: this errno.
        case writeFailed(Int32)
    }

    struct Outcome: Sendable {
        var status = 0
        var digest: String?
        var stop: Stop?
    }

    private let sink: FileSink
    private let limit: Int64
    private let state = Mutex(Outcome())

    init(sink: FileSink, limit: Int64) {
        self.sink = sink
        self.limit = limit
    }

    var outcome: Outcome { state.withLock { $0 } }

    private func stop(_ reason: Stop) -> Bool {
        state.withLock { $0.stop = reason }
        return false
    }

    /// The answer's head: true to read its body into the part.
    func begin(_ head: HTTPTransfer.Head) -> Bool {
        state.withLock { state in
            state.status = head.status
            state.digest = head.value("Repr-Digest").flatMap(Self.sha256Digest)
        }
        if [301, 302, 303, 307, 308].contains(head.status), let location = head.value("Location") {
            return stop(.redirect(location))
        }
        guard head.status == 200 || head.status == 206 else { return stop(.status) }
        if head.status == 206, Self.rangeStart(head.value("Content-Range")) != sink.offset {
            return stop(.wrongRange)
        }
        let length = head.contentLength
        if let length, (head.status == 206 ? sink.offset : 0) + length > limit {
            return stop(.tooLarge)
        }
        if let code = sink.begin(status: head.status, contentLength: length) {
            return stop(.writeFailed(code))
        }
        return true
    }

    /// A piece of the body: written, unless it would pass the limit (then nothing more is read).
    func receive(_ piece: UnsafeRawBufferPointer) -> Bool {
        guard sink.offset + sink.received + Int64(piece.count) <= limit else { return stop(.tooLarge) }
        if let code = sink.write(piece) { return stop(.writeFailed(code)) }
        return true
    }

    /// Where a `Content-Range: bytes START-END/TOTAL` starts.
    static func rangeStart(_ header: String?) -> Int64? {
        guard let header, let spec = header.split(separator: " ").last,
            let first = spec.split(separator: "-").first
        else { return nil }
        return Int64(first)
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

/// Why a download failed, in words a patron can act on; the technical detail (an errno text, an
/// HTTP status, a checksum) is kept in ``detail`` for the debug log, never shown.
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
        /// The server sent more than the book's stated size (plus slack).
        case tooLarge
        /// The patron cancelled it; the part is kept for a resume.
        case cancelled
        /// Another bok was downloading the same file for longer than a download may take.
        case busy
        /// What came is not the format asked for (an HTML page, a truncated zip, a gzip stream).
        case notThatFormat
    }

    /// What went wrong.
    public let kind: Kind
    /// The file concerned.
    public let path: String
    /// The technical detail (an errno text, an HTTP status), for the debug log.
    public let detail: String
    /// Why a network failure happened, in the patron's words.
    let reason: String?
    /// The book as the message names it (`“Vintern 1953”`); nil says "the book".
    public private(set) var book: String?
    /// The command that tries again (`read 3`), when the caller knows one.
    public private(set) var retry: String?

    init(_ kind: Kind, path: String, detail: String, reason: String? = nil) {
        self.kind = kind
        self.path = path
        self.detail = detail
        self.reason = reason
    }

    /// The same error, naming `book` (quoted as the patron sees titles) and the command that tries again.
    public func about(book: String, retry: String?) -> DownloadError {
        var named = self
        named.book = book
        named.retry = retry
        return named
    }

    public var description: String {
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            "book": book ?? tr("the book"), "command": retry ?? "",
            "reason": reason ?? tr("the connection was lost"),
            "folder": URL(fileURLWithPath: path).deletingLastPathComponent().path,
        ]
        let again = retry != nil
        switch kind {
        case .diskFull:
            return again
                ? tr(
                    "The disk is full: the download of {book} stopped and its partial file was removed. "
                        + "Free some space, then type {command}.", values)
                : tr(
                    "The disk is full: the download of {book} stopped and its partial file was removed. "
                        + "Free some space and try again.", values)
        case .cannotWrite:
            return tr("Could not save {book} in {folder}. Check that the folder is yours and writable.", values)
        case .cannotRead:
            return tr("Could not read {book} back from {folder}. Check that the folder is yours.", values)
        case .network:
            return again
                ? tr("The download of {book} stopped: {reason}. Type {command} to go on from where it stopped.", values)
                : tr("The download of {book} stopped: {reason}. Try again: it goes on from where it stopped.", values)
        case .gone:
            return tr("The library no longer offers {book} for download: the loan may have ended.", values)
        case .server:
            return tr("The library could not send {book} just now. Try again later.", values)
        case .checksumMismatch:
            return again
                ? tr(
                    "The download of {book} was damaged on the way, twice; nothing was kept. "
                        + "Type {command} to fetch it again.", values)
                : tr(
                    "The download of {book} was damaged on the way, twice; nothing was kept. Try again later.", values)
        case .cancelled:
            return tr("The download of {book} was cancelled; it goes on from where it stopped next time.", values)
        case .busy:
            return tr("Another bok has been downloading {book} for too long; close it or try again later.", values)
        case .tooLarge:
            return tr(
                "The library sent far more than {book} should take, so bok stopped and kept nothing. "
                    + "Try again later, or tell the library.", values)
        case .notThatFormat:
            return tr(
                "What the library sent for {book} is not a whole EPUB file (a web page, or a file cut short), "
                    + "so bok kept nothing. Try again later, or tell the library.", values)
        }
    }
}

extension DownloadError: PatronFacingError {
    public var patronMessage: String { description }
}
