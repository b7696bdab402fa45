import Foundation
import Localization
import TextSafety

#if canImport(Glibc)
import Glibc
#endif

/// A client of the DICT protocol (RFC 2229): the dictionaries a `dictd` serves (Debian's FreeDict
/// packages), asked for a word's entries.
///
/// Written here over a POSIX socket: no Swift package on this machine speaks DICT, and the part
/// bok needs — SHOW DB and DEFINE, line by line with a deadline — is small. Everything the
/// server sends is outside text: made safe before it is returned.
struct DictClient {
    /// A dictionary the server has: `fd-swe-eng`, "Swedish-English FreeDict Dictionary".
    struct Database: Sendable, Equatable {
        var name: String
        var description: String
    }

    /// One entry of a word.
    struct Definition: Sendable, Equatable {
        var word: String
        var database: String
        var text: [String]
    }

    // Not patron-facing: `define` turns it into a UserError that says what to install.
    struct Failure: Error {
        enum Kind { case unreachable, protocolError }
        let kind: Kind
        let detail: String
    }

    let host: String
    let port: UInt16
    /// Seconds to wait for a line before giving up.
    var timeout: Int = 5

    /// `127.0.0.1:2628`, or `BOK_DICT_SERVER=HOST:PORT`.
    static func fromEnvironment(_ environment: [String: String]) -> DictClient {
        if let value = environment["BOK_DICT_SERVER"], let colon = value.lastIndex(of: ":"),
            let port = UInt16(value[value.index(after: colon)...])
        {
            return DictClient(host: String(value[..<colon]), port: port)
        }
        return DictClient(host: "127.0.0.1", port: 2628)
    }

    /// True when a DICT server answers with its greeting.
    var reachable: Bool {
        guard let connection = try? Connection(host: host, port: port, timeout: timeout) else { return false }
        defer { connection.close() }
        return (try? connection.expect(220)) != nil
    }

    /// The dictionaries, then each word's entries in the dictionaries `choose` picks from them,
    /// over one connection. `words` are tried in order until one has entries.
    func lookUp(
        _ words: [String], choose: ([Database]) -> [String]
    ) throws(Failure) -> (
        databases: [Database], definitions: [Definition]
    ) {
        let connection = try Connection(host: host, port: port, timeout: timeout)
        defer { connection.close() }
        try connection.expect(220)
        try connection.send("CLIENT bok")
        try connection.expect(250)
        try connection.send("SHOW DB")
        var databases: [Database] = []
        let (code, _) = try connection.status()
        if code == 110 {
            for line in try connection.textBlock() {
                let parts = line.split(separator: " ", maxSplits: 1)
                guard let name = parts.first else { continue }
                let description = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: ["\""]) : ""
                databases.append(Database(name: SafeText.line(String(name)), description: SafeText.line(description)))
            }
            try connection.expect(250)
        }
        let chosen = choose(databases)
        for word in words {
            var found: [Definition] = []
            for database in chosen {
                try connection.send("DEFINE \(database) \"\(word.replacingOccurrences(of: "\"", with: ""))\"")
                let (code, _) = try connection.status()
                guard code == 150 else { continue }  // 552: no match; 550: no such database
                while true {
                    let (code, line) = try connection.status()
                    if code == 250 { break }
                    guard code == 151 else { throw Failure(kind: .protocolError, detail: line) }
                    let text = try connection.textBlock().map(SafeText.line)
                    found.append(Definition(word: word, database: database, text: text))
                }
            }
            if !found.isEmpty {
                try? connection.send("QUIT")
                return (databases, found)
            }
        }
        try? connection.send("QUIT")
        return (databases, [])
    }

    /// One TCP connection, read line by line with a deadline.
    private final class Connection {
        let socket: Int32
        var buffer: [UInt8] = []

        init(host: String, port: UInt16, timeout: Int) throws(Failure) {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var result: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
                throw Failure(kind: .unreachable, detail: "no address for \(host)")
            }
            defer { freeaddrinfo(result) }
            let fd = Glibc.socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { throw Failure(kind: .unreachable, detail: "socket: \(errno)") }
            var limit = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
                let code = errno
                Glibc.close(fd)
                throw Failure(kind: .unreachable, detail: "connect: \(code)")
            }
            socket = fd
        }

        func close() { Glibc.close(socket) }

        func send(_ line: String) throws(Failure) {
            let bytes = Array((line + "\r\n").utf8)
            let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == bytes.count else { throw Failure(kind: .unreachable, detail: "send: \(errno)") }
        }

        /// A line without its CRLF; at most 64 KB, as no dictionary line is longer.
        func line() throws(Failure) -> String {
            while true {
                if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    var line = Array(buffer[..<end])
                    buffer.removeFirst(end + 1)
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    return String(decoding: line, as: UTF8.self)
                }
                guard buffer.count < 65_536 else { throw Failure(kind: .protocolError, detail: "line too long") }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { throw Failure(kind: .unreachable, detail: "recv: \(n < 0 ? errno : 0)") }
                buffer += chunk[..<n]
            }
        }

        /// A status line: its three-digit code and the line.
        func status() throws(Failure) -> (Int, String) {
            let text = try line()
            guard let code = Int(text.prefix(3)) else { throw Failure(kind: .protocolError, detail: text) }
            return (code, text)
        }

        func expect(_ code: Int) throws(Failure) {
            let (got, text) = try status()
            guard got == code else { throw Failure(kind: .protocolError, detail: text) }
        }

        /// Text lines up to the lone `.`, with a doubled leading dot undone (RFC 2229 2.4.3).
        func textBlock() throws(Failure) -> [String] {
            var lines: [String] = []
            while true {
                let text = try line()
                if text == "." { return lines }
                lines.append(text.hasPrefix("..") ? String(text.dropFirst()) : text)
                guard lines.count < 10_000 else { throw Failure(kind: .protocolError, detail: "entry too long") }
            }
        }
    }
}
