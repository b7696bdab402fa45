import Catalog
import Foundation
import Testing

@testable import MockLending

/// What the mock writes and reads by hand, byte by byte, agrees with Foundation's way.
struct WireBytesTests {
    @Test func queryParametersDecodeAsFormsAndFoundationDo() {
        let query = QueryParameters(
            "q=sj%C3%B6n+och+%2B%26&ServiceID=bok-mock&serviceid=later&Sort=Author%20&odd=%zz+x&cut=%C3&empty&x=%41b")
        #expect(query["q"] == "sjön och +&")
        #expect(query["serviceid"] == "bok-mock" && query["ServiceID"] == "bok-mock")
        #expect(query["sort"] == "Author ")
        // Not an escape, or not UTF-8: the text as it came, `+` still a space.
        #expect(query["odd"] == "%zz x")
        #expect(query["cut"] == "%C3")
        #expect(query["empty"] == "" && query["x"] == "Ab" && query["missing"] == nil)
        // A name with an escape and a capital outside ASCII is folded as Foundation folds it.
        #expect(QueryParameters("%C3%85r=1")["år"] == "1")
        // Letters not escaped, as a hand-written URL has them; `=` in a value stays.
        let written = QueryParameters("q=sjön+vid=berg&Å=2&&=tom")
        #expect(written["q"] == "sjön vid=berg" && written["å"] == "2" && written[""] == "tom")
    }

    @Test func anAvailabilityIsWrittenAsJSONEncoderWritesIt() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let cases = [
            Availability(available: true),
            Availability(available: true, copies: 3, waiting: 0),
            Availability(
                available: false, reason: .product, copies: 2, waiting: 5,
                estimatedDate: DayDate(year: 2026, month: 3, day: 4)),
            Availability(available: false, reason: .library, estimatedDate: DayDate(year: 999, month: 12, day: 31)),
            Availability(available: false, reason: .borrower, pace: LoanPace(loans: 3, days: 7)),
            Availability(available: false, reason: .other("kvot/slut")),
            Availability(available: true, copies: Int.max, waiting: -12),
            Availability(
                available: false, reason: .borrower, copies: 10, waiting: 1_000_000,
                estimatedDate: DayDate(year: 2031, month: 1, day: 9), pace: LoanPace(loans: 10, days: 365)),
            Availability(available: false, reason: .other("\"quoted\" \\ å")),
        ]
        for availability in cases {
            var written = Data()
            availability.appendJSON(to: &written)
            let encoded = try encoder.encode(availability)
            // The same object (JSONEncoder's key order is its own), and as the client reads it.
            func sorted(_ json: Data) throws -> Data {
                try JSONSerialization.data(
                    withJSONObject: JSONSerialization.jsonObject(with: json), options: .sortedKeys)
            }
            #expect(try sorted(written) == sorted(encoded), "\(String(decoding: written, as: UTF8.self))")
            #expect(try JSONDecoder().decode(Availability.self, from: written) == availability)
        }
    }
}
