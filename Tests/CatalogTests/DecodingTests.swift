import Catalog
import Foundation
import Testing

@Suite("Upstream JSON shapes")
struct DecodingTests {
    @Test("Product uses ProductId; numbers and strings both work as ids")
    func productId() throws {
        let json = #"{"Product": {"ProductId": 4711, "Title": "Mörkret över Visby", "PublishedDate": "2021-03-12"}}"#
        let answer = try JSONDecoder().decode(Wire.ProductAnswer.self, from: Data(json.utf8))
        #expect(answer.product.id == "4711")
        #expect(answer.product.publishedDate == DayDate(year: 2021, month: 3, day: 12))
        // The old spelling of other answers is not accepted for a product.
        let wrong = #"{"Product": {"ProductID": "1", "Title": "X"}}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Wire.ProductAnswer.self, from: Data(wrong.utf8))
        }
    }

    @Test("Availability answers use ProductID and an empty Reason when available")
    func availability() throws {
        let json =
            #"""
            {"Products": [{"ProductID": "12", "Available": false, "Reason": "borrower"}, {"ProductID": "13", \#
            "Available": true, "Reason": ""}]}
            """#
        let answer = try JSONDecoder().decode(Wire.AvailabilityAnswer.self, from: Data(json.utf8))
        #expect(answer.products.map(\.productID) == ["12", "13"])
        #expect(answer.products[0].reason == "borrower")
        let embedded = try JSONDecoder().decode(
            Availability.self, from: Data(#"{"Available": true, "Reason": ""}"#.utf8))
        #expect(embedded.reason == nil)
    }

    @Test(
        "Dates with a time keep only the day; nonsense is an error",
        arguments: [
            ("2024-02-29", DayDate(year: 2024, month: 2, day: 29)),
            ("2024-02-29T23:30:00+01:00", DayDate(year: 2024, month: 2, day: 29)),
            ("2024-02-29 08:00:00", DayDate(year: 2024, month: 2, day: 29)),
        ])
    func dates(text: String, day: DayDate) throws {
        #expect(DayDate(string: text) == day)
        #expect(DayDate(string: "29/02/2024") == nil)
        #expect(DayDate(string: "2024-13-01") == nil)
    }

    @Test(
        "A day the calendar does not have is not a date",
        arguments: ["2024-02-30", "2023-02-29", "2024-04-31", "1900-02-29"])
    func impossibleDays(text: String) {
        #expect(DayDate(string: text) == nil)
    }

    @Test("Days are counted across months, leap days and years, as the calendar counts them")
    func dayArithmetic() {
        let leap = DayDate(year: 2024, month: 2, day: 28)
        #expect(leap.adding(days: 1) == DayDate(year: 2024, month: 2, day: 29))
        #expect(leap.adding(days: 2) == DayDate(year: 2024, month: 3, day: 1))
        #expect(DayDate(year: 2023, month: 12, day: 31).adding(days: 1) == DayDate(year: 2024, month: 1, day: 1))
        #expect(DayDate(year: 2024, month: 3, day: 1).adding(days: -366) == DayDate(year: 2023, month: 3, day: 1))
        #expect(DayDate(year: 1970, month: 1, day: 1).ordinal == 0)
        #expect(DayDate(year: 1969, month: 12, day: 31).ordinal == -1)
        #expect(DayDate(year: 2024, month: 1, day: 1).days(until: DayDate(year: 2025, month: 1, day: 1)) == 366)
        // Every day of four centuries agrees with Foundation's Gregorian calendar.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for ordinal in stride(from: -36_524, through: 109_572, by: 97) {
            let c = calendar.dateComponents(
                [.year, .month, .day], from: Date(timeIntervalSince1970: Double(ordinal) * 86_400))
            let day = DayDate(ordinal: ordinal)
            #expect(day == DayDate(year: c.year!, month: c.month!, day: c.day!), "\(ordinal)")
            #expect(day.ordinal == ordinal)
        }
    }

    @Test("The older feed's Authors array becomes authors")
    func olderAuthors() throws {
        let json =
            #"""
            {"ProductId": "1", "Title": "Pippi", "Authors": [{"FullName": "Astrid Lindgren"}, {"FirstName": \#
            "Ingrid", "LastName": "Vang Nyman"}]}
            """#
        let product = try JSONDecoder().decode(Product.self, from: Data(json.utf8))
        #expect(product.authors.map(\.fullName) == ["Astrid Lindgren", "Ingrid Vang Nyman"])
        #expect(product.authors.first?.lastName == "Lindgren")
    }

    @Test("Contributors carry roles, series come from Relations, PDF is ignored next to EPUB")
    func fullProduct() throws {
        let json = #"""
            {"ProductId": "100", "Title": "Tyst hamn", "OriginalTitle": "The Silent Harbour",
             "Contributors": [{"Role": "Author", "FirstName": "John", "LastName": "Smith"},
                              {"Role": "Translator", "FirstName": "Åsa", "LastName": "Ödman"}],
             "Relations": [{"Type": "Series", "Name": "Hamnserien", "Order": 2}],
             "PublicIdentifiers": [{"IdType": "ISBN13", "Id": "9789100123456"}],
             "AvailableFormats": [{"FormatId": "4104", "Name": "EPUB"}, {"FormatId": "4103", "Name": "PDF"}],
             "Statuses": [{"Name": "Active", "ValidFrom": "2020-01-01", "ValidUntil": "2030-12-31"}],
             "Availability": {"Available": false, "Reason": "product", "Copies": 3, "Waiting": 2}}
            """#
        let product = try JSONDecoder().decode(Product.self, from: Data(json.utf8))
        #expect(product.translators.map(\.fullName) == ["Åsa Ödman"])
        #expect(product.series == Product.Series(name: "Hamnserien", order: 2))
        #expect(product.isbns == ["9789100123456"])
        #expect(product.offeredFormats.map(\.id) == ["4104"])
        #expect(product.isActive(on: DayDate(year: 2025, month: 6, day: 1)))
        #expect(!product.isActive(on: DayDate(year: 2031, month: 1, day: 1)))
        #expect(product.availability?.explanation == "all 3 copies on loan, 2 waiting")
        // Encoding and decoding again gives the same product.
        let again = try JSONDecoder().decode(Product.self, from: JSONEncoder().encode(product))
        #expect(again == product)
    }

    @Test(
        "Reasons in words",
        arguments: [
            (Availability(available: false, reason: .product, copies: 1, waiting: 0), "the only copy is on loan"),
            (
                Availability(available: false, reason: .product, copies: 3, waiting: 2),
                "all 3 copies on loan, 2 waiting"
            ),
            (Availability(available: false, reason: .library), "the library's e-book budget for this month is used up"),
            (
                Availability(available: false, reason: .borrower, pace: LoanPace(loans: 3, days: 7)),
                "you have made 3 loans in 7 days, as many as the library allows"
            ),
            (Availability(available: false, reason: .borrower), "you have reached your own loan limit for this month"),
        ])
    func reasons(availability: Availability, words: String) {
        #expect(availability.explanation == words)
    }
}

@Suite("Checksums")
struct ChecksumTests {
    @Test("SHA-512 over service id, parameters in order, and key, in lower-case hex")
    func known() {
        let sum = Checksum.compute(serviceID: "bok-mock", parameters: ["42"], serviceKey: "mock-secret")
        #expect(
            sum
                == """
                61a0dbeb0eaa9b809e3c09f8ed5dde1789ee76fa3ee3f871434dc49f01b490f02c49a94500b96e2fc71883a92f4258e3892\
                490b007dd2223e86a3314d0307559
                """
        )
        #expect(sum.count == 128)
    }

    @Test("Order of parameters matters; matching ignores case")
    func order() {
        let a = Checksum.compute(serviceID: "s", parameters: ["card", "42"], serviceKey: "k")
        let b = Checksum.compute(serviceID: "s", parameters: ["42", "card"], serviceKey: "k")
        #expect(a != b)
        #expect(Checksum.matches(a.uppercased(), serviceID: "s", parameters: ["card", "42"], serviceKey: "k"))
        #expect(!Checksum.matches(a, serviceID: "s", parameters: ["card", "42"], serviceKey: "other"))
        #expect(!Checksum.matches("", serviceID: "s", parameters: [], serviceKey: "k"))
    }
}
