import Catalog
import Foundation
import Localization
import Logging
import Terminal

/// `library list|add|use|remove`: the libraries of the config file (issue 14's profiles), and
/// the built-in mock, always there as `mock`.
@MainActor
enum LibraryProfileCommands {
    static let subcommands: Set<String> = ["list", "ls", "add", "use", "remove", "rm"]

    static func isSubcommand(_ arguments: Arguments) -> Bool {
        arguments.positional.first.map { subcommands.contains($0.lowercased()) } ?? false
    }

    static func run(_ arguments: Arguments, session: Session) async throws -> CommandOutput {
        let words = Array(arguments.positional.dropFirst())
        let verb = arguments.positional.first?.lowercased() ?? ""
        if session.confinement != nil, !["list", "ls"].contains(verb) {
            throw ScenarioConfinement.libraryChangeRefused(verb)
        }
        guard let paths = session.paths else {
            throw UserError(tr("This session has no config file to keep libraries in."))
        }
        let file = paths.configFile
        let profiles = try LibraryProfiles.load(file: file)
        switch arguments.positional.first?.lowercased() {
        case "list"?, "ls"?:
            guard words.isEmpty else { throw UserError.usage(tr("Usage: library list.")) }
            return list(profiles, session: session)
        case "add"?:
            guard words.count == 2 else {
                throw UserError.usage(
                    tr(
                        "Usage: library add NAME URL [--kind elib|opds] [--service-id ID --service-key KEY] "
                            + "[--name TEXT]."))
            }
            return try await add(
                name: words[0], url: words[1], arguments: arguments, profiles: profiles, file: file, session: session)
        case "use"?:
            guard words.count == 1 else {
                throw UserError.usage(tr("Usage: library use NAME (library list shows them)."))
            }
            return try await use(words[0], profiles: profiles, file: file, session: session)
        default:
            guard words.count == 1 else { throw UserError.usage(tr("Usage: library remove NAME.")) }
            return try remove(words[0], profiles: profiles, file: file)
        }
    }

    /// `* mock   the built-in mock library (simulated loans)`, one line a library; never a secret.
    static func list(_ profiles: LibraryProfiles, session: Session) -> CommandOutput {
        let theme = session.theme
        let inUse =
            session.library.identity.profileName ?? (session.library.mock != nil ? LibraryProfiles.mockName : nil)
        var rows: [(name: String, what: String)] = [
            (LibraryProfiles.mockName, tr("the built-in mock library (simulated loans)"))
        ]
        for config in profiles.named {
            let kind = config.kind?.rawValue ?? (config.serviceID != nil ? "elib" : tr("found out at start"))
            rows.append(
                (
                    config.profile ?? "",
                    [config.url?.absoluteString ?? "", kind, config.name].compactMap { $0 }
                        .filter { !$0.isEmpty }.joined(separator: " \(theme.marks.middleDot) ")
                ))
        }
        let unnamedName = tr("(unnamed)")
        if let unnamed = profiles.unnamed, let url = unnamed.url { rows.append((unnamedName, url.absoluteString)) }
        let width = rows.map { DisplayWidth.of($0.name) }.max() ?? 4
        var lines = [theme.bold(tr("Libraries")) + theme.dim(" (\(rows.count))"), ""]
        for row in rows {
            let mark = row.name == inUse || (inUse == nil && row.name == unnamedName) ? "*" : " "
            let starts =
                profiles.use == row.name ? theme.dim(" \(theme.marks.middleDot) " + tr("bok starts with it")) : ""
            lines.append("\(mark) " + theme.bold(DisplayWidth.pad(row.name, to: width)) + "  " + row.what + starts)
        }
        lines += ["", theme.dim(tr("* is in use. library use NAME switches; library add NAME URL adds one."))]
        let json = LibrariesJSON(
            libraries: rows.map { .init(name: $0.name, what: Ansi.strip($0.what)) }, inUse: inUse,
            startsWith: profiles.use)
        return CommandOutput(lines: lines, json: json)
    }

    static func add(
        name: String, url text: String, arguments: Arguments, profiles: LibraryProfiles, file: URL,
        session: Session
    ) async throws -> CommandOutput {
        guard LibraryProfiles.isValidName(name) else {
            throw UserError.usage(
                tr(
                    "A library's name is letters, digits, - and _ (up to 40), e.g. home or malmo; not \"{name}\".",
                    ["name": name]))
        }
        guard name != LibraryProfiles.mockName else {
            throw UserError(tr("mock is the built-in mock library; give yours another name."))
        }
        guard !profiles.named.contains(where: { $0.profile == name }) else {
            throw UserError(
                tr(
                    "There is a library called {name} already. library remove {name} first, or choose another name.",
                    ["name": name]))
        }
        var config = LibraryConfig(url: try LibraryConfig.parseURL(text, source: "library add"))
        config.profile = name
        config.serviceID = try LibraryProfiles.checkedValue(arguments.option("service-id"), option: "service-id")
        config.serviceKey = try LibraryProfiles.checkedValue(arguments.option("service-key"), option: "service-key")
        config.name = try LibraryProfiles.checkedValue(arguments.option("name"), option: "name")
        if let kind = arguments.option("kind") {
            guard let parsed = LibraryConfig.Kind(rawValue: kind.lowercased()) else {
                throw UserError.usage(
                    tr(
                        "--kind is {kinds}, not \"{kind}\".", ["kinds": LibraryConfig.Kind.inWords, "kind": kind]))
            }
            config.kind = parsed
        } else if config.serviceID == nil {
            // Not said: what the address answers tells (an OPDS feed, or else a lending service).
            config.kind =
                await LibraryConnection.isCatalogue(config, url: config.url!, logger: session.logger)
                ? .opds : .elib
        } else {
            config.kind = .elib
        }
        if config.kind == .elib, config.serviceID == nil || config.serviceKey == nil {
            throw UserError(
                tr(
                    "{url} is a lending service, which needs the service id and key the library gave: "
                        + "library add {name} {url} --service-id ID --service-key KEY.",
                    ["url": text, "name": name]))
        }
        try CredentialStore.writePrivate(profiles.adding(config), to: file)
        let url = config.url!.absoluteString
        let line =
            config.kind == .opds
            ? tr(
                "Added {name}: an OPDS catalogue at {url}. library use {name} switches to it.",
                ["name": name, "url": url])
            : tr(
                "Added {name}: a lending service at {url}. library use {name} switches to it.",
                ["name": name, "url": url])
        return CommandOutput(
            lines: [line],
            json: ["added": name, "kind": config.kind?.rawValue ?? ""])
    }

    static func use(
        _ name: String, profiles: LibraryProfiles, file: URL, session: Session
    ) async throws -> CommandOutput {
        _ = try profiles.config(named: name, file: file)
        try CredentialStore.writePrivate(profiles.using(name), to: file)
        // Go on with that library at once (the REPL takes the new session); a one-shot only remembers it.
        var options = GlobalOptions()
        options.libraryName = name
        let startup = try await Startup.connect(
            options: options, environment: session.environment, theme: session.theme,
            logger: session.logger)
        let next = startup.session
        var lines = [
            tr(
                "Now using {name}: {library}. bok starts with it from now on.",
                ["name": name, "library": next.library.name])
        ]
        if let note = startup.note { lines.append(session.theme.dim(note)) }
        var output = CommandOutput(lines: lines, json: ["use": name])
        output.switchTo = next
        return output
    }

    static func remove(_ name: String, profiles: LibraryProfiles, file: URL) throws -> CommandOutput {
        guard name != LibraryProfiles.mockName else {
            throw UserError(tr("The built-in mock library cannot be removed; it is always there."))
        }
        guard profiles.named.contains(where: { $0.profile == name }) else {
            throw UserError(tr("There is no library called {name}. library list shows them.", ["name": name]))
        }
        try CredentialStore.writePrivate(profiles.removing(name), to: file)
        var line = tr("Removed {name} from {file}.", ["name": name, "file": file.path])
        if profiles.use == name {
            line += " " + tr("bok starts with the mock library (or the unnamed one) from now on.")
        }
        line += " " + tr("Its books stay on your shelf.")
        return CommandOutput(lines: [line], json: ["removed": name])
    }
}

/// `library list --json` (no secret is ever in it).
struct LibrariesJSON: Encodable, Sendable {
    struct Library: Encodable, Sendable {
        let name: String
        let what: String
    }

    let libraries: [Library]
    let inUse: String?
    let startsWith: String?
}
