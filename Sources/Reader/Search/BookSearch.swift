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
            let string = text as NSString
            let matches = expression.matches(in: text, options: [], range: NSRange(location: 0, length: string.length))
            for match in matches where match.range.length > 0 {
                let start = max(0, match.range.location - contextLength)
                let end = min(string.length, match.range.location + match.range.length + contextLength)
                let before = string.substring(with: NSRange(location: start, length: match.range.location - start))
                let matched = string.substring(with: match.range)
                let after = string.substring(
                    with: NSRange(
                        location: match.range.location + match.range.length,
                        length: end - match.range.location - match.range.length))
                let prefix = (start > 0 ? "…" : "") + oneLine(before)
                let context = prefix + oneLine(matched) + oneLine(after) + (end < string.length - 1 ? "…" : "")
                let lower = context.index(context.startIndex, offsetBy: prefix.count)
                let upper = context.index(lower, offsetBy: oneLine(matched).count)
                hits.append(
                    SearchHit(
                        locator: Locator(
                            spineIndex: index, offset: match.range.location, snippet: String(matched.prefix(48))),
                        length: match.range.length, context: context, matchInContext: lower..<upper))
                if hits.count >= limit { return hits }
            }
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
            guard !matches.isEmpty else { continue }
            let utf16 = text.utf16
            for match in matches {
                // Walk from the match by UTF-16 offsets; String's breadcrumbs keep this cheap.
                let start = utf16.index(utf16.startIndex, offsetBy: match.offset)
                let end = utf16.index(start, offsetBy: match.length)
                let before = text[..<start].suffix(contextLength)
                let after = text[end...].prefix(contextLength)
                let prefix = (before.startIndex > text.startIndex ? "…" : "") + oneLine(String(before))
                let matched = String(text[start..<end])
                let context = prefix + matched + oneLine(String(after)) + (after.endIndex < text.endIndex ? "…" : "")
                let lower = context.utf8.index(context.startIndex, offsetBy: prefix.utf8.count)
                let upper = context.utf8.index(lower, offsetBy: matched.utf8.count)
                hits.append(
                    SearchHit(
                        locator: Locator(spineIndex: index, offset: match.offset, snippet: matched),
                        length: match.length, context: context, matchInContext: lower..<upper))
            }
            if hits.count >= limit { break }
        }
        return hits
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\t" ? " " : $0 })
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
