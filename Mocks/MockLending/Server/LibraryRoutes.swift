import Catalog
import Foundation
import Hummingbird

/// The library API of `elib-api.md`: product, availability, licence state, library page, search.
struct LibraryRoutes: Sendable {
    let library: MockLibrary
    let authentication: ServiceAuthentication

    func register(on api: RouterGroup<MockRequestContext>) {
        // A plain Elib server has no search and no library page: those routes answer a bare 404.
        if library.configuration.dialect != .upstreamOnly {
            api.get("products") { request, _ in try search(request) }
            api.get("library") { request, _ in try libraryPage(request) }
            api.get("products/:id/similar") { request, context in
                try similar(request, id: context.parameters.require("id"))
            }
        }
        api.get("products/:id") { request, context in try product(request, id: context.parameters.require("id")) }
        api.get("books/availability/:id") { request, context in
            try availability(request, id: context.parameters.require("id"))
        }
        api.get("libraryproducts/:id") { request, context in try licence(request, id: context.parameters.require("id"))
        }
    }

    func search(_ request: Request) throws -> Response {
        let query = QueryParameters(request.uri.query)
        try authentication.check(query, over: [query["q"] ?? ""])
        let options: SearchOptions
        do {
            options = try SearchOptions(query)
        } catch {
            throw APIFailure.badRequest(error.reason)
        }
        let (page, total) = library.searchHits(options)
        let origin = Self.origin(of: request, fallback: library.configuration)
        let withAvailability = library.configuration.dialect != .searchWithoutAvailability
        // Written from each product's cached JSON, with its availability (which changes) put
        // in front: what `Wire.SearchAnswer` would encode, without encoding the products again.
        var body = Data(#"{"TotalCount":\#(total),"Products":["#.utf8)
        for (number, hit) in page.enumerated() {
            if number > 0 { body.append(UInt8(ascii: ",")) }
            let product = library.productJSON(hit.index, origin: origin)
            guard withAvailability else {
                body.append(product)
                continue
            }
            body.append(contentsOf: #"{"Availability":"#.utf8)
            hit.availability.appendJSON(to: &body)
            // The product's own fields after its opening brace (an empty object adds none).
            if product.count > 2 {
                body.append(UInt8(ascii: ","))
                body.append(product[product.index(after: product.startIndex)...])
            } else {
                body.append(UInt8(ascii: "}"))
            }
        }
        body.append(contentsOf: "]}".utf8)
        return JSONResponse.raw(body, status: .ok, contentType: "application/json")
    }

    func product(_ request: Request, id: String) throws -> Response {
        let query = QueryParameters(request.uri.query)
        try authentication.check(query, over: [id])
        guard let index = library.index(of: id) else { throw APIFailure.productNotFound }
        let origin = Self.origin(of: request, fallback: library.configuration)
        // `Wire.ProductAnswer` around the product's cached JSON.
        var body = Data(#"{"Product":"#.utf8)
        body.append(library.productJSON(index, origin: origin))
        body.append(UInt8(ascii: "}"))
        return JSONResponse.raw(body, status: .ok, contentType: "application/json")
    }

    /// `GET products/{id}/similar` (extension): books like this one, best first, with availability for `card`.
    func similar(_ request: Request, id: String) throws -> Response {
        let query = QueryParameters(request.uri.query)
        try authentication.check(query, over: [id])
        guard let index = library.index(of: id) else { throw APIFailure.productNotFound }
        let limit = min(50, max(1, query["limit"].flatMap(Int.init) ?? 10))
        let card = query["card"].flatMap { $0.isEmpty ? nil : $0 }
        let products = library.similar(to: index, card: card, limit: limit)
        let origin = Self.origin(of: request, fallback: library.configuration)
        return JSONResponse.make(
            Wire.SearchAnswer(products: products.map { Self.absolute($0, origin: origin) }, totalCount: products.count))
    }

    func availability(_ request: Request, id: String) throws -> Response {
        let query = QueryParameters(request.uri.query)
        let card = query["card"] ?? ""
        try authentication.check(query, over: [card, id])
        guard let index = library.index(of: id) else { throw APIFailure.productNotFound }
        let availability = library.read { $0.availability(index, card: card.isEmpty ? nil : card) }
        // The day and the pace are extensions: a plain Elib answer has the reason alone.
        let extended = library.configuration.dialect != .upstreamOnly
        return JSONResponse.make(
            Wire.AvailabilityAnswer(products: [
                Wire.ProductAvailability(
                    productID: id, available: availability.available, reason: availability.reason?.word ?? "",
                    estimatedDate: extended ? availability.estimatedDate : nil,
                    pace: extended ? availability.pace : nil)
            ]))
    }

    func licence(_ request: Request, id: String) throws -> Response {
        let query = QueryParameters(request.uri.query)
        try authentication.check(query, over: [id])
        guard let index = library.index(of: id) else { throw APIFailure.productNotFound }
        let models = library.read { $0.modelAvailabilities(index) }
        return JSONResponse.make(Wire.LicenceAnswer(product: .init(productID: id, modelAvailabilities: models)))
    }

    func libraryPage(_ request: Request) throws -> Response {
        try authentication.check(QueryParameters(request.uri.query), over: [])
        return JSONResponse.make(Wire.LibraryAnswer(library: library.libraryPage()))
    }

    // MARK: Absolute URLs

    /// `http://host:port` as the client addressed us (its `Host`), so links work from wherever it called.
    static func origin(of request: Request, fallback configuration: MockConfiguration) -> String {
        "http://" + (request.head.authority ?? "\(configuration.host):\(configuration.port)")
    }

    /// The product with its cover and sample paths made absolute.
    static func absolute(_ product: Product, origin: String) -> Product {
        var product = product
        if let cover = product.coverImage, cover.hasPrefix("/") { product.coverImage = origin + cover }
        if let teaser = product.teaser, teaser.url.hasPrefix("/") { product.teaser?.url = origin + teaser.url }
        return product
    }
}
