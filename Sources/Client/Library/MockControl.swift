import Catalog
import Foundation
import Localization

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
            throw UserError(tr("The mock library's clock gave an answer bok could not read. Try again."))
        }
        return date
    }

    /// The latest moment the mock's clock goes to: loans made later would fall due in the year 10000.
    static let latest = Date(timeIntervalSince1970: 253_370_764_800)  // 9999-01-01T00:00:00Z

    /// Moves the clock as `request` says: on (or back) from where it stands, or to a day or moment.
    /// - Throws: `UserError` for a move past 9999-01-01, which the mock refuses.
    func moveClock(_ request: ClockRequest, timeZone: TimeZone) async throws -> Date {
        let body: [String: String]
        if let target = request.target(timeZone: timeZone) {
            try Self.refuseTooLate(target)
            body = ["Set": Timestamp.format(target)]
        } else if case .move(let seconds) = request {
            let from = try await now()
            try Self.refuseTooLate(from.addingTimeInterval(TimeInterval(seconds)))
            // The mock moves on by whole minutes; back is a new time to set.
            body =
                seconds >= 0
                ? ["Advance": "\(seconds / 60)m"]
                : ["Set": Timestamp.format(from.addingTimeInterval(TimeInterval(seconds)))]
        } else {
            body = [:]
        }
        _ = try await call("POST", "clock", body: body)
        return try await now()
    }

    static func refuseTooLate(_ date: Date) throws {
        guard date < latest else {
            throw UserError(
                tr(
                    "The mock library's clock goes no later than 1 January 9999 (9999-01-01): "
                        + "loans made after it would fall due in the year 10000. Pick an earlier day."))
        }
    }

    /// A control call that failed: a line for the tester, and the technical detail for the debug log.
    struct Failure: Error, CustomStringConvertible {
        /// The method, route and what went wrong (libcurl's error, the status and the mock's reason).
        let detail: String
        let message: String
        var description: String { message }
    }

    /// Back to the seed; the answer says what became of a shared state file (`Reset`).
    @discardableResult
    func reset() async throws -> [String: Any] { try await call("POST", "reset") }

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
        var request = HTTPRequest(url: root.appendingPathComponent(path), method: method)
        if let body {
            request.body = try JSONSerialization.data(withJSONObject: body)
            request.headers.append(("Content-Type", "application/json"))
        }
        let data: Data
        let response: HTTPTransfer.Head
        do {
            (data, response) = try await Self.exchange.run(request)
        } catch {
            try Task.checkCancellation()
            throw Failure(
                detail: "\(method) \(path): \(error)",
                message: tr(
                    "Cannot reach the mock library at {address}. Is it still running?",
                    ["address": root.host.map { "\($0):\(root.port ?? 80)" } ?? root.absoluteString]))
        }
        let status = response.status
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        guard (200..<300).contains(status) else {
            if status == 404 {
                throw UserError(
                    tr("This library is not the mock: mock commands only work with bok --mock or bok mock-server."))
            }
            // The mock's reason is for its API's users, in English; the tester gets words of bok's own.
            throw Failure(
                detail: "\(method) \(path): HTTP \(status) \(object["Reason"] as? String ?? "")",
                message: tr("The mock library did not accept that. BOK_LOG=debug shows its reason."))
        }
        return object
    }
}

extension MockControl.Failure: PatronFacingError {
    var patronMessage: String { message }
}
