import Foundation
import Localization

/// Patrons, loans and reservations over HTTP.
extension HTTPLendingService: PatronLending {
    public func verifyPatron(card: String, pin: String) async throws -> Patron {
        try await post(
            "patrons/verify", checksumOf: [card], form: [("Card", card), ("Pin", pin)],
            as: Wire.PatronAnswer.self
        ).patron
    }

    public func createLoan(card: String, pin: String, productID: String) async throws -> Loan {
        try await post(
            "loans", checksumOf: [card, productID],
            form: [("Card", card), ("ProductID", productID), ("Pin", pin)],
            as: Wire.CreatedLoanAnswer.self
        ).createdLoan
    }

    public func loans(card: String, onlyActive: Bool) async throws -> [Loan] {
        try await get(
            "loans", checksumOf: [card], query: [("card", card), ("onlyactive", onlyActive ? "true" : "false")],
            as: Wire.LoansAnswer.self
        ).loans
    }

    public func loan(id: String) async throws -> Loan {
        try await get("loans/\(id)", checksumOf: [id], query: [], as: Wire.LoanAnswer.self).loan
    }

    public func returnLoan(id: String, card: String?) async throws {
        do {
            try await delete("loans/\(id)", checksumOf: [id], query: card.map { [("card", $0)] } ?? [])
        } catch let error as LendingError
            where error.kind == .notFound && error.reason == nil
            || error.status == 405 || error.status == 501
        {
            throw LendingError(
                .unsupported,
                tr(
                    "The library at {server} has no early return: the loan ends by itself on its last day.",
                    ["server": endpoint.displayName]),
                status: error.status)
        }
    }

    public func reserve(card: String, pin: String, productID: String) async throws -> Reservation {
        do {
            return try await post(
                "reservations", checksumOf: [card, productID],
                form: [("Card", card), ("ProductID", productID), ("Pin", pin)],
                as: Wire.CreatedReservationAnswer.self
            ).createdReservation
        } catch let error as LendingError where error.kind == .notFound && error.reason == nil {
            throw noReservations(error)
        }
    }

    public func reservations(card: String) async throws -> [Reservation] {
        do {
            return try await get(
                "reservations", checksumOf: [card], query: [("card", card)],
                as: Wire.ReservationsAnswer.self
            ).reservations
        } catch let error as LendingError where error.kind == .notFound && error.reason == nil {
            throw noReservations(error)
        }
    }

    public func cancelReservation(id: String, card: String?) async throws {
        try await delete("reservations/\(id)", checksumOf: [id], query: card.map { [("card", $0)] } ?? [])
    }

    private func noReservations(_ error: LendingError) -> LendingError {
        LendingError(
            .unsupported, tr("The library at {server} does not take reservations.", ["server": endpoint.displayName]),
            status: error.status)
    }

    // MARK: Transport

    /// POSTs a form with upstream's PascalCase names (`ServiceID`, `Checksum` first).
    func post<T: Decodable>(
        _ path: String, checksumOf parameters: [String], form: [(String, String)], as type: T.Type
    ) async throws -> T {
        let checksum = Checksum.compute(
            serviceID: endpoint.serviceID, parameters: parameters, serviceKey: endpoint.serviceKey)
        let fields = [("ServiceID", endpoint.serviceID)] + form + [("Checksum", checksum)]
        let request = HTTPRequest(
            url: endpoint.baseURL.appendingPathComponent(path), method: "POST",
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(Self.formEncode(fields).utf8))
        return try await send(request, path: path, as: type)
    }

    func delete(_ path: String, checksumOf parameters: [String], query: [(String, String)]) async throws {
        let request = HTTPRequest(url: url(path, checksumOf: parameters, query: query), method: "DELETE")
        let (data, status) = try await perform(request, path: path)
        guard (200..<300).contains(status) else { throw failure(status: status, data: data, path: path) }
    }

    /// `application/x-www-form-urlencoded`, with everything but unreserved characters escaped.
    static func formEncode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map { name, value in
            let v = value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
            return "\(name)=\(v)"
        }.joined(separator: "&")
    }
}
