internal import Foundation
import Localization

/// One place where a search matched.
public struct SearchHit: Sendable, Hashable {
    /// Where the match begins.
    public var locator: Locator
    /// The match's length in UTF-16 code units.
    public var length: Int
    /// The match with some text around it, on one line.
    public var context: String
    /// Where the match sits in `context`.
    public var matchInContext: Range<String.Index>
}

/// Whole-book search over the chapters' plain texts, by regular expression.
public enum BookSearch {
    /// Finds every match of `pattern` in `texts` (one per spine item, indexed by spine index).
    ///
    /// - Parameters:
    ///   - pattern: an ICU regular expression, or literal text when `literal` is set.
    ///   - caseSensitive: `false` (the default) ignores case.
    ///   - limit: stop after this many hits.
    /// - Throws: `ReaderError.invalidSearch` when the pattern is not a valid expression.
    public static func search(
        _ pattern: String, in texts: [String], caseSensitive: Bool = false,
        literal: Bool = false, limit: Int = 2000, contextLength: Int = 30
    ) throws -> [SearchHit] {
        if LiteralSearch.applies(to: pattern, literal: literal) {
            return literalSearch(
                pattern, in: texts, caseSensitive: caseSensitive, limit: limit, contextLength: contextLength)
        }
        var options: NSRegularExpression.Options = [.anchorsMatchLines]
        if !caseSensitive { options.insert(.caseInsensitive) }
        if literal { options.insert(.ignoreMetacharacters) }
        let expression: NSRegularExpression
        do {
            expression = try NSRegularExpression(pattern: pattern, options: options)
        } catch {
            throw ReaderError(
                .invalidSearch,
                tr(
                    "\"{pattern}\" is not a valid search pattern; check its brackets and backslashes, "
                        + "or search for plain text.", ["pattern": pattern]))
        }
        var hits: [SearchHit] = []
        for (index, text) in texts.enumerated() {
            // Match by match, stopping at the limit: a 2 MB chapter can hold many times the hits shown.
            expression.enumerateMatches(in: text, options: [], range: NSRange(location: 0, length: text.utf16.count)) {
                found, _, stop in
                guard let match = found, match.range.length > 0 else { return }
                hits.append(
                    hit(
                        in: text, spineIndex: index, offset: match.range.location, length: match.range.length,
                        contextLength: contextLength))
                if hits.count >= limit { stop.pointee = true }
            }
            if hits.count >= limit { return hits }
        }
        return hits
    }

    private static func literalSearch(
        _ pattern: String, in texts: [String], caseSensitive: Bool, limit: Int,
        contextLength: Int
    ) -> [SearchHit] {
        var hits: [SearchHit] = []
        for (index, text) in texts.enumerated() {
            let matches = LiteralSearch.matches(
                of: pattern, in: text, caseSensitive: caseSensitive, limit: limit - hits.count)
            for match in matches {
                hits.append(
                    hit(
                        in: text, spineIndex: index, offset: match.offset, length: match.length,
                        contextLength: contextLength))
            }
            if hits.count >= limit { break }
        }
        return hits
    }

    /// The hit `length` UTF-16 units long at UTF-16 `offset` of a chapter's `text`, shown on one
    /// line with up to `contextLength` characters on each side.
    ///
    /// By the String itself, walked by UTF-16 offsets (its breadcrumbs keep that cheap), rather
    /// than through NSString: a search of 2 000 hits spent most of its time making their contexts.
    private static func hit(in text: String, spineIndex: Int, offset: Int, length: Int, contextLength: Int) -> SearchHit
    {
        let utf16 = text.utf16
        let start = utf16.index(utf16.startIndex, offsetBy: offset)
        let end = utf16.index(start, offsetBy: length)
        let before = text[..<start].suffix(contextLength)
        let after = text[end...].prefix(contextLength)
        let prefix = (before.startIndex > text.startIndex ? "…" : "") + oneLine(before)
        let matched = oneLine(text[start..<end])
        let context = prefix + matched + oneLine(after) + (after.endIndex < text.endIndex ? "…" : "")
        let lower = context.utf8.index(context.startIndex, offsetBy: prefix.utf8.count)
        let upper = context.utf8.index(lower, offsetBy: matched.utf8.count)
        return SearchHit(
            locator: Locator(spineIndex: spineIndex, offset: offset, snippet: String(text[start..<end].prefix(48))),
            length: length, context: context, matchInContext: lower..<upper)
    }

    private static func oneLine(_ text: Substring) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") }) else {
            return String(text)
        }
        return String(text.map { $0 == "\n" || $0 == "\t" ? " " : $0 })
    }
}

extension BookContent {
    /// Searches the whole book (converting chapters not yet converted).
    ///
    /// - Throws: `ReaderError.invalidSearch` for an invalid pattern.
    public func search(
        _ pattern: String, caseSensitive: Bool = false, literal: Bool = false,
        limit: Int = 2000
    ) throws -> [SearchHit] {
        try BookSearch.search(
            pattern, in: allPlainTexts(), caseSensitive: caseSensitive, literal: literal, limit: limit)
    }
}
