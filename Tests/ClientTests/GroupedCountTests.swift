import Testing

@testable import Localization

/// Counts of five digits or more are grouped as the interface language writes them.
struct GroupedCountTests {
    @Test(arguments: [
        (542_366, "sv", "542\u{A0}366"), (542_366, "en", "542,366"), (1_000_000, "sv", "1\u{A0}000\u{A0}000"),
        (10_000, "en", "10,000"), (-12_345, "en", "-12,345"),
    ])
    func grouped(number: Int, language: String, text: String) {
        #expect(Localization.grouped(number, language: language) == text)
    }

    @Test func onlyCountsOfFiveDigitsAreGrouped() {
        // `{n}` below 10 000 and other placeholders (a port, a year) stay as they are.
        #expect(trn("{n} hit", "{n} hits", 9_999) == "9999 hits")
        #expect(tr("Is another server on port {port}? Try --port 0.", ["port": 58_101]).contains("port 58101?"))
        let many = trn("{n} hit", "{n} hits", 542_366)
        #expect(many.hasPrefix("542,366 ") || many.hasPrefix("542\u{A0}366 "), "\(many)")
    }
}
