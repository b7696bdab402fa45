internal import Crypto
public import Foundation
public import Localization
internal import TextSafety

/// The place a device left on a KOReader progress-sync server (kosync).
public struct KOSyncProgress: Sendable, Hashable {
    /// The place as KOReader writes it: an XPointer into the book (`/body/DocFragment[3]/body/p[2]/text().5`).
    public var progress: String
    /// How far into the book, 0–1.
    public var percentage: Double
    /// The device's name, as that device gave it.
    public var device: String
    /// The device's id, as that device gave it.
    public var deviceID: String
    /// When the server got it.
    public var time: Date

    public init(progress: String, percentage: Double, device: String, deviceID: String, time: Date = Date()) {
        self.progress = progress
        self.percentage = percentage
        self.device = device
        self.deviceID = deviceID
        self.time = time
    }
}

/// KOReader's progress sync (the kosync plugin and koreader-sync-server): one place per user and
/// document, where a document is named by KOReader's partial MD5 of the file (``KOSync/documentID(of:)``).
///
/// `POST /users/create` registers `{username, password}` (the password as its MD5); every other
/// call carries `x-auth-user` and `x-auth-key` (that MD5) in headers: `GET /users/auth`,
/// `PUT /syncs/progress` with `{document, progress, percentage, device, device_id}`, and
/// `GET /syncs/progress/{document}`. Every exchange is bounded (time, size, redirects within the
/// server) and nothing the server answers reaches the screen as it is.
public struct KOSync: Sendable {
    /// Why a sync did not happen.
    public struct Failure: PatronFacingError, Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// No key is known for the server.
            case needsLogin
            /// The server refused the user and key.
            case loginRefused
            /// The user name is taken (registering).
            case userExists
            /// The server did not answer (off, unreachable, too slow).
            case unreachable
            /// It answered, but not as a kosync server does.
            case strangeAnswer
        }

        public let kind: Kind
        /// The server as the patron named it (`[sync NAME]`).
        public let server: String

        public init(kind: Kind, server: String) {
            self.kind = kind
            self.server = server
        }

        public var patronMessage: String {
            switch kind {
            case .needsLogin:
                tr("bok syncs with {server} once you log in to it: sync login {server}.", ["server": server])
            case .loginRefused:
                tr(
                    "{server} refused the user name or password; nothing was sent. Log in again with "
                        + "sync login {server}.",
                    ["server": server])
            case .userExists:
                tr(
                    "{server} already has a user of that name; log in with sync login {server}, or choose "
                        + "another name.",
                    ["server": server])
            case .unreachable:
                tr("{server} did not answer; your place waits and is sent next time.", ["server": server])
            case .strangeAnswer:
                tr("{server} did not answer as a KOReader sync server does; nothing was synced.", ["server": server])
            }
        }
    }

    /// The media type kosync speaks (version 1 of its API).
    public static let mediaType = "application/vnd.koreader.v1+json"
    /// The most an answer may weigh: one place is a few hundred bytes.
    static let maxBytes = 64 * 1024

    /// The server's address, up to where kosync's own paths begin (`https://host/kosync`).
    public let server: URL
    /// The name the patron gave it (`[sync NAME]`), for what bok says.
    public let name: String
    /// The user name, and the key: the MD5 of the password, in lowercase hex (nil: none known).
    let user: String?
    let key: String?
    /// How long one exchange may take.
    let deadline: TimeInterval

    public init(server: URL, name: String, user: String?, key: String?, deadline: TimeInterval = 5) {
        let text = server.absoluteString
        self.server = text.hasSuffix("/") ? URL(string: String(text.dropLast())) ?? server : server
        self.name = name
        self.user = user
        self.key = key
        self.deadline = deadline
    }

    /// The key for a password, as KOReader makes it: the MD5 of its UTF-8 bytes, in lowercase hex.
    public static func key(password: String) -> String {
        hex(Insecure.MD5.hash(data: Data(password.utf8)))
    }

    /// KOReader's document id for a file (its "binary" checksum, `util.partialMD5`): one MD5 over
    /// 1024-byte samples read at offsets `1024 << (2 * i)` for `i` from -1 to 10, stopping at the
    /// first offset past the end. KOReader computes the offsets with LuaJIT's `bit.lshift`, which
    /// takes the shift count modulo 32 and keeps 32 bits, so `i = -1` (`1024 << 30`) reads at 0.
    /// - Returns: nil when the file cannot be read.
    public static func documentID(of file: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        var md5 = Insecure.MD5()
        for offset in sampleOffsets {
            guard (try? handle.seek(toOffset: offset)) != nil, let sample = try? handle.read(upToCount: 1024),
                !sample.isEmpty
            else { break }
            md5.update(data: sample)
        }
        return hex(md5.finalize())
    }

    /// Where ``documentID(of:)`` reads: LuaJIT's `bit.lshift(1024, 2 * i)` for `i` = -1…10.
    static var sampleOffsets: [UInt64] {
        (-1...10).map { i in
            let shift = UInt32(bitPattern: Int32(2 * i)) & 31
            return UInt64(UInt32(truncatingIfNeeded: UInt64(1024) << UInt64(shift)))
        }
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Whether the server knows the user with this key (`GET /users/auth`).
    public func authorize() async throws(Failure) {
        _ = try await exchange("users/auth", method: "GET", body: nil, signed: true)
    }

    /// Registers the user with a password (`POST /users/create`); the password leaves as its MD5.
    public func register(password: String) async throws(Failure) {
        guard let user else { throw Failure(kind: .needsLogin, server: name) }
        let body = try? JSONSerialization.data(
            withJSONObject: ["username": user, "password": Self.key(password: password)], options: [.sortedKeys])
        _ = try await exchange("users/create", method: "POST", body: body, signed: false)
    }

    /// The place left in a document, or nil when none is.
    public func progress(of document: String) async throws(Failure) -> KOSyncProgress? {
        let data = try await exchange("syncs/progress/\(document)", method: "GET", body: nil, signed: true)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(kind: .strangeAnswer, server: name)
        }
        guard let progress = object["progress"] as? String, !progress.isEmpty, progress.utf8.count <= 4096,
            let percentage = (object["percentage"] as? NSNumber)?.doubleValue, percentage.isFinite
        else { return nil }
        let stamp = (object["timestamp"] as? NSNumber)?.doubleValue ?? 0
        return KOSyncProgress(
            progress: progress, percentage: min(1, max(0, percentage)),
            device: SafeText.line(object["device"] as? String ?? "", limit: 60),
            deviceID: SafeText.line(object["device_id"] as? String ?? "", limit: 80),
            time: Date(timeIntervalSince1970: stamp.isFinite ? stamp : 0))
    }

    /// Leaves this device's place in a document.
    public func send(_ progress: KOSyncProgress, of document: String) async throws(Failure) {
        let body = try? JSONSerialization.data(
            withJSONObject: [
                "document": document, "progress": progress.progress,
                "percentage": (min(1, max(0, progress.percentage)) * 10000).rounded() / 10000,
                "device": progress.device, "device_id": progress.deviceID,
            ], options: [.sortedKeys])
        _ = try await exchange("syncs/progress", method: "PUT", body: body, signed: true)
    }

    private func exchange(_ path: String, method: String, body: Data?, signed: Bool) async throws(Failure) -> Data {
        var headers: [(name: String, value: String)] = []
        if body != nil { headers.append(("Content-Type", "application/json")) }
        if signed {
            guard let user, let key else { throw Failure(kind: .needsLogin, server: name) }
            headers += [("x-auth-user", user), ("x-auth-key", key)]
        }
        guard let url = URL(string: server.absoluteString + "/" + path) else {
            throw Failure(kind: .strangeAnswer, server: name)
        }
        guard
            let answer = await SyncExchange.run(
                HTTPRequest(url: url, method: method, headers: headers, body: body), accept: Self.mediaType,
                deadline: deadline, maxBytes: Self.maxBytes)
        else { throw Failure(kind: .unreachable, server: name) }
        switch answer.status {
        case 200..<300: return answer.body
        case 401 where signed, 403 where signed: throw Failure(kind: .loginRefused, server: name)
        case 402 where !signed: throw Failure(kind: .userExists, server: name)
        default: throw Failure(kind: .strangeAnswer, server: name)
        }
    }
}
