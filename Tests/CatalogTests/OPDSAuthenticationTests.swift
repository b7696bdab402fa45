import Catalog
import Foundation
import TestSupport
import Testing

/// The Authentication for OPDS document (issue 14): read from a 401 as Palace servers send it,
/// its basic flow chosen and its labels used; other flows and broken documents are one line.
@Suite("OPDS authentication documents", .serialized)
struct OPDSAuthenticationTests {
    @Test("The basic flow is found after an OAuth one, with the labels, title and description")
    func readsTheBasicFlow() throws {
        let document = try OPDSAuthentication.parse(Data(AuthenticatingCatalogue.document.utf8))
        #expect(document.title == "Stadsbiblioteket")
        #expect(document.description == "Log in with your library card and its PIN.")
        #expect(document.flows.map(\.name) == ["OAuth", "basic"])
        #expect(document.basic?.loginLabel == "Library card" && document.basic?.passwordLabel == "PIN")
    }

    @Test(
        "What is not a document is refused",
        arguments: [
            "<html>Log in</html>", "{}", #"{"title": "X", "authentication": "basic"}"#,
            #"{"authentication": [{"type": "http://opds-spec.org/auth/basic"}]}"#,
            #"{"title": "X", "authentication": [{}]}"#,
        ])
    func refusesWhatIsNotADocument(_ text: String) {
        #expect(throws: OPDSAuthentication.Failure.self) { try OPDSAuthentication.parse(Data(text.utf8)) }
    }

    @Test("A document of 100 000 flows: the first 20 are read, and what is kept of its words is a few lines")
    func aFloodOfFlowsIsCut() throws {
        let data = Data(AuthenticatingCatalogue.flood(flows: 100_000, basicAt: 3).utf8)
        let started = ContinuousClock.now
        let document = try OPDSAuthentication.parse(data)
        #expect(started.duration(to: .now) < .seconds(2), "\(started.duration(to: .now))")
        #expect(document.flows.count == OPDSAuthentication.flowLimit)
        #expect(document.basic?.loginLabel == "Kort 3" && document.basic?.passwordLabel == "PIN 3")
        #expect(document.title.hasPrefix("Stadsbiblioteket") && document.title.hasSuffix("…"))
        #expect(document.title.unicodeScalars.count == 100, "\(document.title.count)")
        #expect(document.description?.unicodeScalars.count == 400 && document.description?.contains("\n") == false)
        // A basic flow after the first 20 is not looked for: no library sends one there.
        let late = try OPDSAuthentication.parse(Data(AuthenticatingCatalogue.flood(flows: 100, basicAt: 50).utf8))
        #expect(late.basic == nil && late.flows.count == OPDSAuthentication.flowLimit)
    }

    @Test("A label cannot draw on the terminal")
    func labelsAreMadeSafe() throws {
        let text = #"""
            {"title": "A\u001b[2JB", "authentication": [{"type": "http://opds-spec.org/auth/basic", \#
            "labels": {"login": "Kort\u001b]0;x\u0007", "password": "PIN\nrad"}}]}
            """#
        let document = try OPDSAuthentication.parse(Data(text.utf8))
        let words = [document.title, document.basic?.loginLabel ?? "", document.basic?.passwordLabel ?? ""]
        #expect(!words.joined().contains("\u{1B}") && !words.joined().contains("\n"), "\(words)")
    }

    @Test("A 401 with a document: the patron is asked for the library's words, a wrong PIN is said in them")
    func clientUsesTheDocument() async throws {
        let server = try AuthenticatingCatalogue.start(user: "12345", password: "4321")
        defer { server.stop() }
        let root = server.baseURL.appendingPathComponent("root.json")
        let anonymous = OPDSClient(root: root, timeout: 5)
        let asked = await #expect(throws: LendingError.self) { try await anonymous.feed() }
        #expect(asked?.kind == .unauthorized)
        #expect(asked?.message.contains("asks for your Library card and PIN: log in with login") == true, "\(asked!)")

        let document = try #require(try await anonymous.authentication())
        #expect(document.basic?.loginLabel == "Library card")

        let wrong = await #expect(throws: LendingError.self) {
            try await anonymous.with(user: "12345", password: "0000").feed()
        }
        #expect(wrong?.message.contains("did not accept that Library card and PIN") == true, "\(wrong!)")
        #expect(wrong?.message.contains("0000") == false && !showsStatus(wrong?.message ?? "", 401))

        let feed = try await anonymous.with(user: "12345", password: "4321").feed()
        #expect(feed.entries.map(\.title) == ["Ödemarken"])
        // Logged in, the document is found through the feed's link to it.
        #expect(try await anonymous.with(user: "12345", password: "4321").authentication()?.title == "Stadsbiblioteket")
        let sent = server.requests.compactMap { $0.headers["authorization"] }
        #expect(sent.allSatisfy { $0.hasPrefix("Basic ") } && !server.requests.contains { $0.target.contains("4321") })
    }

    @Test("A catalogue that only offers OAuth: one line that says bok supports the basic flow only")
    func oauthOnly() async throws {
        let server = try AuthenticatingCatalogue.start(
            user: "a", password: "b", document: AuthenticatingCatalogue.oauthOnly)
        defer { server.stop() }
        let client = OPDSClient(root: server.baseURL.appendingPathComponent("root.json"), timeout: 5)
        let error = await #expect(throws: LendingError.self) { try await client.feed() }
        let message = error?.message ?? ""
        #expect(message.contains("OAuth") && message.contains("basic flow") && !message.contains("\n"), "\(message)")
        #expect(try await client.authentication()?.basic == nil)
    }

    @Test("A broken document: browsing says a login is wanted, reading it fails in a way the caller can word")
    func brokenDocument() async throws {
        let server = try AuthenticatingCatalogue.start(
            user: "a", password: "b", document: #"{"title": "Trasig", "authentication": 7"#)
        defer { server.stop() }
        let client = OPDSClient(root: server.baseURL.appendingPathComponent("root.json"), timeout: 5)
        let error = await #expect(throws: LendingError.self) { try await client.feed() }
        #expect(error?.message.contains("asks for a user name and password") == true, "\(String(describing: error))")
        await #expect(throws: OPDSAuthentication.Failure.self) { try await client.authentication() }
    }
}
