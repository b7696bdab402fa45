import Catalog
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import MockLending

/// Starts a mock server on port 0 for one test and talks to it with the real client.
struct TestServer {
    let server: MockLendingServer
    let configuration: MockConfiguration

    static let quiet = Logger(label: "test.mock", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs `body` with a fresh server (each test its own, so faults and loans do not leak).
    static func with<T: Sendable>(_ configuration: MockConfiguration = MockConfiguration(),
                                  _ body: (TestServer) async throws -> T) async throws -> T {
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
        HTTPLendingService(endpoint: LibraryEndpoint(baseURL: server.baseURL, serviceID: serviceID ?? configuration.serviceID,
                                                     serviceKey: serviceKey ?? configuration.serviceKey),
                           timeout: timeout)
    }

    /// A raw GET of an API path with a correct checksum over `checksumOf`.
    func rawGet(_ path: String, checksumOf parameters: [String], query: [(String, String)] = []) async throws -> (Data, HTTPURLResponse) {
        let checksum = Checksum.compute(serviceID: configuration.serviceID, parameters: parameters,
                                        serviceKey: configuration.serviceKey)
        var components = URLComponents(url: server.baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "serviceid", value: configuration.serviceID),
                                 URLQueryItem(name: "checksum", value: checksum)] + query.map { URLQueryItem(name: $0.0, value: $0.1) }
        // As the real client does: a literal `+` must not read as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return try await send(URLRequest(url: components.url!))
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

    private func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        let session = URLSession(configuration: configuration)
        let (data, response) = try await session.data(for: request)
        return (data, response as! HTTPURLResponse)
    }
}
