public import Foundation
import Localization
public import Logging
internal import TextSafety

/// The lending service over HTTP (libcurl, through ``HTTPTransfer``).
///
/// Every call has a deadline and a cap on the answer's size. Failures become `LendingError`s whose
/// message names the server and says what to try. Against a plain Elib server the search
/// extension's embedded availability is completed with concurrent, bounded availability calls.
public struct HTTPLendingService: LendingService {
    /// The server and credentials.
    public let endpoint: LibraryEndpoint
    /// Seconds a call may take in all.
    public let timeout: TimeInterval
    /// Largest answer accepted, in bytes.
    public let maxBodyBytes: Int
    /// Availability calls in flight at once when completing a search page.
    public let maxConcurrentCalls: Int
    /// How the words in answers are decoded: safe to draw (default), or verbatim for `--json`.
    public var textPolicy: TextPolicy = .display
    let logger: Logger

    /// Creates a client.
    /// - Parameters:
    ///   - endpoint: The server and credentials.
    ///   - timeout: Seconds a call may take in all (default 10).
    ///   - logger: Where diagnostics go (never stdout).
    public init(
        endpoint: LibraryEndpoint, timeout: TimeInterval = 10, maxBodyBytes: Int = 16 << 20,
        maxConcurrentCalls: Int = 6,
        logger: Logger = Logger(label: "bok.catalog", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.maxConcurrentCalls = maxConcurrentCalls
        self.logger = logger
    }

    // MARK: Calls

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        var query: [(String, String)] = [
            ("q", request.query), ("sort", request.sort.key.rawValue),
            ("order", request.sort.order.rawValue),
            ("offset", String(request.offset)), ("limit", String(request.limit)),
        ]
        if let category = request.filters.category { query.append(("category", category)) }
        if let language = request.filters.language { query.append(("language", language)) }
        if let publisher = request.filters.publisher { query.append(("publisher", publisher)) }
        if request.filters.availableOnly { query.append(("available", "true")) }
        if let card = request.card { query.append(("card", card)) }
        let answer: Wire.SearchAnswer
        do {
            answer = try await get("products", checksumOf: [request.query], query: query, as: Wire.SearchAnswer.self)
        } catch let error as LendingError where error.kind == .notFound {
            // The collection itself is not there (upstream answers `{"Reason": "Resource not found"}`):
            // no search at this library, whatever the words.
            throw LendingError(
                .unsupported,
                tr(
                    "The library at {server} has no catalogue search. Use info, borrow and the shelf with a "
                        + "product id.",
                    ["server": endpoint.displayName]),
                status: 404)
        }
        // Never the server's idea of a page: at most the page asked for is shown and completed.
        let page = Array(answer.products.prefix(max(0, request.limit)))
        if page.count < answer.products.count {
            logger.notice(
                "the server sent more products than the page holds; the rest are ignored",
                metadata: ["sent": "\(answer.products.count)", "limit": "\(request.limit)"])
        }
        let products = await completeAvailability(page, card: request.card)
        return SearchPage(products: products, total: answer.totalCount, offset: request.offset)
    }

    public func product(id: String) async throws -> Product {
        try validate(id: id)
        return try await get("products/\(id)", checksumOf: [id], query: [], as: Wire.ProductAnswer.self).product
    }

    public func similar(productID: String, card: String?, limit: Int) async throws -> [Product] {
        try validate(id: productID)
        do {
            let answer = try await get(
                "products/\(productID)/similar", checksumOf: [productID],
                query: [("card", card ?? ""), ("limit", String(limit))], as: Wire.SearchAnswer.self)
            return Array(answer.products.prefix(max(0, limit)))
        } catch let error as LendingError where error.kind == .notFound && error.reason == nil {
            throw LendingError(
                .unsupported,
                tr("The library at {server} does not suggest similar books.", ["server": endpoint.displayName]),
                status: 404)
        }
    }

    public func availability(productID: String, card: String?) async throws -> Availability {
        try await availability(productID: productID, card: card, before: nil)
    }

    /// The availability of a product, the calls ending by `deadline` when one is given.
    func availability(productID: String, card: String?, before deadline: Date?) async throws -> Availability {
        try validate(id: productID)
        let answer = try await get(
            "books/availability/\(productID)", checksumOf: [card ?? "", productID],
            query: [("card", card ?? "")], as: Wire.AvailabilityAnswer.self, before: deadline)
        guard let entry = answer.products.first(where: { $0.productID == productID }) ?? answer.products.first else {
            logger.debug("no availability in the answer", metadata: ["product": "\(productID)"])
            throw LendingError(
                .badResponse,
                tr(
                    "The library at {server} did not say whether the book can be borrowed. Try again later.",
                    ["server": endpoint.displayName]))
        }
        var availability = Availability(
            available: entry.available,
            reason: entry.reason.isEmpty ? nil : UnavailableReason(word: entry.reason),
            estimatedDate: entry.estimatedDate, pace: entry.pace)
        if !entry.available, availability.reason == .product,
            let models = try? await licence(productID: productID, before: deadline)
        {
            // Plain Elib: the licence models tell how many copies there are.
            let counted = models.filter { $0.model.lowercased() != "access" }
            if !counted.isEmpty { availability.copies = counted.map(\.max).reduce(0, +) }
        }
        return availability
    }

    /// The licence models of a product (`GET libraryproducts/{id}`).
    public func licence(productID: String) async throws -> [ModelAvailability] {
        try await licence(productID: productID, before: nil)
    }

    func licence(productID: String, before deadline: Date?) async throws -> [ModelAvailability] {
        try validate(id: productID)
        return try await get(
            "libraryproducts/\(productID)", checksumOf: [productID], query: [],
            as: Wire.LicenceAnswer.self, before: deadline
        ).product.modelAvailabilities
    }

    public func library() async throws -> LibraryPage {
        do {
            return try await get("library", checksumOf: [], query: [], as: Wire.LibraryAnswer.self).library
        } catch let error as LendingError where error.kind == .notFound {
            // A plain Elib server has no library page (an extension): nothing was removed.
            throw LendingError(
                .unsupported,
                tr(
                    "The library at {server} has no library page (notices, events, top and newest lists). "
                        + "Use info, borrow and the shelf with a product id.",
                    ["server": endpoint.displayName]),
                status: 404)
        }
    }

    // MARK: Degrading to plain Elib

    /// Fills in availability the server did not embed, with at most `maxConcurrentCalls` calls at once,
    /// all ending within one `timeout` (so a slow server cannot stretch a search by a deadline per product).
    /// A product whose call fails or runs out of time keeps `nil` availability (shown as unknown),
    /// rather than failing the search.
    func completeAvailability(_ products: [Product], card: String?) async -> [Product] {
        let missing = products.indices.filter { products[$0].availability == nil }
        guard !missing.isEmpty else { return products }
        var result = products
        let deadline = Date().addingTimeInterval(timeout)
        await withTaskGroup(of: (Int, Availability?).self) { group in
            var next = missing.makeIterator()
            func addNext() {
                guard deadline.timeIntervalSinceNow > 0, let index = next.next() else { return }
                let id = products[index].id
                group.addTask { (index, try? await self.availability(productID: id, card: card, before: deadline)) }
            }
            for _ in 0..<maxConcurrentCalls { addNext() }
            for await (index, availability) in group {
                result[index].availability = availability
                addNext()
            }
        }
        return result
    }

    // MARK: Transport

    private func validate(id: String) throws {
        guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw LendingError(
                .invalidRequest, tr("\"{id}\" is not a product id (letters and digits only).", ["id": id]))
        }
    }

    func url(_ path: String, checksumOf parameters: [String], query: [(String, String)]) -> URL {
        var components = URLComponents(
            url: endpoint.baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        let checksum = Checksum.compute(
            serviceID: endpoint.serviceID, parameters: parameters, serviceKey: endpoint.serviceKey)
        components.queryItems =
            [
                URLQueryItem(name: "serviceid", value: endpoint.serviceID),
                URLQueryItem(name: "checksum", value: checksum),
            ]
            + query.map { URLQueryItem(name: $0.0, value: $0.1) }
        // `+` in a query value would read as a space on the server.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }

    func get<T: Decodable>(
        _ path: String, checksumOf parameters: [String], query: [(String, String)], as type: T.Type,
        before deadline: Date? = nil
    ) async throws -> T {
        let request = HTTPRequest(url: url(path, checksumOf: parameters, query: query))
        return try await send(request, path: path, as: type, before: deadline)
    }

    /// Sends a request under the deadline and decodes a 2xx answer, or turns the failure into a `LendingError`.
    func send<T: Decodable>(
        _ request: HTTPRequest, path: String, as type: T.Type, before deadline: Date? = nil
    ) async throws -> T {
        let (data, status) = try await perform(request, path: path, before: deadline)
        guard (200..<300).contains(status) else { throw failure(status: status, data: data, path: path) }
        return try decode(type, from: data, path: path)
    }

    /// Sends a request within `timeout` (or by `deadline`, when that is sooner), reading at most
    /// `maxBodyBytes` of the answer and following redirects only within the library's origin.
    func perform(_ request: HTTPRequest, path: String, before deadline: Date? = nil) async throws -> (Data, Int) {
        logger.debug("request", metadata: ["method": "\(request.method)", "path": "\(path)"])
        let server = endpoint.displayName
        let seconds = min(timeout, deadline.map { max(0.001, $0.timeIntervalSinceNow) } ?? timeout)
        let exchange = BoundedExchange(accept: "application/json", deadline: seconds, maxBytes: maxBodyBytes)
        let data: Data
        let http: HTTPTransfer.Head
        let observer = LibraryWait.observer
        observer?.began()
        defer { observer?.ended() }
        do {
            (data, http) = try await exchange.run(request)
        } catch {
            switch error.kind {
            case .timedOut:
                throw transportError(HTTPTransfer.Failure(kind: .timedOut, detail: ""), server: server)
            case .tooLarge:
                logger.debug("answer over the cap", metadata: ["path": "\(path)", "cap": "\(maxBodyBytes)"])
                throw LendingError(
                    .badResponse,
                    tr(
                        "The library at {server} sent an answer larger than {size} MB, so bok stopped reading it. "
                            + "Try again later.",
                        ["server": server, "size": maxBodyBytes >> 20]))
            case .tooManyRedirects:
                throw LendingError(
                    .redirected,
                    tr(
                        "The library at {server} sent bok from one of its addresses to another and on, without an "
                            + "answer (a redirect loop). Try again later, or tell the library.",
                        ["server": server]))
            case .redirectedAway(let target):
                throw LendingError(
                    .redirected,
                    tr(
                        "The library at {server} sent bok to another server ({target}); bok only talks to the "
                            + "library's own address. If the library has moved, put its new address in the config "
                            + "file.",
                        [
                            "server": server,
                            "target": target.map { "\($0.host):\($0.port)" } ?? tr("an unknown address"),
                        ]))
            case .transport(let failure):
                logger.debug("transfer failed", metadata: ["path": "\(path)", "detail": "\(failure.detail)"])
                throw transportError(failure, server: server)
            }
        }
        logger.debug(
            "response", metadata: ["path": "\(path)", "status": "\(http.status)", "bytes": "\(data.count)"])
        return (data, http.status)
    }

    /// A failed exchange in the patron's words (curl's own words go to the log only).
    private func transportError(_ error: HTTPTransfer.Failure, server: String) -> any Error {
        switch error.kind {
        case .timedOut:
            return LendingError(
                .timeout,
                tr(
                    "The library at {server} did not answer within {seconds} s. Try again, or check the server.",
                    ["server": server, "seconds": Int(timeout)]))
        case .cannotConnect, .cannotFindHost:
            return LendingError(
                .unreachable,
                tr(
                    "Cannot reach the library at {server} ({why}). Check the address, or start bok with --mock.",
                    [
                        "server": server,
                        "why": error.kind == .cannotConnect ? tr("connection refused") : tr("host not found"),
                    ]))
        case .dropped, .stopped:
            return LendingError(
                .dropped,
                tr("The library at {server} closed the connection before answering. Try again.", ["server": server]))
        case .cancelled:
            return CancellationError()
        case .other:
            return LendingError(
                .unreachable,
                tr(
                    "Cannot talk to the library at {server} (the connection failed: check the address, and that it "
                        + "starts with https:// if the library needs it).",
                    ["server": server]))
        }
    }

    func failure(status: Int, data: Data, path: String) -> LendingError {
        let server = endpoint.displayName
        // The server's words go into bok's message: one line, safe to draw, whatever the policy.
        let reason = (try? JSONDecoder().decode(Wire.ErrorAnswer.self, from: data)).map { SafeText.line($0.reason) }
        switch status {
        case 404:
            logger.debug("not found", metadata: ["path": "\(path)", "reason": "\(reason ?? "")"])
            return LendingError(
                .notFound,
                reason.map { "\($0)." }
                    ?? tr(
                        "The library at {server} could not find what bok asked for; it may have been removed.",
                        ["server": server]),
                status: status, reason: reason)
        case 401, 403:
            // A refused patron (wrong PIN, locked card) gets the library's own words; a refused
            // service (checksum, service id) gets a pointer to the configuration.
            if let reason, !Self.isServiceRefusal(reason) {
                return LendingError(.unauthorized, reason, status: status, reason: reason)
            }
            logger.debug("service refused", metadata: ["status": "\(status)", "reason": "\(reason ?? "")"])
            return LendingError(
                .unauthorized,
                tr(
                    "The library at {server} did not accept bok's service id or key. Check service-id and "
                        + "service-key in the config file.",
                    ["server": server]),
                status: status, reason: reason)
        case 500...:
            logger.debug(
                "server error", metadata: ["path": "\(path)", "status": "\(status)", "reason": "\(reason ?? "")"])
            return LendingError(
                .rejected,
                tr(
                    "The library at {server} had a problem of its own and could not answer. Try again later.",
                    ["server": server]),
                status: status, reason: reason)
        default:
            if let reason { return LendingError(.rejected, reason, status: status, reason: reason) }
            logger.debug("refused without a reason", metadata: ["path": "\(path)", "status": "\(status)"])
            return LendingError(
                .rejected,
                tr(
                    "The library at {server} turned the request down without saying why. Try again later, or ask "
                        + "the library.",
                    ["server": server]),
                status: status, reason: reason)
        }
    }

    static func isServiceRefusal(_ reason: String) -> Bool {
        let lower = reason.lowercased()
        return lower.contains("checksum") || lower.contains("service")
    }

    func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String) throws -> T {
        let server = endpoint.displayName
        guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
            logger.debug("answer is not JSON", metadata: ["path": "\(path)", "bytes": "\(data.count)"])
            throw LendingError(
                .badResponse,
                tr(
                    "The library at {server} sent an answer bok cannot read. Is the library's address right?",
                    ["server": server]))
        }
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[TextPolicy.userInfoKey] = textPolicy
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            logger.debug(
                "answer of an unexpected shape", metadata: ["path": "\(path)", "why": "\(Self.describe(error))"])
            throw LendingError(
                .badResponse,
                tr(
                    "The library at {server} sent an answer bok does not understand (it may speak another version "
                        + "of the service). Try again later, or ask the library.",
                    ["server": server]))
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "top level" : keys.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "no \(key.stringValue) at \(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "wrong type at \(path(context))"
        case .dataCorrupted(let context): return "\(context.debugDescription) at \(path(context))"
        @unknown default: return "unreadable"
        }
    }
}
