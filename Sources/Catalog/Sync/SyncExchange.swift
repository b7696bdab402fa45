internal import Foundation

/// One exchange of a sync client (calibre, kosync, a library's annotations), as all of them make
/// it: bounded in time and size, no redirect followed, and the answer told apart by its status
/// only, so that each client says in its own words what went wrong.
enum SyncExchange {
    /// The answer's status and body; nil when the server did not answer within the bounds.
    static func run(
        _ request: HTTPRequest, accept: String, deadline: TimeInterval, maxBytes: Int
    ) async -> (status: Int, body: Data)? {
        guard
            let (body, head) = try? await BoundedExchange(accept: accept, deadline: deadline, maxBytes: maxBytes)
                .run(request)
        else { return nil }
        return (head.status, body)
    }

    /// A server as a patron names it: its host and port.
    static func name(_ url: URL, otherwise: String) -> String {
        let host = url.host ?? otherwise
        return url.port.map { "\(host):\($0)" } ?? host
    }
}
