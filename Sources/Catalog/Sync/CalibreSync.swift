public import Foundation
public import Localization
internal import TextSafety

/// A reading place another device left on a sync server.
public struct RemotePosition: Sendable, Hashable {
    /// The device's name, as that device gave it.
    public var device: String
    /// The place, as an EPUB CFI (calibre writes its own form).
    public var cfi: String
    /// How far into the book, 0–1.
    public var fraction: Double
    /// When it was left there.
    public var time: Date

    public init(device: String, cfi: String, fraction: Double, time: Date) {
        self.device = device
        self.cfi = cfi
        self.fraction = fraction
        self.time = time
    }
}

/// The last read position of a book on calibre's content server (calibre 6, `calibre-server
/// --enable-auth`), per user and per device, as calibre's own web reader keeps it:
/// `GET /book-get-last-read-position/{library}/{id}-{FORMAT}` and
/// `POST /book-set-last-read-position/{library}/{id}/{FORMAT}` with `{"device", "cfi", "pos_frac"}`.
///
/// Only with a login: calibre accepts a place from nobody, but keeps it where no one can read it
/// back, so bok never sends one anonymously. Every exchange is bounded (time, size, redirects
/// within the server) and nothing calibre answers reaches the screen as it is.
public struct CalibreSync: Sendable {
    /// Why a sync did not happen.
    public struct Failure: PatronFacingError, Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// No login is known for the server.
            case needsLogin
            /// The server refused the login.
            case loginRefused
            /// The server did not answer (off, unreachable, too slow).
            case unreachable
            /// It answered, but not as calibre does (another server, a book it no longer has).
            case strangeAnswer
        }

        public let kind: Kind
        public let server: String

        public var patronMessage: String {
            switch kind {
            case .needsLogin:
                tr(
                    "bok syncs with {server} only with a login (calibre keeps no place for nobody): log in to "
                        + "its catalogue with login --remember.", ["server": server])
            case .loginRefused:
                tr(
                    "{server} refused the login; log in to its catalogue again with login --remember.",
                    ["server": server])
            case .unreachable:
                tr("{server} did not answer; your place waits and is sent next time.", ["server": server])
            case .strangeAnswer:
                tr("{server} did not answer as calibre's content server does; nothing was synced.", ["server": server])
            }
        }
    }

    /// The `Authorization` header for the server (HTTP Basic, as bok logs in to its catalogue).
    let authorization: String?
    /// How long one exchange may take.
    let deadline: TimeInterval

    /// The most an answer may weigh: a book's places on every device are a few hundred bytes each.
    static let maxBytes = 256 * 1024

    /// A client with the user's login (nil: none known, and nothing is sent).
    public init(user: String?, password: String?, deadline: TimeInterval = 5) {
        var authorization: String?
        if let user, let password { authorization = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }
        self.init(authorization: authorization, deadline: deadline)
    }

    /// A client with the `Authorization` header of the catalogue's login (nil: none, nothing is sent).
    public init(authorization: String?, deadline: TimeInterval = 5) {
        self.authorization = authorization
        self.deadline = deadline
    }

    /// The places every device of this user left in the book, newest first.
    public func positions(of link: CalibreBookLink) async throws(Failure) -> [RemotePosition] {
        let data = try await exchange(
            link, HTTPRequest(url: link.url("book-get-last-read-position", "\(link.bookID)-\(link.format)")))
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(kind: .strangeAnswer, server: Self.name(link))
        }
        let entries = object["\(link.bookID):\(link.format)"] as? [[String: Any]] ?? []
        return entries.compactMap { entry -> RemotePosition? in
            guard let cfi = entry["cfi"] as? String, cfi.utf8.count <= 4096,
                let fraction = (entry["pos_frac"] as? NSNumber)?.doubleValue, fraction.isFinite
            else { return nil }
            let device = SafeText.line(entry["device"] as? String ?? "", limit: 60)
            let epoch = (entry["epoch"] as? NSNumber)?.doubleValue ?? 0
            return RemotePosition(
                device: device, cfi: cfi, fraction: min(1, max(0, fraction)),
                time: Date(timeIntervalSince1970: epoch.isFinite ? epoch : 0))
        }.sorted { $0.time > $1.time }
    }

    /// Leaves this device's place in the book.
    public func send(_ cfi: String, fraction: Double, device: String, of link: CalibreBookLink) async throws(Failure) {
        let body = try? JSONSerialization.data(
            withJSONObject: ["device": device, "cfi": cfi, "pos_frac": min(1, max(0, fraction))], options: [.sortedKeys]
        )
        let url = link.url("book-set-last-read-position", "\(link.bookID)/\(link.format)")
        _ = try await exchange(
            link, HTTPRequest(url: url, method: "POST", headers: [("Content-Type", "application/json")], body: body))
    }

    func exchange(
        _ link: CalibreBookLink, _ request: HTTPRequest, maxBytes: Int = maxBytes
    ) async throws(Failure)
        -> Data
    {
        let server = Self.name(link)
        guard let authorization else { throw Failure(kind: .needsLogin, server: server) }
        var request = request
        request.headers.append(("Authorization", authorization))
        guard
            let answer = await SyncExchange.run(
                request, accept: "application/json", deadline: deadline, maxBytes: maxBytes)
        else { throw Failure(kind: .unreachable, server: server) }
        switch answer.status {
        case 200..<300: return answer.body
        case 401, 403: throw Failure(kind: .loginRefused, server: server)
        default: throw Failure(kind: .strangeAnswer, server: server)
        }
    }

    /// The server as a patron names it: its host and port.
    static func name(_ link: CalibreBookLink) -> String { SyncExchange.name(link.server, otherwise: "calibre") }
}
