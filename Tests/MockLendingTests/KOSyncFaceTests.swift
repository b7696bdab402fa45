import Catalog
import Foundation
import Testing

@testable import MockLending

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The mock's KOReader progress-sync face (`/kosync/`), as KOReader's kosync plugin and bok use it:
/// register, authorize, leave a place and read it back, per user and document; a wrong key is
/// refused with the real server's JSON error.
struct KOSyncFaceTests {
    static let document = "0123456789abcdef0123456789abcdef"

    @Test("A user registers, leaves a place in a document, and another device of theirs reads it")
    func registerPutGet() async throws {
        try await TestServer.with { test in
            let url = test.server.kosyncURL
            let phone = KOSync(server: url, name: "mock", user: "elsa", key: KOSync.key(password: "hemligt"))
            try await phone.register(password: "hemligt")
            try await phone.authorize()
            #expect(try await phone.progress(of: Self.document) == nil, "nothing left yet")
            try await phone.send(
                KOSyncProgress(
                    progress: "/body/DocFragment[3]/body/p[2]/text().5", percentage: 0.4321, device: "kindle",
                    deviceID: "K1"),
                of: Self.document)
            let laptop = KOSync(server: url, name: "mock", user: "elsa", key: KOSync.key(password: "hemligt"))
            let place = try #require(try await laptop.progress(of: Self.document))
            #expect(place.progress == "/body/DocFragment[3]/body/p[2]/text().5")
            #expect(place.percentage == 0.4321 && place.device == "kindle" && place.deviceID == "K1")
            #expect(abs(place.time.timeIntervalSinceNow) < 60)
            // Another user has their own places.
            let other = KOSync(server: url, name: "mock", user: "bo", key: KOSync.key(password: "x"))
            try await other.register(password: "x")
            #expect(try await other.progress(of: Self.document) == nil)
        }
    }

    @Test("A taken name, a wrong key and a missing document are refused as the real server refuses them")
    func refusals() async throws {
        try await TestServer.with { test in
            let url = test.server.kosyncURL
            let elsa = KOSync(server: url, name: "mock", user: "elsa", key: KOSync.key(password: "hemligt"))
            try await elsa.register(password: "hemligt")
            await #expect(throws: KOSync.Failure(kind: .userExists, server: "mock")) {
                try await elsa.register(password: "annat")
            }
            let wrong = KOSync(server: url, name: "mock", user: "elsa", key: KOSync.key(password: "fel"))
            await #expect(throws: KOSync.Failure(kind: .loginRefused, server: "mock")) { try await wrong.authorize() }
            await #expect(throws: KOSync.Failure(kind: .loginRefused, server: "mock")) {
                try await wrong.send(
                    KOSyncProgress(progress: "/body/DocFragment[1].0", percentage: 0.9, device: "x", deviceID: "y"),
                    of: Self.document)
            }
            #expect(try await elsa.progress(of: Self.document) == nil, "the wrong key left nothing")
            // The bodies, as koreader-sync-server writes them.
            let (body, status) = try await Self.raw(url.appendingPathComponent("users/auth"), user: "elsa", key: "x")
            #expect(status == 401 && body["code"] as? Int == 2001 && body["message"] as? String == "Unauthorized")
            let (taken, takenStatus) = try await Self.raw(
                url.appendingPathComponent("users/create"), method: "POST",
                body: #"{"username":"elsa","password":"abc"}"#)
            #expect(takenStatus == 402 && taken["code"] as? Int == 2002, "\(taken)")
            let (missing, missingStatus) = try await Self.raw(
                url.appendingPathComponent("syncs/progress"), method: "PUT", user: "elsa",
                key: KOSync.key(password: "hemligt"), body: #"{"progress":"x","percentage":0.5,"device":"d"}"#)
            #expect(missingStatus == 403 && missing["code"] as? Int == 2004, "\(missing)")
        }
    }

    static func raw(
        _ url: URL, method: String = "GET", user: String? = nil, key: String? = nil, body: String? = nil
    ) async throws -> ([String: Any], Int) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue(KOSync.mediaType, forHTTPHeaderField: "Accept")
        if let user { request.setValue(user, forHTTPHeaderField: "x-auth-user") }
        if let key { request.setValue(key, forHTTPHeaderField: "x-auth-key") }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return (object, (response as? HTTPURLResponse)?.statusCode ?? 0)
    }
}
