import Catalog
import Foundation
import Localization
import Logging

extension LibraryConnection {
    /// An Elib-compatible lending service, as the config (or `--library`) names it.
    ///
    /// A short look at the library page gives its name and calendar; the prompt does not wait long
    /// for a slow server, and a plain Elib server, which has no library page, keeps the configured name.
    /// - Throws: `UserError` when the config lacks the URL, service id or key.
    static func elib(config: LibraryConfig, json: Bool, logger: Logger) async throws -> LibraryConnection {
        let endpoint = try config.endpoint()
        let connection = LibraryConnection(
            kind: .elib, service: HTTPLendingService.patronFacing(endpoint, json: json, logger: logger),
            identity: LibraryIdentity(
                baseURL: endpoint.baseURL.absoluteString, serviceID: endpoint.serviceID,
                profileName: config.profile, configuredName: config.name),
            name: config.name ?? endpoint.displayName,
            alphabet: Collation(locale: config.locale ?? "sv-SE").alphabet,
            reach: Reach(controlBase: { endpoint.baseURL }))
        let quick = HTTPLendingService(endpoint: endpoint, timeout: 2, logger: logger)
        do {
            connection.adopt(try await quick.library())
            // The configured locale is the patron's word over the page's.
            if let locale = config.locale { connection.alphabet = Collation(locale: locale).alphabet }
        } catch let error as LendingError where error.kind == .notFound {
            // A plain Elib server has no library page; the configured name stands.
        } catch {
            connection.note = tr(
                "Could not reach the library yet ({why}) Commands will try again.",
                ["why": ErrorReport.message(for: error)])
        }
        return connection
    }

    /// The OPDS catalogue `client` reaches: browsing through a ``OPDSBrowser``, and loans,
    /// reservations, the shelf, return and cancel through an ``OPDSLendingService`` (a catalogue
    /// that lends, as Palace's do, keeps them in its shelf feed), with the catalogue's login.
    /// - Parameter config: the config's section for it, whose URL keys the shelf (as written, with
    ///   its trailing slash), whose name and profile are the patron's.
    static func opds(
        _ client: OPDSClient, name: String, alphabet: Collation.Alphabet, config: LibraryConfig? = nil
    ) -> LibraryConnection {
        let pins = PINKeeper()
        let lending = OPDSLendingService(client: client, storedPIN: { pins.pin(for: $0) })
        let connection = LibraryConnection(
            kind: .opds, service: lending,
            identity: LibraryIdentity(
                baseURL: (config?.url ?? client.root).absoluteString, serviceID: "opds",
                profileName: config?.profile, configuredName: config?.name),
            name: name, alphabet: alphabet, catalogue: OPDSBrowser(client: client), pins: pins,
            reach: Reach(opdsLending: { lending }))
        connection.note = tr(
            "{library} is an OPDS catalogue: browse, search, info N, get N, read N.", ["library": name])
        return connection
    }

    /// The OPDS catalogue the config names (its URL without a trailing slash, its allowed redirects).
    static func opds(config: LibraryConfig, url: URL, logger: Logger) -> LibraryConnection {
        var client = OPDSClient(root: OPDSClient.rootAddress(url), logger: logger)
        client.redirectsAllowed = config.redirectsAllowed
        return opds(
            client, name: config.name ?? client.displayName,
            alphabet: Collation(locale: config.locale ?? "sv-SE").alphabet, config: config)
    }

    /// Whether the configured library is an OPDS catalogue: said so (`kind = opds`, `--kind opds`),
    /// or, with no kind and no Elib service id, found out by asking the URL for a feed.
    static func isCatalogue(_ config: LibraryConfig, url: URL, logger: Logger) async -> Bool {
        switch config.kind {
        case .opds?: return true
        case .elib?: return false
        case nil:
            guard config.serviceID == nil else { return false }
            do {
                _ = try await OPDSClient(root: OPDSClient.rootAddress(url), timeout: 5, logger: logger).feed()
                return true
            } catch let error as LendingError where error.kind == .unauthorized {
                return true
            } catch {
                logger.debug("not an OPDS catalogue", metadata: ["url": "\(url.absoluteString)", "error": "\(error)"])
                return false
            }
        }
    }
}

extension HTTPLendingService {
    /// The lending client for `endpoint`: `--json` output gets the server's words verbatim (they are
    /// JSON-escaped, never drawn); everything else gets them made safe to draw where they are decoded.
    static func patronFacing(_ endpoint: LibraryEndpoint, json: Bool, logger: Logger) -> HTTPLendingService {
        var service = HTTPLendingService(endpoint: endpoint, logger: logger)
        service.textPolicy = json ? .verbatim : .display
        return service
    }
}

extension OPDSClient {
    /// A configured catalogue address as a root to ask: without the trailing slash the config's URL
    /// parser adds (`http://host/opds/` → `http://host/opds`), except for a bare host.
    static func rootAddress(_ url: URL) -> URL {
        let text = url.absoluteString
        guard text.hasSuffix("/"), url.path.count > 1 else { return url }
        return URL(string: String(text.dropLast())) ?? url
    }
}
