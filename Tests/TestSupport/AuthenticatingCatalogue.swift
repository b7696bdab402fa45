import Foundation

/// An OPDS 2 catalogue that wants a login as Palace (Library Simplified) servers do: without a
/// right `Authorization: Basic` header every feed answers 401 with an Authentication for OPDS
/// document (`application/vnd.opds.authentication.v1.0+json`); with it, the root feed lists one
/// book and links the document. Served by ``HostileServer`` on 127.0.0.1.
public enum AuthenticatingCatalogue {
    /// A document that offers OAuth first and the basic flow with a library's own labels.
    public static let document = #"""
        {"id": "http://127.0.0.1/auth.json", "title": "Stadsbiblioteket", \#
        "description": "Log in with your library card and its PIN.", "authentication": [\#
        {"type": "http://opds-spec.org/auth/oauth/implicit", "links": [{"rel": "authenticate", \#
        "href": "http://127.0.0.1/oauth"}]}, \#
        {"type": "http://opds-spec.org/auth/basic", "labels": {"login": "Library card", "password": "PIN"}}]}
        """#

    /// A document that offers only OAuth.
    public static let oauthOnly = #"""
        {"title": "Stadsbiblioteket", "authentication": [{"type": "http://opds-spec.org/auth/oauth/implicit", \#
        "links": [{"rel": "authenticate", "href": "http://127.0.0.1/oauth"}]}]}
        """#

    /// A document no library sends: `flows` flows of as many made-up types, each with its labels (the
    /// basic flow at index `basicAt`, when given), a title of 100 000 characters and a description of
    /// a megabyte over 40 000 lines. About 10 MB, under the OPDS client's 16 MB cap.
    public static func flood(flows: Int, basicAt: Int? = nil) -> String {
        var items: [String] = []
        items.reserveCapacity(flows)
        for i in 0..<flows {
            let type = i == basicAt ? "http://opds-spec.org/auth/basic" : "http://example.org/auth/flow-\(i)"
            items.append(#"{"type": "\#(type)", "labels": {"login": "Kort \#(i)", "password": "PIN \#(i)"}}"#)
        }
        let title = String(repeating: "Stadsbiblioteket ", count: 100_000 / 17)
        let description = String(repeating: #"Logga in med ditt l\u00e5nekort.\n"#, count: 40_000)
        return #"{"title": "\#(title)", "description": "\#(description)", "authentication": ["#
            + items.joined(separator: ", ") + "]}"
    }

    /// The media type Palace servers send the document as.
    public static let mediaType = "application/vnd.opds.authentication.v1.0+json"

    /// The root feed, once logged in.
    public static let feed = #"""
        {"metadata": {"title": "Stadsbibliotekets e-böcker"}, "links": [{"rel": "self", "href": "/root.json", \#
        "type": "application/opds+json"}, {"rel": "http://opds-spec.org/auth/document", "href": "/auth.json", \#
        "type": "application/vnd.opds.authentication.v1.0+json"}], "publications": [{"metadata": \#
        {"title": "Ödemarken", "author": "Åsa Berg"}, "links": [{"rel": \#
        "http://opds-spec.org/acquisition/open-access", "type": "application/epub+zip", "href": "/a.epub"}]}]}
        """#

    /// Starts the catalogue; `user` and `password` are the one login it accepts, `document` what it
    /// sends with every 401 (and at `/auth.json`).
    public static func start(user: String, password: String, document: String = document) throws -> HostileServer {
        let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        return try HostileServer.start { request in
            if request.path == "/auth.json" { return answer(200, document, type: mediaType) }
            guard request.headers["authorization"] == expected else {
                return answer(401, document, type: mediaType, extra: [("WWW-Authenticate", "Basic realm=\"Library\"")])
            }
            return answer(200, feed, type: "application/opds+json")
        }
    }

    private static func answer(
        _ status: Int, _ body: String, type: String, extra: [(String, String)] = []
    ) -> [HostileServer.Step] {
        let bytes = Data(body.utf8)
        return [
            .send(
                HostileServer.head(status, [("Content-Type", type), ("Content-Length", String(bytes.count))] + extra)
                    + bytes)
        ]
    }
}
