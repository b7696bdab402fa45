public import Foundation
internal import TextSafety

/// An Authentication for OPDS document (https://drafts.opds.io/authentication-for-opds-1.0): how a
/// catalogue wants its patrons to log in, and the words to show them while they do.
///
/// A catalogue sends it as the body of a 401 (Palace and other Library Simplified servers do), or
/// links it from a feed with `rel="http://opds-spec.org/auth/document"`. bok uses its basic flow
/// (HTTP Basic) and the labels that flow gives the two fields ("Library card", "PIN").
public struct OPDSAuthentication: Sendable, Hashable {
    /// The media types of the document: the draft's current one, and the one Palace servers send.
    public static let mediaTypes = [
        "application/opds-authentication+json", "application/vnd.opds.authentication.v1.0+json",
    ]
    /// The link relation of a feed's link to the document.
    public static let relation = "http://opds-spec.org/auth/document"
    /// The type of the HTTP Basic flow.
    public static let basicType = "http://opds-spec.org/auth/basic"
    /// The relation of the link to the patron's profile (Library Simplified), which holds the patron's
    /// settings, among them whether the library keeps their bookmarks.
    public static let profileRelation = "http://librarysimplified.org/terms/rel/user-profile"

    /// One way of logging in the catalogue offers.
    public struct Flow: Sendable, Hashable {
        /// The flow's type URI (`http://opds-spec.org/auth/basic`, `…/auth/oauth/implicit`).
        public var type: String
        /// What to call the login field (the document's `labels.login`), when it says.
        public var loginLabel: String?
        /// What to call the password field (`labels.password`), when it says.
        public var passwordLabel: String?

        /// A short name for the flow, for a person: `OAuth`, `SAML`, or the type's last part (one safe
        /// line of at most 40 characters).
        public var name: String {
            let lower = type.lowercased()
            if lower.contains("oauth") { return "OAuth" }
            if lower.contains("saml") { return "SAML" }
            return SafeText.line(type.split(separator: "/").last.map(String.init) ?? type, limit: 40)
        }
    }

    /// The most flows read from a document. A real one offers a handful (Palace's: basic, and OAuth or
    /// SAML); the rest of a longer list is not decoded, so a list of 100 000 costs what one of 20 does
    /// once the JSON is scanned, and none of it is kept.
    public static let flowLimit = 20
    /// The most characters kept of the title (a line at the prompt) and of the description (a few lines),
    /// and of a flow's type (only compared and named, and a real one is a URI of 30–50).
    static let titleLimit = 100
    static let descriptionLimit = 400
    static let typeLimit = 200

    /// The catalogue's name for its login page.
    public var title: String
    /// What the page says to the patron, when it says anything.
    public var description: String?
    /// The flows, in the document's order (its order of preference).
    public var flows: [Flow]
    /// The address of the patron's profile as the document writes it (relative to the document), when
    /// it links one.
    public var profile: String?

    /// The HTTP Basic flow, when the catalogue offers it.
    public var basic: Flow? { flows.first { $0.type == Self.basicType } }

    // Not patron-facing: OPDSClient and the login command say what it means instead.
    /// Why a document could not be read (for the debug log).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Whether an answer with this `Content-Type` is an authentication document.
    public static func isDocument(contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        else { return false }
        return mediaTypes.contains(type)
    }

    /// Reads a document; every word made safe to draw.
    /// - Throws: ``Failure`` when it is not JSON, or has no `title` or no `authentication` list.
    public static func parse(_ data: Data) throws(Failure) -> OPDSAuthentication {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw Failure(description: "not a JSON authentication document: \(error)")
        }
        guard let authentication = document.authentication else {
            throw Failure(description: "no authentication list")
        }
        let flows = authentication.compactMap { $0 }.compactMap { item -> Flow? in
            guard
                let type = item.type.map({ String($0.unicodeScalars.prefix(typeLimit)) })?
                    .trimmingCharacters(in: .whitespaces), !type.isEmpty
            else { return nil }
            return Flow(
                type: type, loginLabel: label(item.labels?.login), passwordLabel: label(item.labels?.password))
        }
        guard let title = document.title.map({ SafeText.line($0, limit: titleLimit) }), !title.isEmpty else {
            throw Failure(description: "no title")
        }
        guard !flows.isEmpty else { throw Failure(description: "no flow with a type") }
        let description = document.description.map { SafeText.line($0, limit: descriptionLimit) }
        let profile = document.links?.first { $0?.rel == profileRelation }??.href
        return OPDSAuthentication(
            title: title, description: description?.isEmpty == false ? description : nil, flows: flows,
            profile: profile.flatMap { $0.utf8.count <= 2048 ? $0 : nil })
    }

    /// A label as a prompt shows it: one line, not empty, not too long for a prompt.
    private static func label(_ text: String?) -> String? {
        guard let line = text.map({ SafeText.line($0, limit: 60) })?.trimmingCharacters(in: .whitespaces),
            !line.isEmpty
        else { return nil }
        return line
    }

    private struct Document: Decodable {
        var title: String?
        var description: String?
        /// The first ``OPDSAuthentication/flowLimit`` items of the list, nil for those that are not objects.
        var authentication: [Item?]?
        /// The first ``OPDSAuthentication/flowLimit`` links.
        var links: [Link?]?

        struct Link: Decodable {
            var rel: String?
            var href: String?

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: OPDS2Document.Key.self)
                rel = c.lenient(String.self, "rel")
                href = c.lenient(String.self, "href")
            }
        }

        struct Item: Decodable {
            var type: String?
            var labels: Labels?

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: OPDS2Document.Key.self)
                type = c.lenient(String.self, "type")
                labels = c.lenient(Labels.self, "labels")
            }
        }

        struct Labels: Decodable {
            var login: String?
            var password: String?

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: OPDS2Document.Key.self)
                login = c.lenient(String.self, "login")
                password = c.lenient(String.self, "password")
            }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: OPDS2Document.Key.self)
            title = c.lenient(String.self, "title")
            description = c.lenient(String.self, "description")
            authentication = c.lenient(FirstItems<Item>.self, "authentication")?.items
            links = c.lenient(FirstItems<Link>.self, "links")?.items
        }

        /// A list of which only the first ``OPDSAuthentication/flowLimit`` items are decoded.
        struct FirstItems<Item: Decodable>: Decodable {
            var items: [Item?] = []

            init(from decoder: any Decoder) throws {
                var list = try decoder.unkeyedContainer()
                // Lenient never throws, so each decode moves on to the next item.
                while !list.isAtEnd, items.count < flowLimit {
                    items.append(try list.decode(OPDS2Document.Lenient<Item>.self).value)
                }
            }
        }
    }
}
