import Foundation
import Testing

@testable import Reader

@Suite struct LiteralSearchTests {
    static let texts = [
        "Åsa såg 😀 the Lighthouse, and the lighthouse saw her.\nLIGHTHOUSE keepers 日本 lighthouse.",
        "No match here.",
        "𝔘nicode before: lighthouse at the end lighthouse",
    ]

    @Test(arguments: ["lighthouse", "the light", "saw her", "e", "keepers 日"])
    func plainWordsFindTheSameHitsAsTheExpressionEngine(pattern: String) throws {
        let fast = try BookSearch.search(pattern, in: Self.texts)
        // `(?:)` keeps the pattern on the expression engine without changing what it matches.
        let slow = try BookSearch.search("(?:)" + NSRegularExpression.escapedPattern(for: pattern), in: Self.texts)
        #expect(fast.map(\.locator) == slow.map(\.locator))
        #expect(fast.map(\.length) == slow.map(\.length))
        for hit in fast {
            let text = Self.texts[hit.locator.spineIndex]
            let utf16 = Array(text.utf16)
            let found = String(decoding: utf16[hit.locator.offset..<(hit.locator.offset + hit.length)], as: UTF16.self)
            #expect(found.lowercased() == pattern.lowercased())
            #expect(hit.context[hit.matchInContext].lowercased() == pattern.lowercased())
        }
    }

    @Test func caseSensitiveAndLimits() throws {
        #expect(try BookSearch.search("Lighthouse", in: Self.texts, caseSensitive: true).count == 1)
        #expect(try BookSearch.search("lighthouse", in: Self.texts).count == 6)
        #expect(try BookSearch.search("lighthouse", in: Self.texts, limit: 4).count == 4)
        #expect(LiteralSearch.applies(to: "the whale", literal: false))
        #expect(!LiteralSearch.applies(to: "whale|shark", literal: false))
        #expect(LiteralSearch.applies(to: "whale|shark", literal: true))
        #expect(!LiteralSearch.applies(to: "smörgås", literal: false))
    }
}
