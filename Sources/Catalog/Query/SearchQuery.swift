public import Localization

/// A parsed search query: free-text terms and `field:value` terms, with `*` for prefix matches.
///
/// `author:Å* thriller "röda rummet"` is three terms: a prefix on the author field, a free word,
/// and a free phrase. The client parses to check a query before sending it; the mock server
/// parses to evaluate it.
public struct SearchQuery: Sendable, Hashable {
    /// A field a term can be restricted to.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case title, author, category, publisher, language, isbn

        /// The field's name as a patron types it, named in other languages by their catalogues.
        public var typedWord: TypedWord {
            switch self {
            case .title: TypedWord("typed: search field", "title")
            case .author: TypedWord("typed: search field", "author")
            case .category: TypedWord("typed: search field", "category")
            case .publisher: TypedWord("typed: search field", "publisher")
            case .language: TypedWord("typed: search field", "language")
            case .isbn: TypedWord("typed: search field", "isbn")
            }
        }
    }

    /// One term of a query.
    public struct Term: Sendable, Hashable {
        /// The field, or nil for any field.
        public var field: Field?
        /// The text to match, folded with `SearchQuery.fold`.
        public var value: String
        /// True when the term ended in `*`: match words that start with `value`.
        public var isPrefix: Bool

        /// Creates a term.
        public init(field: Field?, value: String, isPrefix: Bool) {
            self.field = field
            self.value = value
            self.isPrefix = isPrefix
        }
    }

    /// Why a query could not be parsed; `message` says what to type instead.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A one-line explanation with the fix, in English: the mock server's answer to a bad query
        /// is the same in every language.
        public let message: String
        /// The same explanation in the interface language, for the patron.
        public let localizedMessage: String
        public var description: String { message }

        /// An error from a message marked with `N_` and its placeholders' values; with
        /// `withSyntax`, the syntax hint follows it.
        init(
            _ template: String, _ values: KeyValuePairs<String, any CustomStringConvertible> = [:],
            withSyntax: Bool = false
        ) {
            var english = template
            for (name, value) in values { english = english.replacing("{\(name)}", with: value.description) }
            message = withSyntax ? english + " " + SearchQuery.syntaxHint : english
            localizedMessage =
                withSyntax ? tr(template, values) + " " + tr(SearchQuery.syntaxHint) : tr(template, values)
        }
    }

    /// The terms, all of which must match.
    public var terms: [Term]

    /// The syntax, for hints after an empty or wrong query (in English; `tr` it to show it).
    public static let syntaxHint = N_(
        "Type words to find (e.g. search thriller), or restrict a word to a field: "
            + "title:, author:, category:, publisher:, language:, isbn: — end with * for a prefix (author:Å*).")

    /// Parses a query.
    /// - Throws: `ParseError` for an empty query, an unknown field or an empty `field:` term.
    public static func parse(_ text: String) throws(ParseError) -> SearchQuery {
        var terms: [Term] = []
        for token in tokenize(text) {
            var field: Field?
            var raw = token.text
            if !token.quoted, let colon = raw.firstIndex(of: ":"), colon != raw.startIndex {
                let name = raw[..<colon].lowercased()
                guard let known = Self.field(named: name) else {
                    let names = Field.allCases.map { $0.rawValue + ":" }.joined(separator: ", ")
                    throw ParseError(
                        N_("Unknown field \"{name}:\". Fields are {names}."), ["name": name, "names": names])
                }
                field = known
                raw = String(raw[raw.index(after: colon)...])
                if raw.hasPrefix("\""), raw.hasSuffix("\""), raw.count >= 2 {
                    raw = String(raw.dropFirst().dropLast())
                }
                guard !raw.isEmpty, raw != "*" else {
                    throw ParseError(
                        N_("\"{name}:\" needs a value, e.g. {name}:{example}."),
                        ["name": name, "example": example(for: known)])
                }
            }
            let isPrefix = raw.hasSuffix("*")
            if isPrefix { raw.removeLast() }
            let value = field == .isbn ? raw.filter(\.isNumber) : fold(raw)
            guard !value.isEmpty else { continue }
            terms.append(Term(field: field, value: value, isPrefix: isPrefix))
        }
        guard !terms.isEmpty else {
            throw ParseError(N_("The search is empty."), withSyntax: true)
        }
        return SearchQuery(terms: terms)
    }

    /// Creates a query from terms.
    public init(terms: [Term]) { self.terms = terms }

    private static let aliases: [String: Field] = ["lang": .language]

    /// The field named `name`: in English, or in any language bok speaks (`författare:`), whatever
    /// the interface language.
    static func field(named name: String) -> Field? {
        Field(rawValue: name) ?? aliases[name] ?? Field.allCases.first { $0.typedWord.isNamed(name) }
    }

    private static func example(for field: Field) -> String {
        switch field {
        case .title: "Sommar*"
        case .author: "Å*"
        case .category: "Thriller"
        case .publisher: "Bonnier"
        case .language: "sv"
        case .isbn: "9789100000000"
        }
    }

    /// Splits on spaces, keeping "quoted phrases" (also after `field:`) together.
    static func tokenize(_ text: String) -> [(text: String, quoted: Bool)] {
        var tokens: [(String, Bool)] = []
        var current = ""
        var inQuotes = false
        var wholeQuoted = false
        for ch in text {
            if ch == "\"" || ch == "“" || ch == "”" {
                if !inQuotes, current.isEmpty { wholeQuoted = true }
                inQuotes.toggle()
                if !wholeQuoted { current.append("\"") }
                continue
            }
            if ch.isWhitespace, !inQuotes {
                if !current.isEmpty { tokens.append((current, wholeQuoted)) }
                current = ""
                wholeQuoted = false
                continue
            }
            current.append(ch)
        }
        if !current.isEmpty { tokens.append((current, wholeQuoted)) }
        return tokens
    }

    /// Folds text for matching: lower case, accents removed except the Swedish letters
    /// å, ä, ö (which are letters of their own: `author:Å*` must not match "Andersson"),
    /// æ and ø read as ä and ö, and punctuation other than letters, digits and spaces dropped.
    public static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            for folded in Collation.foldForSearch(scalar) { out.append(folded) }
        }
        return String(out).split(separator: " ").joined(separator: " ")
    }
}

extension SearchQuery.ParseError: PatronFacingError {
    public var patronMessage: String { localizedMessage }
}
