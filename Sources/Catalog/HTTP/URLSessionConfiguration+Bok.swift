public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension URLSessionConfiguration {
    /// How bok talks to a server: nothing cached or kept (no URL cache, no cookies), the whole
    /// call bounded by `timeout`, and what bok accepts said in `Accept`.
    public static func bok(timeout: TimeInterval, accept: String) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpAdditionalHeaders = ["Accept": accept, "User-Agent": "bok/0.1"]
        return configuration
    }
}
