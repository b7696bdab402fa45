// Not patron-facing: the mock answers it as an HTTP error with a Reason.
/// Why the simulated library refused a patron's request, in words the patron can act on.
///
/// The state layer knows nothing of HTTP; the server turns each kind into a status
/// (`LendingRoutes`). Reasons never contain a PIN.
struct LendingRefusal: Error, Sendable, Hashable {
    /// What kind of refusal, which decides the HTTP status.
    enum Kind: Sendable, Hashable {
        /// A field is missing or malformed (400).
        case badRequest
        /// Unknown card or wrong PIN (401).
        case unauthenticated
        /// The card is locked, or the thing belongs to another card (403).
        case forbidden
        /// No such product, loan, reservation or card (404).
        case notFound
        /// A lending rule says no (409).
        case conflict
        /// The loan has ended, so its content is gone (410).
        case gone
    }

    let kind: Kind
    let reason: Said

    init(_ kind: Kind, _ reason: Said) {
        self.kind = kind
        self.reason = reason
    }
}
