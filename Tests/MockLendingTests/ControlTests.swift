import Catalog
import Foundation
import Testing

@testable import MockLending

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The virtual clock, the state view and reset.
@Suite("Mock lending: clock, state and reset")
struct ControlTests {
    func clock(
        _ server: TestServer, _ method: String = "GET", json: String? = nil
    ) async throws -> (status: Int, body: [String: Any]) {
        let (data, response) = try await server.control(method, "clock", json: json)
        return (response.statusCode, try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
    }

    @Test("GET /mock/clock shows the virtual time; POST moves it by Advance or to Set")
    func clockRoutes() async throws {
        try await TestServer.lending { server in
            let start = try await clock(server)
            #expect(start.status == 200 && start.body["Today"] as? String == "2026-11-18")
            #expect(start.body["TimeZone"] as? String == "Europe/Stockholm")
            let now = try #require(Timestamp.parse(start.body["Now"] as? String ?? ""))
            #expect(abs(now.timeIntervalSince(Fixtures.clock)) < 60)

            let later = try await clock(server, "POST", json: #"{"Advance": "1d14h"}"#)
            #expect(later.body["Today"] as? String == "2026-11-20", "10:00 plus 38 hours")
            let set = try await clock(server, "POST", json: #"{"Set": "2026-12-01T10:00:00Z"}"#)
            #expect(set.body["Today"] as? String == "2026-12-01")
            #expect(abs(await server.server.now().timeIntervalSince(Timestamp.parse("2026-12-01T10:00:00Z")!)) < 60)

            for bad in [#"{"Advance": "soon"}"#, #"{"Advance": "3w"}"#, #"{"Set": "tomorrow"}"#, #"{}"#, "not json"] {
                let refused = try await clock(server, "POST", json: bad)
                #expect(
                    refused.status == 400 && (refused.body["Reason"] as? String)?.contains("Advance") == true, "\(bad)")
            }
        }
    }

    @Test("Clock steps", arguments: [("14d", 14 * 86_400.0), ("3h", 10_800), ("90m", 5_400), ("1d 12h 30m", 131_400)])
    func clockSteps(text: String, seconds: Double) {
        #expect(ClockChange.seconds(text) == seconds)
    }

    @Test("Malformed clock steps", arguments: ["", "d", "14", "14x", "-1d", "1.5d"])
    func badClockSteps(text: String) {
        #expect(ClockChange.seconds(text) == nil)
    }

    @Test("The in-process clock runs on from where it is put")
    func inProcessClock() async throws {
        try await TestServer.lending { server in
            let start = await server.server.now()
            await server.server.advanceClock(by: 3_600)
            let later = await server.server.now()
            #expect(later.timeIntervalSince(start) >= 3_600 && later.timeIntervalSince(start) < 3_660)
            let target = Date(timeIntervalSince1970: 1_800_000_000)
            await server.server.setClock(target)
            let after = await server.server.now()
            #expect(after >= target && after.timeIntervalSince(target) < 60)
        }
    }

    @Test("GET /mock/state lists loans and queues of known patrons, and no PIN")
    func state() async throws {
        try await TestServer.lending { server in
            let (data, _) = try await server.control("GET", "state")
            let state = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let loans = try #require(state["Loans"] as? [[String: Any]])
            #expect(loans.count == 11)
            #expect(Set(loans.compactMap { $0["Card"] as? String }) == ["1002", "1003", "1004"])
            #expect(
                loans.allSatisfy {
                    $0["LoanID"] is String && $0["ProductID"] is String && $0["ExpiryDate"] is String
                        && $0["Active"] as? Bool == true
                })
            let queues = try #require(state["Queues"] as? [[String: Any]])
            #expect(queues.count == 2)
            let soon = try #require(queues.first { $0["ProductID"] as? String == LendingFixtures.comingBackTitle })
            #expect(soon["Cards"] as? [String] == ["1003"] && soon["OthersAhead"] as? Int == 0)
            #expect((state["OtherLoans"] as? Int ?? 0) > 100)
            #expect(state["Today"] as? String == "2026-11-18")
        }
    }

    @Test("Reset restores the seed: loans, queues, PIN counts, faults and the clock")
    func reset() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let (before, _) = try await server.control("GET", "state")
            _ = try await lending.createLoan(card: "1001", pin: "1234", productID: LendingFixtures.accessTitle())
            _ = try await lending.reserve(card: "1001", pin: "1234", productID: LendingFixtures.comingBackTitle)
            _ = try? await lending.verifyPatron(card: "1004", pin: "0")
            try await server.control("POST", "faults", json: #"{"DropAfterCommit": true}"#)
            await server.server.advanceClock(by: 40 * 86_400)

            await server.server.reset()
            #expect(abs(await server.server.now().timeIntervalSince(Fixtures.clock)) < 60)
            #expect(try await lending.loans(card: "1001", onlyActive: false).isEmpty)
            #expect(try await lending.reservations(card: "1001").isEmpty)
            #expect(try await lending.reservations(card: "1003").count == 2)
            #expect(try await lending.verifyPatron(card: "1002", pin: "2345").loansThisMonth == 5)
            // The same state as at start-up, but for the clock, which ran on meanwhile.
            let (after, _) = try await server.control("GET", "state")
            func withoutClock(_ data: Data) throws -> NSDictionary {
                var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                object["Clock"] = nil
                return object as NSDictionary
            }
            #expect(try withoutClock(before) == withoutClock(after))

            // And over HTTP.
            _ = try await lending.createLoan(card: "1001", pin: "1234", productID: LendingFixtures.accessTitle())
            try await server.control("POST", "reset")
            #expect(try await lending.loans(card: "1001", onlyActive: false).isEmpty)
        }
    }
}
