import Catalog
import Foundation
import Testing

/// A library's answer is where its words enter bok: decoded for the screen they are safe to draw;
/// decoded for `--json` they are exactly what the server sent.
struct HostileTextDecodingTests {
    // Valid JSON: every control is a \u escape, as a hostile server would send it.
    static let answer = #"""
        {"Product": {"ProductId": 1, "Title": "Evil\u001b]0;PWNED\u0007\u001b]52;c;cHduZWQ=\u0007\u001b[2JTitle",
          "Contributors": [{"Role": "Author", "FirstName": "\u001b[5mAnna", "LastName": "Öberg\u009b?1049h"}],
          "Categories": ["Thriller\u0000"], "Description": "Line one\r\nline two\u202e reversed",
          "Publisher": "Förlaget\u007f", "Relations": [{"Type": "Series", "Name": "Serien\u2066", "Order": 1}],
          "Availability": {"Available": false, "Reason": "\u202eelbaliava"}}}
        """#

    static func product(_ policy: TextPolicy?) throws -> Product {
        let decoder = JSONDecoder()
        if let policy { decoder.userInfo[TextPolicy.userInfoKey] = policy }
        return try decoder.decode(Wire.ProductAnswer.self, from: Data(answer.utf8)).product
    }

    @Test func decodedForTheScreenTheWordsAreSafeToDraw() throws {
        let product = try Self.product(nil)
        #expect(product.title == "Evil␛]0;PWNED␇␛]52;c;cHduZWQ=␇␛[2JTitle")
        #expect(product.contributors.first?.fullName == "␛[5mAnna Öberg\u{FFFD}?1049h")
        #expect(product.categories == ["Thriller␀"])
        #expect(product.publisher == "Förlaget␡")
        // A description keeps its line break; the override is closed and isolated.
        #expect(product.description == "\u{2068}Line one\nline two\u{202E} reversed\u{202C}\u{2069}")
        #expect(product.series?.name == "\u{2068}Serien\u{2066}\u{2069}\u{2069}")
        // The unknown reason is shown in the list: an isolate, so "✗" and what follows keep their order.
        let explanation = try #require(product.availability?.explanation)
        #expect(
            explanation.hasPrefix("\u{2068}") && explanation.hasSuffix("\u{2069}"), "\(explanation.debugDescription)")
    }

    @Test func decodedForJSONTheWordsAreVerbatim() throws {
        let product = try Self.product(.verbatim)
        #expect(product.title == "Evil\u{1B}]0;PWNED\u{07}\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2JTitle")
        #expect(product.contributors.first?.lastName == "Öberg\u{9B}?1049h")
        #expect(product.description == "Line one\r\nline two\u{202E} reversed")
    }
}
