internal import TextSafety

/// How the words in a library's answers are decoded: made safe to draw on a terminal (the
/// default), or kept byte for byte for `--json`, whose readers get exactly what the server sent.
///
/// Titles, names, categories, descriptions and messages come from someone else's server; a
/// control character in them would reach the patron's terminal (a window title, a clipboard
/// write, a cleared screen). Decoding is where they enter bok's model, so that is where they are
/// made safe (``SafeText``), once, and every screen drawn from the model is safe without knowing.
public enum TextPolicy: Sendable, Hashable {
    /// Controls become visible replacements and bidirectional text is isolated.
    case display
    /// Kept exactly as sent (for JSON output, never drawn on a terminal as it is).
    case verbatim

    /// The key under which a decoder's `userInfo` carries the policy; absent means `.display`.
    public static let userInfoKey = CodingUserInfoKey(rawValue: "bok.textPolicy")!

    /// The policy a decoder was given (`.display` when none was).
    public init(_ decoder: any Decoder) {
        self = decoder.userInfo[Self.userInfoKey] as? TextPolicy ?? .display
    }

    /// One line of outside text (a title, a name) under this policy.
    public func line(_ text: String) -> String {
        self == .verbatim ? text : SafeText.line(text)
    }

    /// Outside text that may hold line breaks (a description, a message) under this policy.
    public func text(_ text: String) -> String {
        self == .verbatim ? text : SafeText.text(text)
    }
}

extension KeyedDecodingContainer {
    /// Decodes one line of outside text and applies `policy`.
    func decodeLine(forKey key: Key, _ policy: TextPolicy) throws -> String {
        policy.line(try decode(String.self, forKey: key))
    }

    /// Decodes one line of outside text, if present, and applies `policy`.
    func decodeLineIfPresent(forKey key: Key, _ policy: TextPolicy) throws -> String? {
        try decodeIfPresent(String.self, forKey: key).map(policy.line)
    }

    /// Decodes a list of one-line texts (categories, keywords), if present, and applies `policy`.
    func decodeLinesIfPresent(forKey key: Key, _ policy: TextPolicy) throws -> [String]? {
        try decodeIfPresent([String].self, forKey: key)?.map(policy.line)
    }

    /// Decodes outside text that may span lines, if present, and applies `policy`.
    func decodeTextIfPresent(forKey key: Key, _ policy: TextPolicy) throws -> String? {
        try decodeIfPresent(String.self, forKey: key).map(policy.text)
    }
}
