public import Foundation
import Synchronization

/// An OPDS 1.2 catalogue that lends as Palace (Library Simplified) servers do, for issue 14: its
/// feed's books carry `opds:availability`, `opds:holds` and `opds:copies` on their borrow links,
/// and a borrow link, followed with the right `Authorization: Basic`, answers with the loan's entry
/// (available until its last day, with the EPUB's link) or, for a book that is out, with the hold
/// (reserved, the patron's place in the queue). Its root links the patron's shelf (`/loans`:
/// their loans, with the file's link and a `revoke` link, and their holds, Cirkeln's ready from the
/// start); `revoke/N` returns a loan or cancels a hold. Served by ``HostileServer`` on 127.0.0.1.
public enum LendingCatalogue {
    /// The bytes of every book's file.
    /// (A whole zip with only the `mimetype` entry: bok keeps a download only when it is a whole EPUB file.)
    public static let book = Data(
        base64Encoded:
            "UEsDBBQAAAAAAAAAIQBvYassFAAAABQAAAAIAAAAbWltZXR5cGVhcHBsaWNhdGlvbi9lcHViK3ppcFBLAQIUAxQAAAAAAAAAIQBv"
            + "YassFAAAABQAAAAIAAAAAAAAAAAAAACAAQAAAABtaW1ldHlwZVBLBQYAAAAAAQABADYAAAA6AAAAAAA=")!
    /// Days a loan lasts.
    public static let loanDays = 21
    /// The patron's place in the queue once a hold is placed.
    public static let queuePlace = 3

    /// `YYYY-MM-DD` of the day `days` after today (UTC; the tests compare days, a run at midnight aside).
    public static func day(_ days: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(Double(days) * 86_400))
    }

    static let head = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog" \#
        xmlns:dcterms="http://purl.org/dc/terms/">
        """#

    static let borrowType = "application/atom+xml;type=entry;profile=opds-catalog"

    /// One book's entry: `lending` is what goes inside its borrow (or fulfilment) link.
    static func entry(_ id: Int, _ title: String, _ author: String, link: String) -> String {
        """
        <entry><id>urn:bok:\(id)</id><title>\(title)</title><author><name>\(author)</name></author>\(link)</entry>
        """
    }

    static func borrowLink(_ id: Int, _ lending: String) -> String {
        """
        <link rel="http://opds-spec.org/acquisition/borrow" href="/borrow/\(id)" type="\(borrowType)">\
        <opds:indirectAcquisition type="application/epub+zip"/>\(lending)</link>
        """
    }

    static let shelfLink =
        #"<link rel="http://opds-spec.org/shelf" href="/loans" type="application/atom+xml;profile=opds-catalog"/>"#

    static func revokeLink(_ id: Int) -> String {
        #"<link rel="http://librarysimplified.org/terms/rel/revoke" href="/revoke/\#(id)"/>"#
    }

    /// The feed: one book available, one out with patrons waiting, one whose hold is ready.
    public static var feed: String {
        head + "<title>Stadsbibliotekets e-böcker</title>" + shelfLink
            + entry(
                1, "Ödemarken", "Åsa Berg",
                link: borrowLink(
                    1,
                    #"<opds:availability status="available"/><opds:holds total="0"/>"#
                        + #"<opds:copies total="3" available="2"/>"#))
            + entry(
                2, "Bäcken", "Eva Öst",
                link: borrowLink(
                    2,
                    #"<opds:availability status="unavailable"/><opds:holds total="2"/>"#
                        + #"<opds:copies total="3" available="0"/>"#))
            + entry(
                3, "Cirkeln", "Bo Ek",
                link: borrowLink(
                    3, #"<opds:availability status="ready" since="2020-01-01" until="\#(day(2))T23:59:59Z"/>"#))
            + "</feed>"
    }

    /// Where a book stands on the patron's shelf.
    enum Shelved: Sendable { case loan, hold, ready }

    /// The book's entry (no XML declaration) as the patron's shelf shows it: on loan, held, or ready.
    static func shelfEntry(_ id: Int, _ shelved: Shelved) -> String {
        let titles = [1: ("Ödemarken", "Åsa Berg"), 2: ("Bäcken", "Eva Öst"), 3: ("Cirkeln", "Bo Ek")]
        let (title, author) = titles[id] ?? ("?", "?")
        let lending: String
        switch shelved {
        case .hold:
            lending = borrowLink(
                2,
                #"<opds:availability status="reserved" since="2020-01-01"/>"#
                    + #"<opds:holds total="3" position="\#(queuePlace)"/><opds:copies total="3" available="0"/>"#)
        case .ready:
            lending = borrowLink(id, #"<opds:availability status="ready" until="\#(day(2))T23:59:59Z"/>"#)
        case .loan:
            lending = """
                <link rel="http://opds-spec.org/acquisition" href="/files/\(id).epub" type="application/epub+zip">\
                <opds:availability status="available" since="2020-01-01" until="\(day(loanDays))T12:00:00Z"/></link>
                """
        }
        return "<entry><id>urn:bok:\(id)</id><title>\(title)</title><author><name>\(author)</name></author>"
            + lending + revokeLink(id) + "</entry>"
    }

    /// What a borrow link answers: the loan, or the hold for the book that is out.
    static func answer(_ id: Int) -> String {
        let titles = [1: ("Ödemarken", "Åsa Berg"), 2: ("Bäcken", "Eva Öst"), 3: ("Cirkeln", "Bo Ek")]
        let (title, author) = titles[id] ?? ("?", "?")
        let lending =
            id == 2
            ? borrowLink(
                2,
                #"<opds:availability status="reserved" since="2020-01-01"/>"#
                    + #"<opds:holds total="3" position="\#(queuePlace)"/><opds:copies total="3" available="0"/>"#)
            : """
            <link rel="http://opds-spec.org/acquisition" href="/files/\(id).epub" type="application/epub+zip">\
            <opds:availability status="available" since="2020-01-01" until="\(day(loanDays))T12:00:00Z"/></link>
            """
        return #"<?xml version="1.0" encoding="UTF-8"?>"#
            + #"<entry xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">"#
            + "<id>urn:bok:\(id)</id><title>\(title)</title><author><name>\(author)</name></author>\(lending)</entry>"
    }

    /// Starts the catalogue; `user` and `password` are the one login its borrow links and files accept.
    /// With `borrowByPost`, a borrow link answers a GET with 405, as a server that lends by POST does;
    /// with `rootNeedsLogin`, the root feed too wants the login (as a library's members-only catalogue does).
    public static func start(
        user: String, password: String, borrowByPost: Bool = false, rootNeedsLogin: Bool = false
    ) throws -> HostileServer {
        let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        // The patron's shelf: the books on loan to them or held, by number (Cirkeln's hold is ready).
        let shelf = Mutex<[Int: Shelved]>([3: .ready])
        return try HostileServer.start { request in
            let path = request.path
            if path == "/" || path == "/root.xml", !rootNeedsLogin || request.headers["authorization"] == expected {
                return reply(200, Data(feed.utf8), type: "application/atom+xml;profile=opds-catalog")
            }
            guard request.headers["authorization"] == expected else {
                return reply(
                    401, Data(#"{"title": "Log in"}"#.utf8), type: "application/problem+json",
                    extra: [("WWW-Authenticate", "Basic realm=\"Library\"")])
            }
            if path.hasPrefix("/borrow/"), let id = Int(path.dropFirst("/borrow/".count)) {
                if borrowByPost, request.method != "POST" { return reply(405, Data(), type: "text/plain") }
                shelf.withLock { $0[id] = id == 2 ? .hold : .loan }
                return reply(200, Data(answer(id).utf8), type: borrowType)
            }
            if path == "/loans" {
                let entries = shelf.withLock { $0.sorted { $0.key < $1.key } }.map { shelfEntry($0.key, $0.value) }
                    .joined()
                return reply(
                    200, Data((head + "<title>Loans</title>" + entries + "</feed>").utf8),
                    type: "application/atom+xml;profile=opds-catalog;kind=acquisition")
            }
            if path.hasPrefix("/revoke/"), let id = Int(path.dropFirst("/revoke/".count)) {
                guard shelf.withLock({ $0.removeValue(forKey: id) }) != nil else {
                    return reply(
                        404, Data(#"{"title": "Not yours", "detail": "That book is not on loan to you."}"#.utf8),
                        type: "application/problem+json")
                }
                // The book as it now stands: on the shelf for anyone to borrow.
                let entry =
                    #"<?xml version="1.0" encoding="UTF-8"?>"#
                    + #"<entry xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">"#
                    + "<id>urn:bok:\(id)</id><title>Book \(id)</title>"
                    + borrowLink(id, #"<opds:availability status="available"/>"#) + "</entry>"
                return reply(200, Data(entry.utf8), type: borrowType)
            }
            if path.hasPrefix("/files/") { return reply(200, book, type: "application/epub+zip") }
            return reply(404, Data(), type: "text/plain")
        }
    }

    private static func reply(
        _ status: Int, _ body: Data, type: String, extra: [(String, String)] = []
    ) -> [HostileServer.Step] {
        [
            .send(
                HostileServer.head(status, [("Content-Type", type), ("Content-Length", String(body.count))] + extra)
                    + body)
        ]
    }
}
