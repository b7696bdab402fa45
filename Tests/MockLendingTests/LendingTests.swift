import Catalog
import Foundation
import MockLending
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Patrons and loans over HTTP, through the real client (`HTTPLendingService` as `PatronLending`).
@Suite("Mock lending: patrons and loans")
struct LendingTests {
    @Test("Verify answers the patron for the right PIN and 401 with a reason for a wrong one")
    func verify() async throws {
        try await TestServer.lending { server in
            let patron = try await server.lending.verifyPatron(card: "1004", pin: "4567")
            #expect(patron == Patron(card: "1004", name: "Måns Ängström", loansThisMonth: 4, maxLoansPerMonth: 5))
            let wrong = await #expect(throws: LendingError.self) {
                _ = try await server.lending.verifyPatron(card: "1004", pin: "0000")
            }
            #expect(wrong?.status == 401 && wrong?.reason?.contains("Wrong PIN for card 1004") == true)
            #expect(wrong?.reason?.contains("0000") == false && wrong?.reason?.contains("4567") == false)
            let unknown = await #expect(throws: LendingError.self) {
                _ = try await server.lending.verifyPatron(card: "9999", pin: "1234")
            }
            #expect(unknown?.status == 401 && unknown?.reason?.contains("9999") == true)
        }
    }

    @Test("Five wrong PINs lock the card for 15 virtual minutes, even for the right PIN")
    func lockout() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            for attempt in 1...4 {
                let error = await #expect(throws: LendingError.self) {
                    _ = try await lending.verifyPatron(card: "1002", pin: "9999")
                }
                #expect(
                    error?.status == 401 && error?.reason?.contains("\(5 - attempt) tr") == true,
                    "\(String(describing: error))")
            }
            let fifth = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1002", pin: "9999", productID: LendingFixtures.accessTitle())
            }
            // 10:00 in Stockholm plus 15 minutes.
            #expect(
                fifth?.status == 403
                    && fifth?.reason == "Card 1002 is locked after 5 wrong PINs; try again after 10:15.",
                "\(String(describing: fifth?.reason))")
            let right = await #expect(throws: LendingError.self) {
                _ = try await lending.verifyPatron(card: "1002", pin: "2345")
            }
            #expect(right?.status == 403 && right?.reason?.contains("locked") == true)
            // Other cards are not affected.
            let other = try await lending.verifyPatron(card: "1001", pin: "1234")
            #expect(other.card == "1001")

            await server.server.advanceClock(by: 14 * 60)
            await #expect(throws: LendingError.self) { _ = try await lending.verifyPatron(card: "1002", pin: "2345") }
            await server.server.advanceClock(by: 60)
            let unlocked = try await lending.verifyPatron(card: "1002", pin: "2345")
            #expect(unlocked.card == "1002")
            // The count starts again: one wrong PIN now does not lock.
            let again = await #expect(throws: LendingError.self) {
                _ = try await lending.verifyPatron(card: "1002", pin: "1")
            }
            #expect(again?.status == 401 && again?.reason?.contains("4 tries left") == true)
        }
    }

    @Test("Borrowing makes an active loan due in 28 days with an absolute EPUB link")
    func borrow() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let id = LendingFixtures.lastCopyTitle()
            let loan = try await lending.createLoan(card: "1001", pin: "1234", productID: id)
            #expect(loan.productID == id && loan.active)
            #expect(loan.expiryDate == LendingFixtures.day(28))
            #expect(
                !loan.title.isEmpty && loan.coverImage?.hasPrefix("http://127.0.0.1:\(server.server.port)/") == true)
            let url = try #require(loan.epubURL)
            #expect(url == "http://127.0.0.1:\(server.server.port)/mock/content/loans/\(loan.id).epub")
            #expect(try await lending.loan(id: loan.id) == loan)
            #expect(try await lending.loans(card: "1001", onlyActive: true) == [loan])
            #expect(try await lending.verifyPatron(card: "1001", pin: "1234").loansThisMonth == 1)

            let twice = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1001", pin: "1234", productID: id)
            }
            #expect(twice?.status == 409 && twice?.reason == "You already have this book on loan")
            let wrongPIN = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1004", pin: "1234", productID: LendingFixtures.accessTitle())
            }
            #expect(wrongPIN?.status == 401)
            #expect(try await lending.loans(card: "1004", onlyActive: true).count == 4, "a wrong PIN lends nothing")
        }
    }

    @Test("At the monthly limit borrowing says so (borrower) until the month turns")
    func monthlyLimit() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let client = server.client()
            let id = LendingFixtures.accessTitle()
            #expect(try await client.availability(productID: id, card: "1002").reason == .borrower)
            let limited = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1002", pin: "2345", productID: id)
            }
            #expect(limited?.status == 409 && limited?.reason?.contains("5 loans this month") == true)
            #expect(limited?.reason?.contains("1 December 2026") == true)

            // 1004 has one loan left.
            _ = try await lending.createLoan(card: "1004", pin: "4567", productID: id)
            let fifth = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1004", pin: "4567", productID: LendingFixtures.accessTitle(1))
            }
            #expect(fifth?.status == 409)

            // Returning does not give a loan back; a new month does.
            let first = try #require(try await lending.loans(card: "1002", onlyActive: true).first)
            try await lending.returnLoan(id: first.id, card: nil)
            await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1002", pin: "2345", productID: id)
            }
            await server.server.setClock(
                DayDate(year: 2026, month: 12, day: 1).startDate(in: MockRules.stockholm).addingTimeInterval(3_600))
            #expect(try await lending.createLoan(card: "1002", pin: "2345", productID: id).active)
        }
    }

    @Test("Pay-per-loan titles draw on the library's monthly budget (library)")
    func budget() async throws {
        try await TestServer.lending(rules: MockRules(payPerLoanMonthlyBudget: 2)) { server in
            let lending = server.lending
            let client = server.client()
            let titles = (0..<3).map(LendingFixtures.payPerLoanTitle)
            #expect(try await client.availability(productID: titles[0], card: nil).reason == .library)
            let spent = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1001", pin: "1234", productID: titles[0])
            }
            #expect(spent?.status == 409 && spent?.reason?.contains("budget") == true)

            await server.server.setClock(
                DayDate(year: 2026, month: 12, day: 2).startDate(in: MockRules.stockholm).addingTimeInterval(36_000))
            #expect(try await client.availability(productID: titles[0], card: nil).available)
            _ = try await lending.createLoan(card: "1001", pin: "1234", productID: titles[0])
            _ = try await lending.createLoan(card: "1004", pin: "4567", productID: titles[1])
            #expect(try await client.availability(productID: titles[2], card: "1003").reason == .library)
            let third = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1003", pin: "3456", productID: titles[2])
            }
            #expect(third?.status == 409 && third?.reason?.contains("budget") == true)
            let models = try await client.licence(productID: titles[2])
            #expect(models.first?.model == "ppu" && models.first?.current == 2 && models.first?.max == 2)
        }
    }

    @Test("A pace of 2 loans in 7 days is a rolling window: borrower with the day the oldest loan leaves it")
    func pace() async throws {
        try await TestServer.lending(rules: MockRules(loanPace: LoanPace(loans: 2, days: 7))) { server in
            let lending = server.lending
            let client = server.client()
            let titles = (0..<4).map(LendingFixtures.accessTitle)
            _ = try await lending.createLoan(card: "1001", pin: "1234", productID: titles[0])
            await server.server.advanceClock(by: 3 * 86_400)
            _ = try await lending.createLoan(card: "1001", pin: "1234", productID: titles[1])
            let paced = try await client.availability(productID: titles[2], card: "1001")
            #expect(paced.reason == .borrower && paced.pace == LoanPace(loans: 2, days: 7), "\(paced)")
            #expect(paced.estimatedDate == LendingFixtures.day(7))
            // The title itself is free: only 1001's pace is in the way.
            #expect(try await client.availability(productID: titles[2], card: nil).available)
            let refused = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1001", pin: "1234", productID: titles[2])
            }
            #expect(
                refused?.status == 409 && refused?.reason?.contains("2 loans in 7 days") == true
                    && refused?.reason?.contains(LendingFixtures.written(LendingFixtures.day(7))) == true,
                "\(String(describing: refused?.reason))")
            await server.server.advanceClock(by: 3 * 86_400)
            #expect(try await client.availability(productID: titles[2], card: "1001").reason == .borrower)
            await server.server.advanceClock(by: 86_400)
            _ = try await lending.createLoan(card: "1001", pin: "1234", productID: titles[2])
            // Now the loans of days 3 and 7 fill the window: the next is on day 10.
            let again = try await client.availability(productID: titles[3], card: "1001")
            #expect(again.reason == .borrower && again.estimatedDate == LendingFixtures.day(10), "\(again)")
        }
    }

    @Test("The last copy goes to one patron; the next is told to reserve (product)")
    func lastCopy() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let client = server.client()
            let id = LendingFixtures.lastCopyTitle()
            _ = try await lending.createLoan(card: "1001", pin: "1234", productID: id)
            #expect(try await client.availability(productID: id, card: "1004").reason == .product)
            let out = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1004", pin: "4567", productID: id)
            }
            #expect(
                out?.status == 409 && out?.reason?.contains("on loan; reserve it") == true,
                "\(String(describing: out?.reason))")
        }
    }

    @Test("Unlimited-access titles never run out")
    func accessNeverRunsOut() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let id = LendingFixtures.accessTitle()
            for (card, pin) in [("1001", "1234"), ("1003", "3456"), ("1004", "4567")] {
                #expect(try await lending.createLoan(card: card, pin: pin, productID: id).active)
            }
            #expect(try await server.client().availability(productID: id, card: nil).available)
            let models = try await server.client().licence(productID: id)
            #expect(models.first?.model == "access" && models.first?.isAvailable == true)
        }
    }

    @Test("Many concurrent borrows of the last copy make exactly one loan")
    func concurrentLastCopy() async throws {
        try await TestServer.lending { server in
            let id = LendingFixtures.lastCopyTitle()
            let client = server.client()
            let patrons = [("1001", "1234"), ("1003", "3456"), ("1004", "4567")]
            let results = await withTaskGroup(of: Result<Loan, LendingError>.self) { group in
                for attempt in 0..<12 {
                    let (card, pin) = patrons[attempt % patrons.count]
                    group.addTask {
                        do {
                            return .success(try await client.createLoan(card: card, pin: pin, productID: id))
                        } catch let error as LendingError {
                            return .failure(error)
                        } catch {
                            return .failure(LendingError(.rejected, "\(error)"))
                        }
                    }
                }
                var results: [Result<Loan, LendingError>] = []
                for await result in group { results.append(result) }
                return results
            }
            let loans = results.compactMap { try? $0.get() }
            #expect(loans.count == 1)
            for case .failure(let error) in results {
                #expect(error.status == 409, "\(error)")
                let reason = error.reason ?? ""
                #expect(
                    reason.contains("on loan; reserve it") || reason == "You already have this book on loan",
                    "\(reason)")
            }
            var lent = 0
            for (card, _) in patrons {
                lent += try await client.loans(card: card, onlyActive: true).filter { $0.productID == id }.count
            }
            #expect(lent == 1)
        }
    }

    @Test("Returning early ends the loan; its content is gone (410) but the loan is still listed")
    func earlyReturn() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let loan = try await lending.createLoan(card: "1001", pin: "1234", productID: LendingFixtures.accessTitle())
            let (_, before) = try await server.download(try #require(loan.epubURL))
            #expect(before.statusCode == 200)
            try await lending.returnLoan(id: loan.id, card: nil)
            try await lending.returnLoan(id: loan.id, card: nil)  // repeating a return is harmless
            #expect(try await lending.loans(card: "1001", onlyActive: true).isEmpty)
            let all = try await lending.loans(card: "1001", onlyActive: false)
            #expect(all.map(\.id) == [loan.id] && all[0].active == false)
            #expect(try await lending.loan(id: loan.id).active == false)
            let (body, after) = try await server.download(try #require(loan.epubURL))
            #expect(after.statusCode == 410)
            #expect(
                String(decoding: body, as: UTF8.self).contains(
                    "was returned on \(LendingFixtures.written(LendingFixtures.day()))"))
        }
    }

    @Test("A loan runs out by the virtual clock after its last day")
    func expiry() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let loan = try await lending.createLoan(card: "1001", pin: "1234", productID: LendingFixtures.accessTitle())
            await server.server.advanceClock(by: 28 * 86_400)
            #expect(try await lending.loan(id: loan.id).active, "still active on its last day")
            await server.server.advanceClock(by: 86_400)
            #expect(try await lending.loan(id: loan.id).active == false)
            #expect(try await lending.loans(card: "1001", onlyActive: true).isEmpty)
            let (body, response) = try await server.download(try #require(loan.epubURL))
            #expect(response.statusCode == 410)
            #expect(
                String(decoding: body, as: UTF8.self).contains(
                    "ended after \(LendingFixtures.written(LendingFixtures.day(28)))"))
        }
    }

    @Test("Returning someone else's loan with card is 403; unknown ids are 404 with a reason")
    func returnGuards() async throws {
        try await TestServer.lending { server in
            let lending = server.lending
            let loan = try await lending.createLoan(card: "1001", pin: "1234", productID: LendingFixtures.accessTitle())
            let (body, response) = try await server.rawDelete(
                "loans/\(loan.id)", checksumOf: [loan.id], query: [("card", "1004")])
            #expect(response.statusCode == 403)
            #expect(String(decoding: body, as: UTF8.self).contains("This loan belongs to another card"))
            let (_, own) = try await server.rawDelete(
                "loans/\(loan.id)", checksumOf: [loan.id], query: [("card", "1001")])
            #expect(own.statusCode == 204)

            let noLoan = await #expect(throws: LendingError.self) { _ = try await lending.loan(id: "L999999") }
            #expect(noLoan?.status == 404 && noLoan?.reason == "Loan L999999 not found")
            let noReturn = await #expect(throws: LendingError.self) {
                try await lending.returnLoan(id: "L999999", card: nil)
            }
            #expect(noReturn?.status == 404 && noReturn?.kind == .notFound)
            let noProduct = await #expect(throws: LendingError.self) {
                _ = try await lending.createLoan(card: "1001", pin: "1234", productID: "42")
            }
            #expect(noProduct?.status == 404 && noProduct?.reason == "Product not found")
            let noCard = await #expect(throws: LendingError.self) {
                _ = try await lending.loans(card: "9999", onlyActive: true)
            }
            #expect(noCard?.status == 404 && noCard?.reason?.contains("9999") == true)
        }
    }

    @Test("DropAfterCommit: the client sees a dropped connection, and exactly one loan was made")
    func dropAfterCommit() async throws {
        try await TestServer.lending { server in
            let id = LendingFixtures.lastCopyTitle()
            try await server.control("POST", "faults", json: #"{"DropAfterCommit": true}"#)
            let dropped = await #expect(throws: LendingError.self) {
                _ = try await server.client().createLoan(card: "1001", pin: "1234", productID: id)
            }
            #expect(dropped?.kind == .dropped, "\(String(describing: dropped))")
            let loans = try await server.client().loans(card: "1001", onlyActive: true)
            #expect(loans.map(\.productID) == [id])
            // A retry after the lost answer finds the loan made, not a second copy.
            try await server.control("DELETE", "faults")
            let retry = await #expect(throws: LendingError.self) {
                _ = try await server.client().createLoan(card: "1001", pin: "1234", productID: id)
            }
            #expect(retry?.reason == "You already have this book on loan")
        }
    }

    @Test(
        "A wrong checksum on every lending call is 401",
        arguments: [
            "verify", "createLoan", "loans", "loan", "returnLoan", "reserve", "reservations", "cancelReservation",
        ])
    func checksums(call: String) async throws {
        try await TestServer.lending { server in
            let wrong: any PatronLending = server.client(serviceKey: "wrong")
            let error = await #expect(throws: LendingError.self) {
                switch call {
                case "verify": _ = try await wrong.verifyPatron(card: "1001", pin: "1234")
                case "createLoan":
                    _ = try await wrong.createLoan(card: "1001", pin: "1234", productID: LendingFixtures.accessTitle())
                case "loans": _ = try await wrong.loans(card: "1001", onlyActive: true)
                case "loan": _ = try await wrong.loan(id: "L100001")
                case "returnLoan": try await wrong.returnLoan(id: "L100001", card: nil)
                case "reserve":
                    _ = try await wrong.reserve(
                        card: "1001", pin: "1234", productID: Fixtures.catalog.products[Fixtures.byPopularity[1]].id)
                case "reservations": _ = try await wrong.reservations(card: "1003")
                default: try await wrong.cancelReservation(id: "R100012", card: nil)
                }
            }
            #expect(error?.status == 401 && error?.reason == "Invalid checksum", "\(call)")
            // Nothing happened: no PIN was counted, no loan made.
            let state = String(decoding: try await server.control("GET", "state").0, as: UTF8.self)
            #expect(!state.contains("\"WrongPINs\":1"))
            #expect(try await server.lending.loans(card: "1001", onlyActive: true).isEmpty)
        }
    }

    @Test("No PIN appears in /mock/state or in any reason")
    func pinsStaySecret() async throws {
        try await TestServer.lending { server in
            _ = try? await server.lending.verifyPatron(card: "1001", pin: "7777")
            let (data, _) = try await server.control("GET", "state")
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("Pin") && !text.contains("PIN\""))
            for pin in LendingFixtures.pins.values + ["7777"] { #expect(!text.contains("\"\(pin)\""), "\(pin)") }
        }
    }
}
