public import Foundation

extension MockLendingServer {
    /// The root feed of the library's OPDS face, e.g. `http://127.0.0.1:54321/opds/`.
    public var opdsURL: URL {
        URL(string: "/opds/", relativeTo: baseURL)!.absoluteURL
    }
}
