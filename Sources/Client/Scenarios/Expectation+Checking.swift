import Catalog
import Foundation
import Localization
import TextSafety

extension Expectation.Kind {
    /// The expectation as a tester writes it, for reports.
    var written: String {
        switch self {
        case .contains(let text): "contains: \(text)"
        case .notContains(let text): "not contains: \(text)"
        case .lineMatches(let pattern): "line: \(pattern)"
        case .noLineMatches(let pattern): "no line: \(pattern)"
        case .inOrder(let texts): "in order: " + texts.joined(separator: " | ")
        case .count(let comparison, let pattern): "count \(comparison.op.rawValue)\(comparison.value): \(pattern)"
        case .results(let comparison): "results: \(comparison.op.rawValue)\(comparison.value)"
        case .result(let number, let field, let value): "result \(number) \(field.rawValue): \(value)"
        case .error(let text): text.isEmpty ? "error:" : "error: \(text)"
        case .shelf(let title, let badge): badge.map { "shelf: \(title) | \($0)" } ?? "shelf: \(title)"
        case .notShelf(let title): "not shelf: \(title)"
        }
    }
}

/// Checks the expectations that look only at a step's screen and the last list shown.
///
/// `shelf:` expectations need to run a command and are checked by the runner.
struct ScreenCheck {
    /// The screen after the step, colour removed.
    let screen: [String]
    /// Error lines among them.
    let errors: [String]
    /// The last list of books, for `results:` and `result N FIELD:`.
    let list: ResultList?

    /// Nil when `kind` holds; otherwise why not.
    func failure(_ kind: Expectation.Kind) -> String? {
        let text = screen.joined(separator: "\n")
        switch kind {
        case .contains(let wanted):
            return text.contains(wanted) ? nil : tr("The screen does not contain “{text}”.", ["text": wanted])
        case .notContains(let unwanted):
            guard let line = screen.first(where: { $0.contains(unwanted) }) else { return nil }
            return tr("The screen contains “{text}”, on the line: {line}", ["text": unwanted, "line": line])
        case .lineMatches(let pattern):
            switch Self.search(pattern, in: screen, all: false) {
            case .stopped(let why): return why
            case .found(let lines):
                return lines.isEmpty ? tr("No line matches /{pattern}/.", ["pattern": pattern]) : nil
            }
        case .noLineMatches(let pattern):
            switch Self.search(pattern, in: screen, all: false) {
            case .stopped(let why): return why
            case .found(let lines):
                guard let line = lines.first else { return nil }
                return tr("A line matches /{pattern}/: {line}", ["pattern": pattern, "line": line])
            }
        case .inOrder(let texts):
            var from = 0
            var previous: String?
            for wanted in texts {
                guard let index = screen[from...].firstIndex(where: { $0.contains(wanted) }) else {
                    if let previous, screen.contains(where: { $0.contains(wanted) }) {
                        return tr(
                            "“{text}” is not on a line after “{previous}”.", ["text": wanted, "previous": previous])
                    }
                    return tr("The screen does not contain “{text}”.", ["text": wanted])
                }
                from = index + 1
                previous = wanted
            }
            return nil
        case .count(let comparison, let pattern):
            let count: Int
            switch Self.search(pattern, in: screen, all: true) {
            case .stopped(let why): return why
            case .found(let lines): count = lines.count
            }
            return comparison.holds(for: count)
                ? nil
                : trn(
                    "{n} line matches /{pattern}/; expected {expected}.",
                    "{n} lines match /{pattern}/; expected {expected}.", count,
                    ["pattern": pattern, "expected": comparison.description])
        case .results(let comparison):
            guard let list else { return Self.noList }
            return comparison.holds(for: list.total)
                ? nil
                : trn(
                    "The last list holds {n} book; expected {expected}.",
                    "The last list holds {n} books; expected {expected}.", list.total,
                    ["expected": comparison.description])
        case .result(let number, let field, let wanted):
            guard let list else { return Self.noList }
            guard let product = list.byNumber[number] else {
                return tr(
                    "The last list has no book {number} (it has {count}).",
                    ["number": number, "count": list.highestNumber])
            }
            let actual = Self.value(of: field, in: product)
            return Self.glob(wanted, matches: actual)
                ? nil
                : tr(
                    "Result {number}’s {field} is “{actual}”, expected “{wanted}”.",
                    ["number": number, "field": field.rawValue, "actual": actual, "wanted": wanted])
        case .error(let wanted):
            if errors.isEmpty { return tr("The command printed no error.") }
            if wanted.isEmpty || errors.contains(where: { $0.contains(wanted) }) { return nil }
            return tr(
                "The error does not contain “{text}”: {errors}",
                ["text": wanted, "errors": errors.joined(separator: " / ")])
        case .shelf, .notShelf:
            return nil
        }
    }

    /// Why `results:` and `result N FIELD:` cannot be checked yet.
    static var noList: String {
        tr("No list of books has been shown yet (search, top, new or library make one).")
    }

    /// What ``search(_:in:all:)`` found.
    enum Search {
        /// The lines the pattern is found in, in screen order (only the first unless all were asked for).
        case found([String])
        /// The pattern was stopped on a line before it could say: why, in one line.
        case stopped(String)
    }

    /// The lines `pattern` is found in (anchor it with ^ and $ for the whole line), each match bounded
    /// (``ScreenPattern``): a pattern stopped on one line stops the search and fails the expectation,
    /// so one expectation costs at most the screen's lines times the bound of one match.
    static func search(_ pattern: String, in lines: [String], all: Bool) -> Search {
        // The parser compiled it already; one that does not compile matches nothing, as before.
        guard let compiled = try? ScreenPattern(pattern) else { return .found([]) }
        var found: [String] = []
        for line in lines {
            switch compiled.outcome(in: line) {
            case .match:
                found.append(line)
                if !all { return .found(found) }
            case .noMatch:
                continue
            case .tooSlow:
                return .stopped(
                    tr(
                        "The pattern /{pattern}/ took too long on the line “{line}”; simplify it.",
                        ["pattern": SafeText.line(pattern, limit: 60), "line": SafeText.line(line, limit: 60)]))
            case .tooDeep:
                return .stopped(
                    tr(
                        "The pattern /{pattern}/ needed too much memory on the line “{line}”; simplify it.",
                        ["pattern": SafeText.line(pattern, limit: 60), "line": SafeText.line(line, limit: 60)]))
            }
        }
        return .found(found)
    }

    /// `wanted` with `*` standing for any text, against `actual`, ignoring case.
    ///
    /// Matched directly rather than as a regular expression: `*a*a*a…` made one whose backtracking
    /// took seconds on a long value. This takes at most (characters of `wanted`) × (of `actual`) steps:
    /// after a mismatch only the last `*` takes one more character, as earlier stars need not.
    static func glob(_ wanted: String, matches actual: String) -> Bool {
        let pattern = Array(wanted.lowercased())
        let text = Array(actual.lowercased())
        var (p, t) = (0, 0)
        // The last star seen, and where in `text` what it stands for ends so far.
        var star: (p: Int, t: Int)?
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                star = (p, t)
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let last = star {
                star = (last.p, last.t + 1)
                (p, t) = (last.p + 1, last.t + 1)
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// A field of a book as `result N FIELD:` compares it.
    static func value(of field: ResultField, in product: Product) -> String {
        switch field {
        case .title: product.title
        case .author: product.authors.first?.fullName ?? ""
        case .authors: product.authors.map(\.fullName).joined(separator: ", ")
        case .lastname: product.authors.first?.lastName ?? ""
        case .year: product.year.map(String.init) ?? ""
        case .published: product.publishedDate?.description ?? ""
        case .category: product.categories.first ?? ""
        case .categories: product.categories.joined(separator: ", ")
        case .publisher: product.publisher ?? ""
        case .language: product.language ?? ""
        case .available: product.availability.map { $0.available ? "yes" : "no" } ?? "unknown"
        case .reason: product.availability?.reason?.word ?? ""
        case .id: product.id
        }
    }

    /// Whether a shelf line shows `title` (whole, or cut short with an ellipsis to fit the width).
    static func shelfLine(_ line: String, shows title: String) -> Bool {
        if line.contains(title) { return true }
        // "Everything You Need to Kn…": a start of the title of 8 or more characters, then an ellipsis.
        for mark in ["…", "..."] {
            var searchFrom = line.startIndex
            while let range = line.range(of: mark, range: searchFrom..<line.endIndex) {
                let before = line[..<range.lowerBound]
                for length in stride(from: min(title.count, before.count), through: 8, by: -1)
                where before.hasSuffix(title.prefix(length)) {
                    return true
                }
                searchFrom = range.upperBound
            }
        }
        return false
    }
}
