import Catalog
import Foundation
import Hummingbird
import NIOCore

/// The mock-only control routes under `/mock/`: state, reset, faults and the virtual clock. No
/// checksum, so a tester can use them with curl; never fault-injected, so faults can always be
/// switched off.
struct ControlRoutes: Sendable {
    let library: MockLibrary

    func register(on mock: RouterGroup<MockRequestContext>) {
        mock.get("state") { _, _ in summary() }
        mock.post("reset") { _, _ in
            let outcome: String =
                switch library.reset() {
                case .memory, .shared: "Shared"
                case .rejoined: "Rejoined"
                case .rebuilt: "Rebuilt"
                case .notRebuilt: "NotRebuilt"
                }
            return summary(reset: outcome)
        }
        mock.post("faults") { request, _ in try await setFaults(request) }
        mock.delete("faults") { _, _ in
            library.updateLocal { $0.faults = .none }
            return JSONResponse.make(Faults.none)
        }
        mock.get("clock") { _, _ in clock() }
        mock.post("clock") { request, _ in try await moveClock(request) }
    }

    /// `{"Now": "2026-11-18T09:00:00Z", "Today": "2026-11-18", "TimeZone": "Europe/Stockholm"}`.
    func clock() -> Response {
        let (now, today) = library.read { ($0.clock, $0.today) }
        return JSONResponse.make(
            ClockAnswer(
                now: Timestamp.format(now), today: today,
                timeZone: library.configuration.rules.timeZone.identifier))
    }

    /// Moves the clock and processes what happened meanwhile (loans ending, reservations coming due).
    func moveClock(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        let change = try ClockChange(json: Data(body.readableBytesView))
        let target: Date
        switch change {
        case .advance(let seconds): target = library.now().addingTimeInterval(seconds)
        case .set(let date): target = date
        }
        guard target <= ClockChange.latest else { throw APIFailure.badRequest(Said(verbatim: ClockChange.tooLate)) }
        switch change {
        case .advance(let seconds): library.advanceClock(by: seconds)
        case .set(let date): library.setClock(date)
        }
        return clock()
    }

    struct ClockAnswer: Encodable {
        var now: String
        var today: DayDate
        var timeZone: String
        enum CodingKeys: String, CodingKey {
            case now = "Now"
            case today = "Today"
            case timeZone = "TimeZone"
        }
    }

    /// The state summary; `reset` says what a reset did with the shared file.
    func summary(reset: String? = nil) -> Response {
        var summary = library.read {
            StateSummary($0, seed: library.catalog.seed, catalogSize: library.catalog.products.count)
        }
        summary.sharedState = library.sharing
        summary.sharedStateProblem = library.sharedStateProblem?.kind.description
        if summary.sharedState != nil { summary.reset = reset }
        return JSONResponse.make(summary)
    }

    func setFaults(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        let faults: Faults
        do {
            faults = try JSONDecoder().decode(Faults.self, from: Data(body.readableBytesView))
        } catch {
            let usage =
                #"Send faults as JSON, e.g. {"LatencyMs": 500, "ErrorRate": 0.1, "Malformed": false, "Drop": false, "#
                + #""DropAfterCommit": false}."#
            throw APIFailure.badRequest(Said(verbatim: usage))
        }
        if let problem = faults.problem { throw APIFailure.badRequest(Said(verbatim: problem)) }
        library.updateLocal { $0.faults = faults }
        return JSONResponse.make(faults)
    }
}
