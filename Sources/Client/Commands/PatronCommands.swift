import Catalog
import Foundation
import Shelf
import Terminal

/// `login`, `logout` and `whoami`: the library card for this session.
@MainActor
enum PatronCommands {
    nonisolated static let patronOptions: Set<String> = ["card", "pin-file"]

    static let login = Command(
        name: "login", aliases: ["signin"],
        synopsis: "login [--remember] [--card N] [--pin-file FILE | --pin-stdin]",
        summary: "Give your library card and PIN (the PIN is never shown or stored unless you ask)",
        details: [
            "Asks for the card number, then the PIN with echo off, and checks them with the library.",
            "The card and PIN are kept in memory for this session only. With --remember they are saved",
            "in ~/.config/bok/credentials (mode 600) so one-shot commands work without asking.",
            "Five wrong PINs in a row lock the card for a while; the library says how long.",
        ],
        valued: patronOptions, flags: ["remember", "pin-stdin"],
        run: { arguments, session in
            let credentials = PatronCredentials(session: session)
            if arguments.option("card") == nil, session.prompt != nil { session.card = nil; session.pin = nil }
            let card = try credentials.card(arguments, command: "login")
            let pin = try credentials.pin(for: card, arguments, command: "login")
            let patron = try await verify(card: card, pin: pin, session: session)
            // The shelf shows this card's loans from now on.
            session.shelfList = []
            await session.syncAfterChange()
            session.syncedThisSession = session.syncProblem == nil
            var lines = ["Welcome, \(patron.name). Card \(patron.card) \(session.theme.marks.middleDot) \(used(patron))."]
            if arguments.flag("remember") {
                try session.credentialStore.save(.init(card: card, pin: pin))
                lines.append(session.theme.dim("Card and PIN saved in \(session.credentialStore.file.path) (readable only by you). logout forgets them."))
            }
            return CommandOutput(lines: lines, json: PatronJSON(patron))
        })

    static let logout = Command(
        name: "logout", aliases: ["signout"],
        synopsis: "logout",
        summary: "Forget the card and PIN, in this session and any remembered with login --remember",
        details: [],
        run: { _, session in
            let had = session.card != nil
            session.card = nil
            session.pin = nil
            session.patron = nil
            session.loanList = []
            session.reservationList = []
            // The shelf no longer shows this card's loans (they stay stored for when it logs in again).
            session.shelfList = []
            session.syncedThisSession = false
            if let (store, profileID) = try? session.shelfProfile() { try? store.forgetLastSyncedCard(profileID: profileID) }
            let forgot = session.credentialStore.forget()
            var line = had || forgot ? "Logged out." : "You were not logged in."
            if forgot { line += " The remembered card and PIN are deleted." }
            return CommandOutput(lines: [line], json: ["loggedOut": true])
        })

    static let whoami = Command(
        name: "whoami", aliases: ["me", "account"],
        synopsis: "whoami",
        summary: "Your card, your name, and the loans you have used this month",
        details: [],
        valued: patronOptions, flags: ["pin-stdin"],
        run: { arguments, session in
            let credentials = PatronCredentials(session: session)
            let card = try credentials.card(arguments, command: "whoami")
            let pin = try credentials.pin(for: card, arguments, command: "whoami")
            let patron = try await verify(card: card, pin: pin, session: session)
            return CommandOutput(lines: ["\(patron.name) \(session.theme.marks.middleDot) card \(patron.card) \(session.theme.marks.middleDot) \(used(patron))"],
                                 json: PatronJSON(patron))
        })

    /// Checks the card and PIN with the library and keeps them for the session.
    static func verify(card: String, pin: String, session: Session) async throws -> Patron {
        do {
            let patron = try await session.service.verifyPatron(card: card, pin: pin)
            session.card = card
            session.pin = pin
            session.patron = patron
            return patron
        } catch let error as LendingError where error.kind == .unauthorized {
            session.pin = nil
            throw UserError(error.reason.map { "The library did not accept card \(card): \($0)" } ?? error.message)
        }
    }

    static func used(_ patron: Patron) -> String {
        "\(patron.loansThisMonth) of \(patron.maxLoansPerMonth) loans used this month"
    }

    /// The card and PIN for a lending command: asked for, checked once, then kept for the session.
    static func ensurePatron(_ arguments: Arguments, command: String, session: Session) async throws -> (card: String, pin: String) {
        let credentials = PatronCredentials(session: session)
        let card = try credentials.card(arguments, command: command)
        if let pin = session.pin, session.card == card, arguments.option("pin-file") == nil, !arguments.flag("pin-stdin") {
            return (card, pin)
        }
        let pin = try credentials.pin(for: card, arguments, command: command)
        _ = try await verify(card: card, pin: pin, session: session)
        return (card, pin)
    }
}

/// `--json` of login and whoami (never the PIN).
struct PatronJSON: Encodable, Sendable {
    let card: String
    let name: String
    let loansThisMonth: Int
    let maxLoansPerMonth: Int

    init(_ patron: Patron) {
        card = patron.card
        name = patron.name
        loansThisMonth = patron.loansThisMonth
        maxLoansPerMonth = patron.maxLoansPerMonth
    }
}
