import Foundation

/// Passes questions on to another prompt and writes down what the screen showed: the question
/// and the card typed, or the PIN question and `••••`, never the PIN.
///
/// Scenario runs and recordings use it to show prompts the way a terminal does.
@MainActor
final class TranscribingPatronPrompt: PatronPrompt {
    private let inner: any PatronPrompt
    /// Prompt lines since the last `take()`.
    private var lines: [String] = []
    /// Every PIN answered, so that text can be cleaned of them (kept in memory only).
    private(set) var redactor = PINRedactor()

    init(_ inner: any PatronPrompt) { self.inner = inner }

    func ask(_ prompt: String) -> String? {
        let answer = inner.ask(prompt)
        lines.append(prompt + (answer ?? ""))
        return answer
    }

    func confirm(_ question: String) -> Bool? {
        let answer = inner.confirm(question)
        if let answer { lines.append(question + (answer ? "y" : "n")) }
        return answer
    }

    func tell(_ line: String) {
        inner.tell(line)
        lines.append(line)
    }

    func askSecret(_ prompt: String) -> String? {
        let answer = inner.askSecret(prompt)
        if let answer { redactor.add(answer) }
        lines.append(prompt + (answer?.isEmpty == false ? PINRedactor.mask : ""))
        return answer
    }

    func answeredSecret(_ text: String) -> Bool { inner.answeredSecret(text) }

    /// The prompt lines shown since the last call, in order.
    func take() -> [String] {
        defer { lines.removeAll() }
        return lines
    }
}

/// Replaces PINs in text with `••••`, wherever they stand alone (not inside a longer number,
/// so an ISBN that happens to contain the digits stays whole).
struct PINRedactor: Sendable {
    /// What a PIN is shown as.
    static let mask = "••••"
    private var pins: Set<String> = []

    /// Adds a PIN to hide; empty strings are ignored.
    mutating func add(_ pin: String?) {
        if let pin, !pin.isEmpty { pins.insert(pin) }
    }

    /// Merges another redactor's PINs.
    mutating func add(_ other: PINRedactor) { pins.formUnion(other.pins) }

    /// `text` with every PIN that stands alone replaced by `••••`.
    func redact(_ text: String) -> String {
        var result = text
        // Longest first, so a PIN that contains another is hidden whole.
        for pin in pins.sorted(by: { $0.count > $1.count }) where result.contains(pin) {
            var out = ""
            var rest = Substring(result)
            while let range = rest.range(of: pin) {
                let before = rest[..<range.lowerBound]
                let after = rest[range.upperBound...]
                let standsAlone =
                    !(pin.first!.isNumber && (before.last?.isNumber == true || after.first?.isNumber == true))
                out += before + (standsAlone ? Self.mask : pin)
                rest = after
            }
            result = out + rest
        }
        return result
    }
}
