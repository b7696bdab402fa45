import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// A KOReader progress-sync server (kosync) inside the mock, under `/kosync/`, built from the
/// protocol KOReader's kosync plugin speaks and koreader-sync-server answers (version 1):
///
/// - `POST /users/create` `{username, password}` (the password as the client's MD5 of it): 201
///   `{username}`, 402 when the name is taken;
/// - `GET /users/auth` with `x-auth-user` and `x-auth-key`: 200 `{authorized: "OK"}`, 401 otherwise;
/// - `PUT /syncs/progress` `{document, progress, percentage, device, device_id}`: 200
///   `{document, timestamp}`;
/// - `GET /syncs/progress/{document}`: the last place, `{}` when there is none;
/// - `GET /healthcheck`: `{state: "OK"}`.
///
/// Errors are JSON `{code, message}` with the real server's codes and statuses (2001 401
/// Unauthorized, 2002 402 user exists, 2003 403 invalid request, 2004 403 no document). Users
/// and places live in memory for the life of the server, one set of places per user.
struct KOSyncRoutes: Sendable {
    /// The path the face lives under.
    static let base = "/kosync"

    /// What the server keeps: each user's key, and their places by document.
    final class Store: Sendable {
        struct Place: Sendable {
            var progress: String
            var percentage: Double
            var device: String
            var deviceID: String?
            var timestamp: Int
        }

        struct Held {
            var keys: [String: String] = [:]
            var places: [String: [String: Place]] = [:]
        }

        let held = Mutex(Held())
        /// The most users and places a user kept, so that a runaway client cannot fill memory.
        static let maxUsers = 10_000
        static let maxPlaces = 100_000
    }

    let store = Store()

    func register(on router: Router<MockRequestContext>) {
        let kosync = router.group(RouterPath(Self.base))
        kosync.post("users/create") { request, _ in try await createUser(request) }
        kosync.get("users/auth") { request, _ in
            authorize(request) == nil ? Self.error(2001) : Self.json(["authorized": "OK"])
        }
        kosync.put("syncs/progress") { request, _ in try await updateProgress(request) }
        kosync.get("syncs/progress/:document") { request, context in
            progress(request, document: context.parameters.get("document") ?? "")
        }
        kosync.get("healthcheck") { _, _ in Self.json(["state": "OK"]) }
    }

    // MARK: Routes

    func createUser(_ request: Request) async throws -> Response {
        guard let body = try await Self.body(request), let user = body["username"] as? String,
            Self.isKey(user), let password = body["password"] as? String, !password.isEmpty
        else { return Self.error(2003) }
        let created = store.held.withLock { held -> Bool? in
            guard held.keys[user] == nil else { return false }
            guard held.keys.count < Store.maxUsers else { return nil }
            held.keys[user] = password
            return true
        }
        switch created {
        case true?: return Self.json(["username": user], status: .created)
        case false?: return Self.error(2002)
        case nil: return Self.error(2000)
        }
    }

    func updateProgress(_ request: Request) async throws -> Response {
        guard let user = authorize(request) else { return Self.error(2001) }
        guard let body = try await Self.body(request) else { return Self.error(2003) }
        guard let document = body["document"] as? String, Self.isKey(document) else { return Self.error(2004) }
        guard let progress = body["progress"] as? String, let device = body["device"] as? String,
            let percentage = (body["percentage"] as? NSNumber)?.doubleValue
                ?? (body["percentage"] as? String).flatMap(Double.init), percentage.isFinite
        else { return Self.error(2003) }
        let timestamp = Int(Date().timeIntervalSince1970)
        let place = Store.Place(
            progress: progress, percentage: percentage, device: device, deviceID: body["device_id"] as? String,
            timestamp: timestamp)
        let kept = store.held.withLock { held -> Bool in
            guard held.places[user]?[document] != nil || (held.places[user]?.count ?? 0) < Store.maxPlaces else {
                return false
            }
            held.places[user, default: [:]][document] = place
            return true
        }
        guard kept else { return Self.error(2000) }
        return Self.json(["document": document, "timestamp": timestamp])
    }

    func progress(_ request: Request, document: String) -> Response {
        guard let user = authorize(request) else { return Self.error(2001) }
        guard Self.isKey(document) else { return Self.error(2004) }
        guard let place = store.held.withLock({ $0.places[user]?[document] }) else { return Self.json([:]) }
        var answer: [String: Any] = [
            "document": document, "progress": place.progress, "percentage": place.percentage, "device": place.device,
            "timestamp": place.timestamp,
        ]
        if let id = place.deviceID { answer["device_id"] = id }
        return Self.json(answer)
    }

    /// The user whose name and key the request's headers carry, when they match.
    func authorize(_ request: Request) -> String? {
        guard let userField = HTTPField.Name("x-auth-user"), let keyField = HTTPField.Name("x-auth-key"),
            let user = request.headers[userField], Self.isKey(user), let key = request.headers[keyField], !key.isEmpty
        else { return nil }
        return store.held.withLock { $0.keys[user] } == key ? user : nil
    }

    // MARK: Answers

    /// A user name or document as the real server takes them: not empty, no colon.
    static func isKey(_ text: String) -> Bool { !text.isEmpty && !text.contains(":") && text.utf8.count <= 256 }

    /// The request's JSON object (at most 64 KB), or nil.
    static func body(_ request: Request) async throws -> [String: Any]? {
        let buffer = try await request.body.collect(upTo: 64 * 1024)
        return try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any]
    }

    /// The real server's errors: its code, status and message.
    static func error(_ code: Int) -> Response {
        let (status, message): (HTTPResponse.Status, String) =
            switch code {
            case 2001: (.unauthorized, "Unauthorized")
            case 2002: (.init(code: 402), "Username is already registered.")
            case 2003: (.forbidden, "Invalid request")
            case 2004: (.forbidden, "Field 'document' not provided.")
            default: (.badGateway, "Unknown server error.")
            }
        return json(["code": code, "message": message], status: status)
    }

    static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return JSONResponse.raw(data, status: status, contentType: "application/json")
    }
}
