import Catalog
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to the mock library's `/mock/` control routes: the clock, reset, faults and state.
///
/// Works for the in-process mock and for a `bok mock-server` elsewhere; a real library has no
/// such routes, and bok refuses to send them there.
struct MockControl: Sendable {
    /// `http://host:port/mock/`.
    let root: URL

    /// Through libcurl, as every other call of bok: URLSession's cookie store and cache made an
    /// empty folder in `$XDG_DATA_HOME` (named after the build folder) and one in `$XDG_CACHE_HOME`
    /// on every run, even with an ephemeral configuration.
    private static let exchange = BoundedExchange(accept: "application/json", deadline: 10, maxBytes: 1 << 20)

    init(libraryBase: URL) {
        var components = URLComponents(url: libraryBase, resolvingAgainstBaseURL: false)!
        components.path = "/mock/"
        components.query = nil
        root = components.url!
    }

    /// The mock's clock.
    func now() async throws -> Date {
        let object = try await call("GET", "clock")
        guard let text = object["Now"] as? String, let date = Timestamp.parse(text) else {
            throw UserError("The mock library's clock answer was not understood.")
        }
        return date
    }

    /// Advances the clock by `amount` (`14d`, `3h`, `30m`) or sets it to a date or timestamp.
    func moveClock(_ spec: String) async throws -> Date {
        let body: [String: String]
        if spec.hasPrefix("+") {
            body = ["Advance": String(spec.dropFirst())]
        } else if let day = DayDate(string: spec), spec.count == 10 {
            body = [
                "Set": Timestamp.format(
                    day.startDate(in: TimeZone(identifier: "Europe/Stockholm")!).addingTimeInterval(10 * 3600))
            ]
        } else {
            body = ["Set": spec]
        }
        _ = try await call("POST", "clock", body: body)
        return try await now()
    }

    /// Back to the seed.
    func reset() async throws { _ = try await call("POST", "reset") }

    /// Sets faults (`{"LatencyMs": 2000}`) or clears them (nil).
    func setFaults(_ faults: [String: any Sendable]?) async throws {
        if let faults {
            _ = try await call("POST", "faults", body: faults)
        } else {
            _ = try await call("DELETE", "faults")
        }
    }

    /// The state summary.
    func state() async throws -> [String: Any] { try await call("GET", "state") }

    /// True when the server answers the control routes (so it is a mock).
    func isMock() async -> Bool { (try? await call("GET", "state")) != nil }

    private func call(
        _ method: String, _ path: String, body: [String: any Sendable]? = nil
    ) async throws -> [String: Any] {
        var request = URLRequest(url: root.appendingPathComponent(path), timeoutInterval: 10)
        request.httpMethod = method
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await Self.exchange.run(request)
        } catch {
            try Task.checkCancellation()
            throw UserError("Cannot reach the mock library's control routes at \(root.absoluteString).")
        }
        let status = response.statusCode
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        guard (200..<300).contains(status) else {
            if status == 404 {
                throw UserError(
                    "This library is not the mock: mock commands only work with bok --mock or bok mock-server.")
            }
            throw UserError("The mock library refused: \(object["Reason"] as? String ?? "HTTP \(status)").")
        }
        return object
    }
}
