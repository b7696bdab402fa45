internal import CCurl
internal import Dispatch
public import Foundation
internal import Synchronization

#if canImport(Glibc)
internal import Glibc
#endif

/// One HTTP exchange through libcurl, with the bounds bok needs against a hostile server and
/// nothing else: a total deadline over connect, headers and body; an optional stall limit; and
/// a body handed over piece by piece to a callback that can stop the exchange at once.
///
/// Why not URLSession: swift-corelibs-foundation reads a body as fast as the server sends it and
/// queues every piece for the delegate, so a delegate that refuses a 1 GB answer at 16 MB still
/// sees the process grow past 1 GB before its cancel lands (measured: 1.17 GB peak, see
/// docs/security.md); it also restarts its timeout with every byte, and cancelling its async
/// `data(for:)` as it completes deadlocks. Here the callbacks run synchronously on the thread that
/// reads the socket, so stopping means curl reads nothing more; cancellation only sets a flag that
/// curl's progress callback reads, so no lock is ever held across a cancel. Redirects are not
/// followed here: callers decide, origin by origin.
public struct HTTPTransfer: Sendable {
    /// Starts loading libcurl on a thread of its own, for a process that will soon make an
    /// exchange (a one-shot `bok search`): the load overlaps the rest of bok's start.
    public static func preload() { bok_curl_preload() }

    /// Waits for a load ``preload()`` started, if any: a process must not exit while it runs (a
    /// one-shot that only printed its completions crashed in OpenSSL's exit handler one run in two).
    public static func finishPreload() { bok_curl_finish_preload() }

    /// The status and headers of an answer.
    public struct Head: Sendable {
        /// The HTTP status.
        public var status: Int
        /// Header values by lower-case name (the last one wins).
        public var headers: [String: String]

        /// The value of a header, by any case of its name.
        public func value(_ name: String) -> String? { headers[name.lowercased()] }

        /// `Content-Length`, when given.
        public var contentLength: Int64? {
            value("Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    // Not patron-facing: BoundedExchange and the downloader turn it into their own errors.
    /// Why an exchange ended without a whole answer.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What kind of failure.
        public enum Kind: Sendable, Equatable {
            /// The deadline (or the stall limit) passed.
            case timedOut
            /// No connection (refused).
            case cannotConnect
            /// The host name did not resolve.
            case cannotFindHost
            /// The connection broke, or closed before the answer was whole.
            case dropped
            /// A callback stopped it.
            case stopped
            /// The Swift task was cancelled.
            case cancelled
            /// Anything else (TLS, protocol): the detail says what, for logs.
            case other
        }

        /// What kind of failure.
        public let kind: Kind
        /// curl's own words, for logs, never for a patron.
        public let detail: String

        public var description: String { "\(kind): \(detail)" }
    }

    /// Seconds the whole exchange may take.
    public var timeout: TimeInterval
    /// Seconds the connection may take to open (never more than `timeout`).
    public var connectTimeout: TimeInterval
    /// Seconds without a byte from the server after which the exchange ends; nil for none.
    public var stallTimeout: TimeInterval?

    /// Creates a transfer with these bounds.
    public init(timeout: TimeInterval, connectTimeout: TimeInterval? = nil, stallTimeout: TimeInterval? = nil) {
        self.timeout = timeout
        self.connectTimeout = min(connectTimeout ?? timeout, timeout)
        self.stallTimeout = stallTimeout
    }

    /// Sends one request and hands over its answer: the head once it is whole, then the body in pieces.
    ///
    /// - Parameters:
    ///   - onHead: called with the status and headers; false stops the exchange (a `Failure.stopped`).
    ///   - onData: called with each piece of the body; false stops the exchange at once.
    /// - Returns: the head of the answer.
    /// - Throws: ``Failure``.
    public func perform(
        url: URL, method: String = "GET", headers: [(String, String)] = [], body: Data? = nil,
        onHead: @escaping @Sendable (Head) -> Bool = { _ in true },
        onData: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool
    ) async throws(Failure) -> Head {
        let context = TransferContext(onHead: onHead, onData: onData, stallTimeout: stallTimeout)
        let (timeout, connect, stall) = (self.timeout, connectTimeout, stallTimeout)
        let lines = headers.map { "\($0.0): \($0.1)" }
        let result: Result<Head, Failure> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own: curl blocks it, and the cooperative pool must never be blocked.
                let thread = Thread {
                    continuation.resume(
                        returning: Self.run(
                            url: url.absoluteString, method: method, headers: lines, body: body,
                            timeout: timeout, connectTimeout: connect, stall: stall, context: context))
                }
                thread.start()
            }
        } onCancel: {
            context.cancelled.store(true, ordering: .relaxed)
        }
        return try result.get()
    }

    private static func run(
        url: String, method: String, headers: [String], body: Data?, timeout: TimeInterval,
        connectTimeout: TimeInterval, stall: TimeInterval?, context: TransferContext
    ) -> Result<Head, Failure> {
        let cURL = strdup(url)
        let cMethod = strdup(method)
        let cHeaders: [UnsafePointer<CChar>?] = headers.map { UnsafePointer(strdup($0)) }
        defer {
            free(cURL)
            free(cMethod)
            for header in cHeaders { free(UnsafeMutablePointer(mutating: header)) }
        }
        let unmanaged = Unmanaged.passRetained(context)
        defer { unmanaged.release() }
        var error = [CChar](repeating: 0, count: 512)
        let bodyBytes = body ?? Data()
        let code: Int32 = bodyBytes.withUnsafeBytes { rawBody in
            cHeaders.withUnsafeBufferPointer { headerPointers in
                var request = bok_curl_request()
                request.url = UnsafePointer(cURL)
                request.method = UnsafePointer(cMethod)
                request.headers = headerPointers.baseAddress
                request.header_count = Int32(headerPointers.count)
                request.body = body == nil ? nil : rawBody.baseAddress
                request.body_length = rawBody.count
                request.timeout_ms = max(1, Int(timeout * 1000))
                request.connect_timeout_ms = max(1, Int(connectTimeout * 1000))
                // The stall limit is kept in `should_abort`, not curl's low-speed limit, which averages
                // over a 5 s window (a 1 s limit took 7 s to end a stalled transfer).
                request.context = unmanaged.toOpaque()
                request.on_header = { context, line, length in
                    Unmanaged<TransferContext>.fromOpaque(context!).takeUnretainedValue().header(line!, length) ? 1 : 0
                }
                request.on_data = { context, data, length in
                    Unmanaged<TransferContext>.fromOpaque(context!).takeUnretainedValue().data(data!, length) ? 1 : 0
                }
                request.should_abort = { context in
                    Unmanaged<TransferContext>.fromOpaque(context!).takeUnretainedValue().shouldAbort() ? 1 : 0
                }
                return error.withUnsafeMutableBufferPointer { bok_curl_perform(&request, $0.baseAddress) }
            }
        }
        let detail = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if code == 0, let head = context.head { return .success(head) }
        if context.cancelled.load(ordering: .relaxed) { return .failure(Failure(kind: .cancelled, detail: detail)) }
        if context.stalled.load(ordering: .relaxed) {
            return .failure(Failure(kind: .timedOut, detail: "nothing arrived for \(Int(stall ?? 0)) s"))
        }
        if context.stopped { return .failure(Failure(kind: .stopped, detail: detail)) }
        let kind: Failure.Kind
        switch code {
        case Int32(BOK_CURLE_OPERATION_TIMEDOUT): kind = .timedOut
        case Int32(BOK_CURLE_COULDNT_CONNECT): kind = .cannotConnect
        case Int32(BOK_CURLE_COULDNT_RESOLVE_HOST): kind = .cannotFindHost
        case Int32(BOK_CURLE_PARTIAL_FILE), Int32(BOK_CURLE_GOT_NOTHING), Int32(BOK_CURLE_RECV_ERROR),
            Int32(BOK_CURLE_SEND_ERROR), 0:
            kind = .dropped
        default: kind = .other
        }
        return .failure(Failure(kind: kind, detail: detail.isEmpty ? "curl error \(code)" : detail))
    }
}

/// The state of one exchange, touched by curl's callbacks on the transfer's thread, one at a time;
/// only `cancelled` is set from elsewhere, hence an atomic.
private final class TransferContext: Sendable {
    let cancelled = Atomic<Bool>(false)
    let stalled = Atomic<Bool>(false)
    /// When a byte last arrived (uptime in nanoseconds).
    private let lastActivity = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
    private let stallNanoseconds: UInt64?
    private let onHead: @Sendable (HTTPTransfer.Head) -> Bool
    private let onData: @Sendable (UnsafeRawBufferPointer) -> Bool
    private struct State: ~Copyable {
        var status = 0
        var headers: [String: String] = [:]
        var head: HTTPTransfer.Head?
        var stopped = false
    }
    // A mutex only to make the class Sendable honestly; there is never contention.
    private let state = Mutex(State())

    init(
        onHead: @escaping @Sendable (HTTPTransfer.Head) -> Bool,
        onData: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool,
        stallTimeout: TimeInterval?
    ) {
        self.onHead = onHead
        self.onData = onData
        self.stallNanoseconds = stallTimeout.map { UInt64(max(0, $0) * 1e9) }
    }

    /// Asked by curl at least once a second: cancelled, or silent for longer than the stall limit.
    func shouldAbort() -> Bool {
        if cancelled.load(ordering: .relaxed) { return true }
        guard let stallNanoseconds else { return false }
        let silent = DispatchTime.now().uptimeNanoseconds &- lastActivity.load(ordering: .relaxed)
        guard silent > stallNanoseconds else { return false }
        stalled.store(true, ordering: .relaxed)
        return true
    }

    private func touch() { lastActivity.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

    var head: HTTPTransfer.Head? { state.withLock { $0.head } }
    var stopped: Bool { state.withLock { $0.stopped } }

    /// One header line; the blank line after the final status's headers hands the head over.
    func header(_ bytes: UnsafePointer<CChar>, _ length: Int) -> Bool {
        touch()
        let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let ready: HTTPTransfer.Head? = state.withLock { state in
            if line.hasPrefix("HTTP/") {
                // A new status line (after a 100 Continue, say): a new head.
                let parts = line.split(separator: " ")
                state.status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
                state.headers = [:]
                return nil
            }
            if line.isEmpty {
                guard !(100..<200).contains(state.status) else { return nil }
                let head = HTTPTransfer.Head(status: state.status, headers: state.headers)
                state.head = head
                return head
            }
            if let colon = line.firstIndex(of: ":") {
                state.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
            return nil
        }
        guard let ready else { return true }
        if onHead(ready) { return true }
        state.withLock { $0.stopped = true }
        return false
    }

    func data(_ bytes: UnsafePointer<CChar>, _ length: Int) -> Bool {
        touch()
        if onData(UnsafeRawBufferPointer(start: bytes, count: length)) { return true }
        state.withLock { $0.stopped = true }
        return false
    }
}
