/// Failures the mock injects into the library API, to test how the client copes.
///
/// Set with `POST /mock/faults` (`{"LatencyMs": 800, "ErrorRate": 0.2, "Malformed": false, "Drop": false,
/// "DropAfterCommit": false, "CorruptContent": false, "CutContentAfter": 0, "Hostile": false}`), cleared with `DELETE
/// /mock/faults` or `POST /mock/reset`. They apply
/// to every call under the API base path and the OPDS face (`/opds/`), never to `/mock/` itself, so a tester can always
/// switch them off; the two content faults apply to the book downloads under `/mock/content/`.
public struct Faults: Sendable, Hashable, Codable {
    /// Milliseconds to wait before answering.
    public var latencyMs: Int
    /// Share of calls, 0–1, answered with HTTP 500.
    public var errorRate: Double
    /// Answer 200 with a body that is not JSON.
    public var malformed: Bool
    /// Close the connection without answering.
    public var drop: Bool
    /// `POST loans` makes the loan and then closes the connection without answering: the
    /// answer is lost after the change was committed, as when a network fails at the worst
    /// moment. A client that retries must not end up with two loans.
    public var dropAfterCommit: Bool
    /// Book downloads arrive with one byte changed, while `Repr-Digest` names the true file:
    /// a client must notice and refuse the copy.
    public var corruptContent: Bool
    /// Book downloads stop after this many bytes of the body (0: never), as when a network
    /// fails mid-download: a client should resume with `Range`.
    public var cutContentAfter: Int
    /// Every human-readable string in the answers gains terminal control sequences
    /// (``HostileText``): a client must show them as visible, inert characters.
    public var hostile: Bool

    /// Creates faults; none by default.
    public init(
        latencyMs: Int = 0, errorRate: Double = 0, malformed: Bool = false, drop: Bool = false,
        dropAfterCommit: Bool = false, corruptContent: Bool = false, cutContentAfter: Int = 0,
        hostile: Bool = false
    ) {
        self.latencyMs = latencyMs
        self.errorRate = errorRate
        self.malformed = malformed
        self.drop = drop
        self.dropAfterCommit = dropAfterCommit
        self.corruptContent = corruptContent
        self.cutContentAfter = cutContentAfter
        self.hostile = hostile
    }

    /// No faults.
    public static let none = Faults()

    enum CodingKeys: String, CodingKey {
        case latencyMs = "LatencyMs"
        case errorRate = "ErrorRate"
        case malformed = "Malformed"
        case drop = "Drop"
        case dropAfterCommit = "DropAfterCommit"
        case corruptContent = "CorruptContent"
        case cutContentAfter = "CutContentAfter"
        case hostile = "Hostile"
    }

    /// Decodes leniently: a missing key means "no such fault", so `{"Drop": true}` is enough.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        latencyMs = try c.decodeIfPresent(Int.self, forKey: .latencyMs) ?? 0
        errorRate = try c.decodeIfPresent(Double.self, forKey: .errorRate) ?? 0
        malformed = try c.decodeIfPresent(Bool.self, forKey: .malformed) ?? false
        drop = try c.decodeIfPresent(Bool.self, forKey: .drop) ?? false
        dropAfterCommit = try c.decodeIfPresent(Bool.self, forKey: .dropAfterCommit) ?? false
        corruptContent = try c.decodeIfPresent(Bool.self, forKey: .corruptContent) ?? false
        cutContentAfter = try c.decodeIfPresent(Int.self, forKey: .cutContentAfter) ?? 0
        hostile = try c.decodeIfPresent(Bool.self, forKey: .hostile) ?? false
    }

    /// Why these faults cannot be used, or nil when they can.
    var problem: String? {
        if latencyMs < 0 || latencyMs > 120_000 { return "LatencyMs must be between 0 and 120000." }
        if !(0...1).contains(errorRate) { return "ErrorRate must be between 0.0 and 1.0." }
        if cutContentAfter < 0 { return "CutContentAfter is a number of bytes, 0 or more." }
        return nil
    }
}
