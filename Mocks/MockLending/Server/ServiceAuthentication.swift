import Catalog

/// Checks that a call comes from the configured service: `serviceid` and the SHA-512 `checksum`
/// over the call's parameters in `elib-api.md`'s order.
struct ServiceAuthentication: Sendable {
    let serviceID: String
    let serviceKey: String

    /// - Throws: `APIFailure` 401 with "Unknown service id" or "Invalid checksum".
    func check(_ query: QueryParameters, over parameters: [String]) throws(APIFailure) {
        guard let id = query["serviceid"], id == serviceID else { throw APIFailure.unknownService(query["serviceid"]) }
        guard let checksum = query["checksum"],
            Checksum.matches(checksum, serviceID: serviceID, parameters: parameters, serviceKey: serviceKey)
        else {
            throw APIFailure.invalidChecksum
        }
    }
}
