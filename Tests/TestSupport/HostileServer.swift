public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on a loopback address that misbehaves on purpose, for testing how bok
/// bounds itself against a hostile library: it can drip bytes slowly, lie about `Content-Length`,
/// answer `416`, redirect to another origin, stream an endless body, or flood a page.
///
/// Plain sockets and one thread per connection, so a test controls every byte and every pause.
/// Every connection closes after one answer. All traffic stays on 127.0.0.x; every loop is bounded
/// (a body by its size, a drip by its length, everything by `stop()` and by send timeouts when the
/// client stops reading).
public final class HostileServer: Sendable {
    // @unchecked: the mutable state (requests, counters, open sockets, stopped) is behind `lock`.

    /// A request as the server read it.
    public struct Request: Sendable {
        /// `GET`, `POST`, …
        public var method: String
        /// The path and query, as sent.
        public var target: String
        /// Header names in lower case.
        public var headers: [String: String]
        /// The path without the query.
        public var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }
    }

    /// One thing to do on the connection, in order.
    public enum Step: Sendable {
        /// Send these bytes at once.
        case send(Data)
        /// Send these bytes one at a time, pausing between them.
        case drip(Data, every: TimeInterval)
        /// Send `total` bytes of filler in chunks (an endless body is a large total: the client must stop reading).
        case stream(total: Int, chunk: Int = 64 << 10)
        /// Wait.
        case pause(TimeInterval)
    }

    /// What to answer a request with.
    public typealias Handler = @Sendable (Request) -> [Step]

    /// The address the server listens on (`127.0.0.1`, `127.0.0.2`, …).
    public let host: String
    /// Its port (chosen by the kernel).
    public let port: Int
    /// `http://host:port/`.
    public var baseURL: URL { URL(string: "http://\(host):\(port)/")! }

    private let handler: Handler
    private let listener: Int32
    /// What the server's threads share.
    private struct State {
        var received: [Request] = []
        var sent = 0
        var connections: Set<Int32> = []
        var stopped = false
    }
    private let state = Mutex(State())

    /// Starts listening on `host`, a free port, and answering with `handler`.
    public init(host: String = "127.0.0.1", handler: @escaping Handler) throws {
        self.host = host
        self.handler = handler
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1, host.hasPrefix("127.") else {
            close(listener)
            throw Failure(description: "\(host) is not a loopback address")
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            let message = String(cString: strerror(errno))
            close(listener)
            throw Failure(description: "bind/listen on \(host): \(message)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// The requests so far, in order.
    public var requests: [Request] { state.withLock { $0.received } }
    /// Bytes of answers written so far (all connections).
    public var bytesSent: Int { state.withLock { $0.sent } }

    /// Stops accepting and cuts every open connection.
    public func stop() {
        // Once only: a descriptor closed twice could be another server's by then.
        let open = state.withLock { state -> Set<Int32>? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.connections
        }
        guard let open else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        while !isStopped {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections.insert(fd)
                return true
            }
            guard admitted else {
                close(fd)
                return
            }
            // Neither side waits forever: a client that stops reading ends the stream after 2 s.
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var readTimeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &readTimeout, socklen_t(MemoryLayout<timeval>.size))
            let thread = Thread { [self] in serve(fd) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            state.withLock { _ = $0.connections.remove(fd) }
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
        guard let request = readRequest(fd) else { return }
        state.withLock { $0.received.append(request) }
        for step in handler(request) {
            guard !isStopped else { return }
            switch step {
            case .send(let data):
                guard write(fd, data) else { return }
            case .drip(let data, let every):
                for byte in data {
                    guard !isStopped, write(fd, Data([byte])) else { return }
                    Thread.sleep(forTimeInterval: every)
                }
            case .stream(let total, let chunk):
                let filler = Data(repeating: UInt8(ascii: "x"), count: chunk)
                var left = total
                while left > 0 {
                    guard !isStopped, write(fd, left >= chunk ? filler : filler.prefix(left)) else { return }
                    left -= chunk
                }
            case .pause(let seconds):
                Thread.sleep(forTimeInterval: seconds)
            }
        }
    }

    /// Reads the request head (at most 64 KB) and any body it announces (discarded).
    private func readRequest(_ fd: Int32) -> Request? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard buffer.count < 64 << 10 else { return nil }
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
        let end = buffer.range(of: separator)!
        let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let first = lines.removeFirst().split(separator: " ")
        guard first.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = buffer.count - end.upperBound
        let length = min(Int(headers["content-length"] ?? "") ?? 0, 1 << 20)
        while body < length {
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { break }
            body += n
        }
        return Request(method: String(first[0]), target: String(first[1]), headers: headers)
    }

    private func write(_ fd: Int32, _ data: Data) -> Bool {
        let ok = data.withUnsafeBytes { raw -> Bool in
            var done = 0
            while done < raw.count {
                let n = send(fd, raw.baseAddress! + done, raw.count - done, Int32(MSG_NOSIGNAL))
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                done += n
                state.withLock { $0.sent += n }
            }
            return true
        }
        return ok
    }

    /// Why the server could not start.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }
}

extension HostileServer {
    /// The head of an answer: status line, `Connection: close` and the given headers.
    public static func head(_ status: Int, _ headers: [(String, String)] = []) -> Data {
        var text = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Data((text + "\r\n").utf8)
    }

    /// A whole answer with a true `Content-Length`.
    public static func answer(_ status: Int, json body: String, headers: [(String, String)] = []) -> [Step] {
        let bytes = Data(body.utf8)
        return [
            .send(
                head(status, [("Content-Type", "application/json"), ("Content-Length", String(bytes.count))] + headers)
                    + bytes)
        ]
    }

    /// Starts a server off Swift's cooperative pool (binding is quick, but the accept thread is a real thread).
    public static func start(host: String = "127.0.0.1", handler: @escaping Handler) throws -> HostileServer {
        try HostileServer(host: host, handler: handler)
    }
}
