import Catalog
import Foundation
import Hummingbird
import NIOCore

/// The mock-only control routes under `/mock/`: state, reset and faults. No checksum, so a
/// tester can use them with curl; never fault-injected, so faults can always be switched off.
struct ControlRoutes: Sendable {
    let library: MockLibrary

    func register(on mock: RouterGroup<MockRequestContext>) {
        mock.get("state") { _, _ in summary() }
        mock.post("reset") { _, _ in
            library.reset()
            return summary()
        }
        mock.post("faults") { request, _ in try await setFaults(request) }
        mock.delete("faults") { _, _ in
            library.update { $0.faults = .none }
            return JSONResponse.make(Faults.none)
        }
    }

    func summary() -> Response {
        let summary = library.read { StateSummary($0, seed: library.catalog.seed, catalogSize: library.catalog.products.count) }
        return JSONResponse.make(summary)
    }

    func setFaults(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        let faults: Faults
        do {
            faults = try JSONDecoder().decode(Faults.self, from: Data(body.readableBytesView))
        } catch {
            throw APIFailure.badRequest(#"Send faults as JSON, e.g. {"LatencyMs": 500, "ErrorRate": 0.1, "Malformed": false, "Drop": false}."#)
        }
        if let problem = faults.problem { throw APIFailure.badRequest(problem) }
        library.update { $0.faults = faults }
        return JSONResponse.make(faults)
    }
}
