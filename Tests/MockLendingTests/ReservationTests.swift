import Catalog
import Foundation
import MockLending
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reservation queues over HTTP: first come, first served; ready when a copy comes back; lapsing.
@Suite("Mock lending: reservations")
struct ReservationTests {
    @Test("Seeded 1003: advancing 2 days makes the reservation ready; borrowing fulfils it")
    func seededReadyAfterTwoDays() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let id = LendingFixtures.comingBackTitle
            let before = try await lending.reservations(card: "1003")
            #expect(before.count == 2)
            let soon = try #require(before.first { $0.productID == id })
            #expect(soon.queuePosition == 1 && !soon.ready && soon.estimatedDate == LendingFixtures.day(2))
            #expect(soon.title == LendingFixtures.title(id))
            let popular = try #require(before.first { $0.productID != id })
            #expect(
                popular.queuePosition > 1 && (popular.estimatedDate ?? LendingFixtures.day()) > LendingFixtures.day())

            try await server.control("POST", "clock", json: #"{"Advance": "1d"}"#)
            #expect(try await lending.reservations(card: "1003").first { $0.productID == id }?.ready == false)
            try await server.control("POST", "clock", json: #"{"Advance": "1d"}"#)
            let ready = try #require(try await lending.reservations(card: "1003").first { $0.productID == id })
            #expect(ready.ready && ready.readyUntil == LendingFixtures.day(5) && ready.queuePosition == 1)

            let client = server.client()
            #expect(try await client.availability(productID: id, card: "1003").available)
            #expect(try await client.availability(productID: id, card: "1001").reason == .product)
            let held = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1001", pin: "1234", productID: id)
            }
            #expect(
                held?.status == 409 && held?.reason?.contains("held for a patron whose reservation is ready") == true)
            let loan = try await lending.createLoan(card: "1003", pin: "3456", productID: id)
            #expect(loan.active && loan.expiryDate == LendingFixtures.day(30))
            #expect(try await lending.reservations(card: "1003").map(\.productID) == [popular.productID])
        }
    }

    @Test("The queue is first come, first served, with positions and estimates; an early return readies the first")
    func fifoAndEarlyReturn() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let id = LendingFixtures.lastCopyTitle()
            let loan = try await lending.createLoan(card: "1001", pin: "1234", productID: id)
            let first = try await lending.reserve(card: "1004", pin: "4567", productID: id)
            let second = try await lending.reserve(card: "1003", pin: "3456", productID: id)
            // At the loan limit, a patron may still queue.
            let third = try await lending.reserve(card: "1002", pin: "2345", productID: id)
            #expect([first, second, third].map(\.queuePosition) == [1, 2, 3])

            // Estimates: the copies come back in turn, and each patron ahead keeps one 28 days.
            let copies = LendingFixtures.copies(id)
            let comingBack = (LendingFixtures.othersComingBack(id) + [LendingFixtures.day(29)]).sorted()
            for (place, reservation) in [first, second, third].enumerated() {
                let expected = comingBack[place % copies].adding(days: (place / copies) * 28)
                #expect(reservation.estimatedDate == expected, "place \(place + 1)")
            }

            let twice = await #expect(throws: LendingError.self) {
                _ = try await lending.reserve(card: "1004", pin: "4567", productID: id)
            }
            #expect(twice?.status == 409 && twice?.reason == "You have already reserved this book")
            let onLoan = await #expect(throws: LendingError.self) {
                _ = try await lending.reserve(card: "1001", pin: "1234", productID: id)
            }
            #expect(onLoan?.status == 409 && onLoan?.reason == "You already have this book on loan")

            try await lending.returnLoan(id: loan.id, card: nil)
            let ready = try #require(try await lending.reservations(card: "1004").first { $0.productID == id })
            #expect(ready.ready && ready.readyUntil == LendingFixtures.day(3) && ready.queuePosition == 1)
            let waiting = try #require(try await lending.reservations(card: "1003").first { $0.productID == id })
            #expect(!waiting.ready && waiting.queuePosition == 2)
            let held = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1003", pin: "3456", productID: id)
            }
            #expect(held?.status == 409)

            #expect(try await lending.createLoan(card: "1004", pin: "4567", productID: id).active)
            #expect(try await lending.reservations(card: "1004").contains { $0.productID == id } == false)
            #expect(try await lending.reservations(card: "1003").first { $0.productID == id }?.queuePosition == 1)
            #expect(try await lending.reservations(card: "1002").first { $0.productID == id }?.queuePosition == 2)
        }
    }

    @Test("A copy that comes back by expiry readies the first in the queue")
    func readyOnExpiry() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let id = LendingFixtures.lastCopyTitle(onlyCopy: true)
            let loan = try await lending.createLoan(card: "1001", pin: "1234", productID: id)
            let reserved = try await lending.reserve(card: "1004", pin: "4567", productID: id)
            #expect(reserved.estimatedDate == LendingFixtures.day(29))
            await server.server.advanceClock(by: 28 * 86_400)
            #expect(try await lending.reservations(card: "1004").first?.ready == false)
            await server.server.advanceClock(by: 86_400)
            #expect(try await lending.loan(id: loan.id).active == false)
            let reservation = try #require(try await lending.reservations(card: "1004").first { $0.productID == id })
            #expect(reservation.ready && reservation.readyUntil == LendingFixtures.day(32))
        }
    }

    @Test("A ready reservation lapses after 3 days and the next in the queue becomes ready")
    func lapse() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let id = LendingFixtures.comingBackTitle
            let behind = try await lending.reserve(card: "1001", pin: "1234", productID: id)
            #expect(behind.queuePosition == 2)
            try await server.control("POST", "clock", json: #"{"Advance": "2d"}"#)
            #expect(try await lending.reservations(card: "1001").first?.ready == false)
            try await server.control("POST", "clock", json: #"{"Advance": "3d"}"#)
            #expect(
                try await lending.reservations(card: "1003").first { $0.productID == id }?.readyUntil
                    == LendingFixtures.day(5),
                "still ready on its last day")
            try await server.control("POST", "clock", json: #"{"Advance": "1d"}"#)
            #expect(try await lending.reservations(card: "1003").contains { $0.productID == id } == false)
            let next = try #require(try await lending.reservations(card: "1001").first)
            #expect(next.ready && next.queuePosition == 1 && next.readyUntil == LendingFixtures.day(9))
        }
    }

    @Test("Reserving a book that can be borrowed is refused: borrow it instead")
    func reserveAvailable() async throws {
        try await TestServer.lending { server in
            for id in [LendingFixtures.lastCopyTitle(), LendingFixtures.accessTitle()] {
                let error = await #expect(throws: LendingError.self) {
                    _ = try await server.lending.reserve(card: "1002", pin: "2345", productID: id)
                }
                #expect(error?.status == 409 && error?.reason == "The book is available; borrow it instead")
            }
            let unknown = await #expect(throws: LendingError.self) {
                _ = try await server.lending.reserve(card: "1001", pin: "1234", productID: "42")
            }
            #expect(unknown?.status == 404 && unknown?.reason == "Product not found")
        }
    }

    @Test("Cancelling someone else's reservation is 403; cancelling a ready one passes the copy on")
    func cancel() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let id = LendingFixtures.comingBackTitle
            try await server.control("POST", "clock", json: #"{"Advance": "2d"}"#)
            let theirs = try #require(try await lending.reservations(card: "1003").first { $0.productID == id })
            #expect(theirs.ready)
            let mine = try await lending.reserve(card: "1001", pin: "1234", productID: id)
            #expect(mine.queuePosition == 2 && !mine.ready)

            let (body, forbidden) = try await server.rawDelete(
                "reservations/\(theirs.id)", checksumOf: [theirs.id], query: [("card", "1001")])
            #expect(forbidden.statusCode == 403)
            #expect(String(decoding: body, as: UTF8.self).contains("This reservation belongs to another card"))
            let (_, allowed) = try await server.rawDelete(
                "reservations/\(theirs.id)", checksumOf: [theirs.id], query: [("card", "1003")])
            #expect(allowed.statusCode == 204)
            try await lending.cancelReservation(id: theirs.id, card: nil)  // again: harmless

            let now = try #require(try await lending.reservations(card: "1001").first)
            #expect(now.ready && now.queuePosition == 1 && now.readyUntil == LendingFixtures.day(5))
            let unknown = await #expect(throws: LendingError.self) {
                try await lending.cancelReservation(id: "R999999", card: nil)
            }
            #expect(unknown?.status == 404 && unknown?.reason == "Reservation R999999 not found")
        }
    }

    @Test("The raw answers use upstream's spellings: CreatedReservation, Reservations with Title")
    func rawSpellings() async throws {
        try await TestServer.lending { server in
            let id = Fixtures.catalog.products[Fixtures.byPopularity[1]].id
            let (created, response) = try await server.rawPost(
                "reservations", checksumOf: ["1001", id],
                form: [("Card", "1001"), ("ProductID", id), ("Pin", "1234")])
            #expect(response.statusCode == 200)
            let text = String(decoding: created, as: UTF8.self)
            #expect(
                text.contains("\"CreatedReservation\":{") && text.contains("\"QueuePosition\":")
                    && text.contains("\"EstimatedDate\":\"") && !text.contains("1234"))
            let (list, _) = try await server.rawGet("reservations", checksumOf: ["1001"], query: [("card", "1001")])
            #expect(String(decoding: list, as: UTF8.self).contains("\"Title\":"))
        }
    }
}
