import Catalog
import Foundation
import Logging
import MockLending

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts a mock server on port 0 for one test and talks to it with the real client.
struct TestServer {
    let server: MockLendingServer
    let configuration: MockConfiguration

    static let quiet = Logger(label: "test.mock", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs `body` with a fresh server (each test its own, so faults and loans do not leak).
    static func with<T: Sendable>(
        _ configuration: MockConfiguration = MockConfiguration(),
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let server = try await MockLendingServer.start(configuration, logger: quiet)
        do {
            let result = try await body(TestServer(server: server, configuration: configuration))
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The real client, with the right credentials unless told otherwise.
    func client(serviceID: String? = nil, serviceKey: String? = nil, timeout: TimeInterval = 10) -> HTTPLendingService {
        HTTPLendingService(
            endpoint: LibraryEndpoint(
                baseURL: server.baseURL, serviceID: serviceID ?? configuration.serviceID,
                serviceKey: serviceKey ?? configuration.serviceKey),
            timeout: timeout)
    }

    /// A raw GET of an API path with a correct checksum over `checksumOf`.
    func rawGet(
        _ path: String, checksumOf parameters: [String], query: [(String, String)] = []
    ) async throws -> (Data, HTTPURLResponse) {
        let checksum = Checksum.compute(
            serviceID: configuration.serviceID, parameters: parameters,
            serviceKey: configuration.serviceKey)
        var components = URLComponents(
            url: server.baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.queryItems =
            [
                URLQueryItem(name: "serviceid", value: configuration.serviceID),
                URLQueryItem(name: "checksum", value: checksum),
            ] + query.map { URLQueryItem(name: $0.0, value: $0.1) }
        // As the real client does: a literal `+` must not read as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return try await send(URLRequest(url: components.url!))
    }

    /// A raw form POST of an API path, as the real client sends it (`ServiceID`, fields, `Checksum`).
    func rawPost(
        _ path: String, checksumOf parameters: [String], form: [(String, String)],
        serviceKey: String? = nil, language: String? = nil
    ) async throws -> (Data, HTTPURLResponse) {
        let checksum = Checksum.compute(
            serviceID: configuration.serviceID, parameters: parameters,
            serviceKey: serviceKey ?? configuration.serviceKey)
        var request = URLRequest(url: server.baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        if let language { request.setValue(language, forHTTPHeaderField: "Accept-Language") }
        let fields = [("ServiceID", configuration.serviceID)] + form + [("Checksum", checksum)]
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(
            separator: "&")
        request.httpBody = Data(body.utf8)
        return try await send(request)
    }

    /// A raw DELETE of an API path with a correct checksum over `checksumOf`, e.g. with `card`.
    func rawDelete(
        _ path: String, checksumOf parameters: [String], query: [(String, String)] = []
    ) async throws
        -> (Data, HTTPURLResponse)
    {
        let checksum = Checksum.compute(
            serviceID: configuration.serviceID, parameters: parameters,
            serviceKey: configuration.serviceKey)
        var components = URLComponents(
            url: server.baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.queryItems =
            [
                URLQueryItem(name: "serviceid", value: configuration.serviceID),
                URLQueryItem(name: "checksum", value: checksum),
            ] + query.map { URLQueryItem(name: $0.0, value: $0.1) }
        var request = URLRequest(url: components.url!)
        request.httpMethod = "DELETE"
        return try await send(request)
    }

    /// A GET of an absolute URL the server handed out (a loan's EPUB, a sample), optionally a `Range`.
    func download(_ url: String, range: String? = nil) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: url)!)
        if let range { request.setValue(range, forHTTPHeaderField: "Range") }
        return try await send(request)
    }

    /// A request to a mock control route, e.g. `("POST", "faults", body)`.
    @discardableResult
    func control(_ method: String, _ path: String, json: String? = nil) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/mock/\(path)")!)
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return try await send(request)
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        let session = URLSession(configuration: configuration)
        let (data, response) = try await session.data(for: request)
        return (data, response as! HTTPURLResponse)
    }
}
