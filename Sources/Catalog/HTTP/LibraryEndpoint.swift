public import Foundation

/// Where a library's lending service is and how to authenticate to it.
public struct LibraryEndpoint: Sendable, Hashable {
    /// The base URL, e.g. `https://host/library/v3.0/`; calls are resolved against it.
    public var baseURL: URL
    /// The library's service id, sent with every call.
    public var serviceID: String
    /// The secret shared with the service; only ever used to compute checksums.
    public var serviceKey: String

    /// Creates an endpoint.
    public init(baseURL: URL, serviceID: String, serviceKey: String) {
        self.baseURL = baseURL
        self.serviceID = serviceID
        self.serviceKey = serviceKey
    }

    /// `host:port` for messages ("Cannot reach the library at 127.0.0.1:8080").
    public var displayName: String {
        guard let host = baseURL.host else { return baseURL.absoluteString }
        return baseURL.port.map { "\(host):\($0)" } ?? host
    }
}
