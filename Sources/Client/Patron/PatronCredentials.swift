import Foundation
import Localization

/// Finds the card and PIN a lending command needs, from the session, options, files or a prompt.
///
/// The order: what this session already knows; `--card`; the remembered credentials; `BOK_CARD`;
/// asking at the terminal. The PIN: `--pin-file` (mode 600), `--pin-stdin`, the remembered PIN
/// for the same card, then asking with echo off. With no terminal and nothing given, a clear
/// error says which option to use instead of hanging.
@MainActor
struct PatronCredentials {
    let session: Session

    /// The card to use, asking if need be.
    func card(_ arguments: Arguments, command: String) throws -> String {
        if let card = arguments.option("card") { return try Self.validCard(card) }
        if let card = session.account.card { return card }
        if session.library.catalogue != nil {
            // A catalogue's loans are its login's: the user name is the card.
            throw UserError(
                tr(
                    "{command} needs your login at {library}: type login first.",
                    ["command": Command.spoken(command), "library": session.library.name]))
        }
        if let remembered = try session.account.credentialStore.load() { return remembered.card }
        if let card = session.environment["BOK_CARD"], !card.isEmpty { return try Self.validCard(card) }
        guard let prompt = session.account.prompt else {
            throw UserError(
                tr(
                    "{command} needs your library card: give --card NUMBER, or run bok login --remember once.",
                    ["command": Command.spoken(command)]))
        }
        guard let answer = prompt.ask(tr("Library card number: "))?.trimmingCharacters(in: .whitespaces),
            !answer.isEmpty
        else {
            throw UserError(tr("No card number given; nothing was done. Type the command again to give one."))
        }
        return try Self.validCard(answer)
    }

    /// The PIN for `card`, asking with echo off if need be.
    func pin(for card: String, _ arguments: Arguments, command: String) throws -> String {
        if let path = arguments.option("pin-file") {
            let url = try session.confinement?.secretFile(path) ?? URL(fileURLWithPath: path)
            let text = try CredentialStore.readPrivate(url, what: tr("The PIN file"))
            // The first line without its line end or spaces, as --pin-stdin reads it: a CRLF file must not send the CR
            // (a wrong PIN that counts toward the card's lock).
            guard
                let pin = text.split(whereSeparator: \.isNewline).first?.trimmingCharacters(
                    in: .whitespacesAndNewlines),
                !pin.isEmpty
            else {
                throw UserError(tr("The PIN file {file} is empty. Put the PIN on its first line.", ["file": path]))
            }
            return pin
        }
        if arguments.flag("pin-stdin") {
            if session.confinement != nil { throw ScenarioConfinement.standardInputRefused("pin-stdin") }
            guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !line.isEmpty
            else {
                throw UserError(tr("--pin-stdin was given but standard input had no PIN on its first line."))
            }
            return line
        }
        if let known = session.account.pin, session.account.card == card { return known }
        if let remembered = try session.account.credentialStore.load(), remembered.card == card {
            return remembered.pin
        }
        guard let prompt = session.account.prompt else {
            throw UserError(
                tr(
                    "{command} needs the PIN of card {card}, and there is no terminal to ask on: give --pin-file "
                        + "FILE (mode 600) or --pin-stdin.",
                    ["command": command, "card": card]))
        }
        guard let pin = prompt.askSecret(tr("PIN for card {card}: ", ["card": card])), !pin.isEmpty else {
            throw UserError(tr("No PIN given; nothing was done."))
        }
        return pin
    }

    /// True when ``pin(for:_:command:)`` would ask at the prompt (nothing else gives the PIN).
    func wouldAskPIN(for card: String, _ arguments: Arguments) -> Bool {
        guard session.account.prompt != nil, arguments.option("pin-file") == nil, !arguments.flag("pin-stdin") else {
            return false
        }
        if session.account.pin != nil, session.account.card == card { return false }
        return (try? session.account.credentialStore.load())??.card != card
    }

    /// Card numbers are digits (spaces and dashes as printed on cards are dropped).
    static func validCard(_ text: String) throws -> String {
        let digits = text.filter { $0 != " " && $0 != "-" }
        guard !digits.isEmpty, digits.count <= 20, digits.allSatisfy(\.isNumber) else {
            throw UserError.usage(tr("\"{text}\" is not a library card number (digits only).", ["text": text]))
        }
        return digits
    }
}
