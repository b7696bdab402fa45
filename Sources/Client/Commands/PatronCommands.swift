import Catalog
import Foundation
import Localization
import Shelf
import Terminal

/// `login`, `logout` and `whoami`: the library card for this session.
@MainActor
enum PatronCommands {
    nonisolated static let patronOptions: Set<String> = ["card", "pin-file"]

    nonisolated static let login = Command(
        typedName: TypedWord("typed: command", "login"), aliases: ["signin"],
        synopsis: N_("login [--remember] [--card N] [--pin-file FILE | --pin-stdin]"),
        summary: N_("Give your library card and PIN (the PIN is never shown or stored unless you ask)"),
        details: [
            N_(
                "Asks for the card number, then the PIN with echo off, and checks them with the library. The card "
                    + "and PIN are kept in memory for this session only. With --remember they are saved in "
                    + "~/.config/bok/credentials (mode 600) so one-shot commands work without asking."),
            N_("Five wrong PINs in a row lock the card for a while; the library says how long."),
            N_(
                "In an OPDS catalogue that asks for a password, login asks for the user name, then the password "
                    + "with echo off, in the catalogue's own words when it sends them (Library card, PIN); "
                    + "--user NAME with --password-file FILE or --password-stdin give them without asking, and so "
                    + "do --card, --pin-file and --pin-stdin. "
                    + "With --remember they are saved in the same credentials file, for that catalogue's address "
                    + "only, and bok uses them from the next start."),
        ],
        // --user, --password-file and --password-stdin: logging in to a catalogue that asks for a password.
        valued: patronOptions.union(["user", "password-file"]), flags: ["remember", "pin-stdin", "password-stdin"],
        inCatalogue: OPDSCommands.login,
        run: { arguments, session in
            let credentials = PatronCredentials(session: session)
            if arguments.option("card") == nil, session.account.prompt != nil {
                session.account.card = nil
                session.account.pin = nil
            }
            let card = try credentials.card(arguments, command: "login")
            let (checked, pin) = try await checkedPIN(card: card, arguments, command: "login", session: session)
            // The shelf shows this card's loans from now on.
            session.lists.shelfList = []
            await session.syncAfterChange()
            session.shelfState.syncedThisSession = session.shelfState.syncProblem == nil
            guard let patron = checked else {
                var lines = [
                    tr(
                        "{library} cannot check a card and PIN by themselves; bok will use card {card} with your next "
                            + "loan, and the library will say then whether they are right.",
                        ["library": session.library.name, "card": card])
                ]
                if arguments.flag("remember") { lines.append(try remember(card: card, pin: pin, session: session)) }
                return CommandOutput(lines: lines, json: ["card": card])
            }
            // A library that lends through OPDS says neither the patron's name nor a monthly count.
            let welcome = patron.name.isEmpty ? tr("Welcome.") : tr("Welcome, {name}.", ["name": patron.name])
            var lines = [
                welcome + " "
                    + ([tr("Card {card}", ["card": patron.card])] + [used(patron)].compactMap { $0 })
                    .joined(separator: " \(session.theme.marks.middleDot) ") + "."
            ]
            if arguments.flag("remember") { lines.append(try remember(card: card, pin: pin, session: session)) }
            return CommandOutput(lines: lines, json: PatronJSON(patron))
        })

    nonisolated static let logout = Command(
        typedName: TypedWord("typed: command", "logout"), aliases: ["signout"],
        synopsis: N_("logout"),
        summary: N_("Forget the card and PIN, in this session and any remembered with login --remember"),
        details: [
            N_(
                "In an OPDS catalogue, logout forgets the catalogue's login instead, in this session and the one "
                    + "remembered for it; a remembered library card stays, as catalogue logins stay when a card "
                    + "logs out.")
        ],
        inCatalogue: OPDSCommands.logout,
        run: { _, session in
            let had = session.account.card != nil
            session.account.card = nil
            session.account.pin = nil
            session.account.patron = nil
            session.lists.loanList = []
            session.lists.reservationList = []
            // The shelf no longer shows this card's loans (they stay stored for when it logs in again).
            session.lists.shelfList = []
            session.shelfState.syncedThisSession = false
            if let (store, profileID) = try? session.shelfProfile() {
                try? store.forgetLastSyncedCard(profileID: profileID)
            }
            let forgot = session.account.credentialStore.forget()
            var line = had || forgot ? tr("Logged out.") : tr("You were not logged in.")
            if forgot { line += " " + tr("The remembered card and PIN are deleted.") }
            return CommandOutput(lines: [line], json: ["loggedOut": true])
        })

    nonisolated static let whoami = Command(
        typedName: TypedWord("typed: command", "whoami"), aliases: ["me", "account"],
        synopsis: N_("whoami"),
        summary: N_("Your card, your name, and the loans you have used this month"),
        details: [],
        valued: patronOptions, flags: ["pin-stdin"],
        run: { arguments, session in
            let credentials = PatronCredentials(session: session)
            let card = try credentials.card(arguments, command: "whoami")
            let (checked, _) = try await checkedPIN(card: card, arguments, command: "whoami", session: session)
            guard let patron = checked else {
                return CommandOutput(
                    lines: [
                        tr(
                            "Card {card}; {library} does not say more about a patron than their loans.",
                            ["card": card, "library": session.library.name])
                    ],
                    json: ["card": card])
            }
            return CommandOutput(
                lines: [
                    ([patron.name, tr("card {card}", ["card": patron.card])] + [used(patron)].compactMap { $0 })
                        .filter { !$0.isEmpty }.joined(separator: " \(session.theme.marks.middleDot) ")
                ],
                json: PatronJSON(patron))
        })

    /// `login --remember`: saves the card and PIN; the line that says where.
    static func remember(card: String, pin: String, session: Session) throws -> String {
        try session.account.credentialStore.save(.init(card: card, pin: pin))
        return session.theme.dim(
            tr(
                "Card and PIN saved in {file} (readable only by you). logout forgets them.",
                ["file": session.account.credentialStore.file.path]))
    }

    /// The library's refusal of a card in words: its reason, and for a locked card who can help.
    static func refusal(_ error: LendingError, card: String) -> String {
        guard let reason = error.reason else { return error.message }
        let text = tr("The library did not accept card {card}: {reason}", ["card": card, "reason": reason])
        // 403: the card is locked (or barred); only the library can lift that early.
        return error.status == 403 ? text + " " + tr("The library's staff can unlock it sooner.") : text
    }

    /// The PIN for `card`, checked with the library. A wrong PIN typed at the prompt is asked for
    /// again with the library's reason (how many tries are left), as a lending app does, until
    /// the library accepts it or locks the card; a PIN from a file, stdin or memory is not retried,
    /// since each try counts toward the lock.
    /// - Returns: the patron, or nil from a library that cannot check a card by itself (a plain Elib
    ///   server has no `patrons/verify`): the card and PIN are then checked by the loan call.
    static func checkedPIN(
        card: String, _ arguments: Arguments, command: String, session: Session
    ) async throws -> (Patron?, String) {
        let credentials = PatronCredentials(session: session)
        let typed = credentials.wouldAskPIN(for: card, arguments)
        var pin = try credentials.pin(for: card, arguments, command: command)
        var attempt = 0
        while true {
            attempt += 1
            do {
                let patron = try await session.library.service.verifyPatron(card: card, pin: pin)
                session.account.card = card
                session.account.pin = pin
                session.account.patron = patron
                return (patron, pin)
            } catch let error as LendingError where error.kind == .notFound || [405, 501].contains(error.status) {
                // No patron check at this library (an extension of bok's): lend straight away, and let
                // the loan call say whether the card and PIN are good.
                session.account.card = card
                session.account.pin = pin
                session.account.patron = nil
                return (nil, pin)
            } catch let error as LendingError where error.kind == .unauthorized {
                session.account.pin = nil
                let message = refusal(error, card: card)
                // 401 is a wrong PIN (or card); 403 a locked card, where asking again only counts against it.
                guard typed, error.status == 401, attempt < maxPINTries, let prompt = session.account.prompt else {
                    throw UserError(message)
                }
                // The refusal on its own line, the question on a fresh one. Cancelled at the new prompt:
                // what the library said stands.
                prompt.tell(message)
                guard let again = prompt.askSecret(tr("PIN for card {card}: ", ["card": card])), !again.isEmpty else {
                    throw UserError(message)
                }
                pin = again
            }
        }
    }

    /// PINs asked for in one command at most (the library locks the card sooner if it counts fewer).
    static let maxPINTries = 5

    /// `2 of 5 loans used this month`; nil when the library does not count them (0 allowed).
    static func used(_ patron: Patron) -> String? {
        guard patron.maxLoansPerMonth > 0 else { return nil }
        return trn(
            "{used} of {n} loan used this month", "{used} of {n} loans used this month", patron.maxLoansPerMonth,
            ["used": patron.loansThisMonth])
    }

    /// The card and PIN for a lending command: asked for, checked once, then kept for the session.
    static func ensurePatron(
        _ arguments: Arguments, command: String, session: Session
    ) async throws -> (card: String, pin: String) {
        let credentials = PatronCredentials(session: session)
        let card = try credentials.card(arguments, command: command)
        if let pin = session.account.pin, session.account.card == card, arguments.option("pin-file") == nil,
            !arguments.flag("pin-stdin")
        {
            return (card, pin)
        }
        let (_, pin) = try await checkedPIN(card: card, arguments, command: command, session: session)
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
