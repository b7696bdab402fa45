import Catalog
import Localization

/// The two fields of a catalogue's login as the patron is told about them: in the catalogue's own
/// words when its authentication document labels them ("Library card", "PIN"), else a user name
/// and a password (calibre's content server).
///
/// Either set of options gives them without asking: `--user`, `--password-file`, `--password-stdin`,
/// or a library card's own `--card`, `--pin-file`, `--pin-stdin`; a message names the card's for a
/// catalogue that labels its fields (a library's, as Palace's are), the user's otherwise.
struct CatalogueLoginFields {
    /// The document's label for the login field, when it gives one.
    let loginLabel: String?
    /// The document's label for the password field, when it gives one.
    let passwordLabel: String?

    init(_ flow: OPDSAuthentication.Flow?) {
        loginLabel = flow?.loginLabel
        passwordLabel = flow?.passwordLabel
    }

    /// True when the catalogue names its fields.
    var isLabelled: Bool { loginLabel != nil || passwordLabel != nil }

    /// What the login field is called: `Library card`, or `User name`.
    var login: String { loginLabel ?? tr("User name") }

    /// What the password field is called: `PIN`, or `Password`.
    var password: String { passwordLabel ?? tr("Password") }

    /// The user given on the command line (`--user`, `--card`).
    func user(_ arguments: Arguments) -> String? {
        (arguments.option("user") ?? arguments.option("card")).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The file the password is to be read from (`--password-file`, `--pin-file`).
    func passwordFile(_ arguments: Arguments) -> String? {
        arguments.option("password-file") ?? arguments.option("pin-file")
    }

    /// The option given to read the password from standard input, if any.
    func standardInputOption(_ arguments: Arguments) -> String? {
        ["password-stdin", "pin-stdin"].first { arguments.flag($0) }.map { "--" + $0 }
    }

    /// `login to {server} needs a user name: give --user NAME with …`, with no terminal to ask on.
    func needsUser(server: String) -> String {
        guard isLabelled else {
            return tr(
                "login to {server} needs a user name: give --user NAME with --password-file FILE (mode 600) or "
                    + "--password-stdin.",
                ["server": server])
        }
        return tr(
            "login to {server} needs your {login}: give --card NUMBER with --pin-file FILE (mode 600) or --pin-stdin.",
            ["server": server, "login": login])
    }

    /// The password is needed and there is no terminal to ask on.
    func needsPassword(server: String) -> String {
        guard isLabelled else {
            return tr(
                "login to {server} needs the password, and there is no terminal to ask on: give "
                    + "--password-file FILE (mode 600) or --password-stdin.",
                ["server": server])
        }
        return tr(
            "login to {server} needs your {password}, and there is no terminal to ask on: give --pin-file FILE "
                + "(mode 600) or --pin-stdin.",
            ["server": server, "password": password])
    }

    /// What the file with the password is called in a message about it.
    var passwordFileName: String {
        isLabelled ? tr("The file with the {password}", ["password": password]) : tr("The password file")
    }

    /// The file names a password but its first line is empty.
    func emptyPasswordFile(_ path: String) -> String {
        guard isLabelled else {
            return tr("The password file {file} is empty. Put the password on its first line.", ["file": path])
        }
        return tr(
            "The file {file} is empty. Put the {password} on its first line.", ["file": path, "password": password])
    }

    /// Standard input was to give the password and had none.
    func noPasswordOnStandardInput(option: String) -> String {
        guard isLabelled else {
            return tr("--password-stdin was given but standard input had no password on its first line.")
        }
        return tr(
            "{option} was given but standard input had no {password} on its first line.",
            ["option": option, "password": password])
    }

    /// Nothing typed at the question for the login field.
    var noUser: String {
        isLabelled
            ? tr("No {login} given; nothing was done.", ["login": login]) : tr("No user name given; nothing was done.")
    }

    /// Nothing typed at the question for the password field.
    var noPassword: String {
        isLabelled
            ? tr("No {password} given; nothing was done.", ["password": password])
            : tr("No password given; nothing was done.")
    }

    /// Logged in without --remember: the password is kept for this session only.
    func loggedIn(server: String, user: String) -> String {
        guard isLabelled else {
            return tr(
                "Logged in to {server} as {user}. The password is kept for this session only.",
                ["server": server, "user": user])
        }
        return tr(
            "Logged in to {server} as {user}. The {password} is kept for this session only.",
            ["server": server, "user": user, "password": password])
    }
}
