import Catalog
import Foundation
import Localization
import Reader
import Shelf
import Terminal

/// Logging in to a catalogue that asks for a password (HTTP Basic, as calibre's content server
/// and Palace's do), and out.
extension OPDSCommands {
    /// `login` in a catalogue that asks for a password (HTTP Basic, as calibre's content server
    /// with --enable-auth, or the basic flow of an OPDS authentication document, as Palace servers
    /// send): the user name, then the password with echo off, checked on the root feed. The
    /// password goes only in an `Authorization` header to the catalogue's own address, never in a
    /// URL, the history or a recording; it is kept for this session, or with `--remember` in the
    /// 0600 credentials file under the catalogue's origin.
    static func login(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        guard let browser = session.library.catalogue else { return CommandOutput() }
        let name = browser.client.displayName
        var notes: [String] = []
        // How the catalogue wants to be logged in to, asked without any login (a 401 carries it).
        var document: OPDSAuthentication?
        do {
            document = try await browser.client.with(user: nil, password: nil).authentication()
        } catch is OPDSAuthentication.Failure {
            notes.append(
                session.theme.dim(
                    tr(
                        "The catalogue at {server} describes its login in a way bok cannot read, so bok asked for a "
                            + "user name and password.",
                        ["server": name])))
        }
        if let document, document.basic == nil {
            throw UserError(OPDSClient.unsupported(document, server: name))
        }
        let fields = CatalogueLoginFields(document?.basic)
        let prompt = session.account.prompt
        /// The catalogue's own words about logging in, once, before the first question.
        func introduce() {
            guard let document, let prompt, !browser.introShown else { return }
            prompt.tell(session.theme.bold(document.title))
            if let description = document.description { prompt.tell(description) }
            browser.introShown = true
        }
        let user: String
        if let given = fields.user(arguments) {
            user = given
        } else if let prompt {
            introduce()
            let question = fields.loginLabel.map { $0 + ": " } ?? tr("User name for {server}: ", ["server": name])
            guard let answer = prompt.ask(question)?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else {
                throw UserError(fields.noUser)
            }
            user = answer
        } else {
            throw UserError(fields.needsUser(server: name))
        }
        let passwordQuestion =
            fields.passwordLabel.map { $0 + ": " }
            ?? tr("Password for {user} at {server}: ", ["user": user, "server": name])
        var password: String
        var typed = false
        if let path = fields.passwordFile(arguments) {
            let url = try session.confinement?.secretFile(path) ?? URL(fileURLWithPath: path)
            let text = try CredentialStore.readPrivate(url, what: fields.passwordFileName)
            guard
                let line = text.split(whereSeparator: \.isNewline).first?.trimmingCharacters(
                    in: .whitespacesAndNewlines), !line.isEmpty
            else {
                throw UserError(fields.emptyPasswordFile(path))
            }
            password = line
        } else if let option = fields.standardInputOption(arguments) {
            if session.confinement != nil {
                throw ScenarioConfinement.standardInputRefused(String(option.dropFirst(2)))
            }
            guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !line.isEmpty
            else {
                throw UserError(fields.noPasswordOnStandardInput(option: option))
            }
            password = line
        } else if let prompt {
            introduce()
            guard let secret = prompt.askSecret(passwordQuestion), !secret.isEmpty else {
                throw UserError(fields.noPassword)
            }
            password = secret
            typed = true
        } else {
            throw UserError(fields.needsPassword(server: name))
        }
        // Checked at once on the root feed: a wrong password says so now, not at the next browse. One typed
        // at the prompt is asked for again with the catalogue's refusal, as a wrong PIN is.
        var attempt = 1
        var next: OPDSBrowser
        var page: OPDSPage
        while true {
            next = OPDSBrowser(client: browser.client.with(user: user, password: password))
            do {
                page = try await next.open()
                // A lending catalogue's feeds answer anyone (Palace's do): its shelf is what checks the login.
                if let shelf = page.feed.link(OPDSFeed.shelfRelation) { _ = try await next.client.feed(shelf.href) }
                break
            } catch let error as LendingError where error.kind == .unauthorized {
                guard typed, error.status == 401, attempt < maxPasswordTries, let prompt else { throw error }
                // What is true while it asks again: the error's own "Type login to try again" is for when
                // it stops asking (Return at the question, or the last try).
                prompt.tell(retry(server: name, login: fields.loginLabel, password: fields.passwordLabel))
                guard let again = prompt.askSecret(passwordQuestion), !again.isEmpty else { throw error }
                password = again
                attempt += 1
            }
        }
        next.introShown = browser.introShown
        session.attach(next)
        // The login is also the card the catalogue's loans and shelf are kept under.
        next.use(user: user, password: password)
        let remember = arguments.flag("remember")
        var lines = notes
        if remember {
            try session.account.credentialStore.save(.init(user: user, password: password), for: next.client.root)
            lines += [
                tr("Logged in to {server} as {user}.", ["server": name, "user": user]),
                session.theme.dim(
                    tr(
                        "The login for {server} is saved in {file} (readable only by you); logout forgets it.",
                        ["server": name, "file": session.account.credentialStore.file.path])),
            ]
        } else {
            lines.append(fields.loggedIn(server: name, user: user))
        }
        return CommandOutput(
            lines: lines + [""] + render(page, session: session).lines,
            json: OPDSLoginJSON(user: user, remembered: remember))
    }

    /// Passwords asked for in one login at most (a catalogue may lock a card after a few).
    static let maxPasswordTries = 3

    /// The line before the password is asked again, in the catalogue's words for its fields when
    /// it gives them (Palace's "Library card" and "PIN").
    static func retry(server: String, login: String?, password: String?) -> String {
        guard login != nil || password != nil else {
            return tr(
                "The catalogue at {server} did not accept that user name and password. Type the password again, "
                    + "or press Return to stop.",
                ["server": server])
        }
        let (login, password) = (login ?? tr("User name"), password ?? tr("Password"))
        return tr(
            "The catalogue at {server} did not accept that {login} and {password}. Type the {password} again, or "
                + "press Return to stop.",
            ["server": server, "login": login, "password": password])
    }

    /// `logout` in a catalogue: the login of this session and the one remembered for it are forgotten.
    static func logout(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        guard let browser = session.library.catalogue else { return CommandOutput() }
        let had = browser.client.user != nil
        browser.use(user: nil, password: nil)
        let forgot = session.account.credentialStore.forgetCatalogueLogin(for: browser.client.root)
        var line =
            had || forgot
            ? tr("Logged out of {server}.", ["server": browser.client.displayName]) : tr("You were not logged in.")
        if forgot { line += " " + tr("The remembered login is deleted.") }
        return CommandOutput(lines: [line], json: ["loggedOut": true])
    }
}
