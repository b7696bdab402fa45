import Foundation
import Localization
import Speech
import Terminal
import TextSafety

/// The libraries of the config file: the unnamed one at the top (as before there were several),
/// named ones in `[library NAME]` sections, and `use = NAME`, the one bok starts with. The
/// built-in mock is always there as `mock`.
///
/// ```
/// use = home
///
/// [library home]
/// url = http://127.0.0.1:8080/opds
/// kind = opds
///
/// [library malmo]
/// url = https://elib.example.org/library/v3.0/
/// service-id = 1234
/// service-key = secret
/// name = Malmö stadsbibliotek
/// ```
///
/// `library add`, `use` and `remove` edit the file's text in place, so comments and the order of
/// what the patron wrote stay; a file that holds a secret (a service key) is written 0600 and
/// refused when others can read it, as the credentials file is.
struct LibraryProfiles: Sendable {
    /// The name that always means the built-in mock library.
    static let mockName = "mock"

    /// The library at the top of the file, without a section (nil when it names no URL).
    var unnamed: LibraryConfig?
    /// The named libraries, in the file's order.
    var named: [LibraryConfig] = []
    /// The sync servers (`[sync NAME]`), in the file's order.
    var syncServers: [SyncServerConfig] = []
    /// `use = NAME`.
    var use: String?
    /// `language = sv`: the language bok speaks (else the locale's).
    var language: String?
    /// `pager = less -R`: what answers taller than the window go through (`cat` or nothing: none).
    var pager: String?
    /// `screen-reader = on|off|auto`: whether output is written for a screen reader (nil: auto).
    var screenReader: ScreenReaderSetting?
    /// `speech = auto|espeak|speechd`: who reads aloud in the reader.
    var speech: SpeechChoice?
    /// `images = auto|kitty|iterm|sixel|blocks|off`: how the reader draws pictures (nil: auto).
    var images: ImagesSetting?
    /// The file's text, for editing in place.
    var text = ""

    /// Reads `file`; no file is no libraries.
    /// - Throws: `UserError` for a file that cannot be read, is not text, or has a mistake.
    static func load(file: URL) throws -> LibraryProfiles {
        guard let text = try SmallTextFile.contents(file, what: tr("The config file")) else { return LibraryProfiles() }
        let profiles = try parse(text, fileName: file.path)
        if profiles.holdsSecrets {
            // A service key must not be readable by others: the same rule as the credentials file.
            _ = try CredentialStore.readPrivate(file, what: tr("The config file, which holds a service key,"))
        }
        return profiles
    }

    static func parse(_ text: String, fileName: String) throws -> LibraryProfiles {
        var profiles = LibraryProfiles(text: text)
        var top = LibraryConfig()
        var current: LibraryConfig?
        var sync: (config: SyncServerSection, place: String)?
        func close() throws {
            if let section = current { profiles.named.append(section) }
            if let sync { profiles.syncServers.append(try sync.config.checked(at: sync.place)) }
            current = nil
            sync = nil
        }
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            let place = "\(fileName):\(index + 1)"
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), let name = SyncServerSection.sectionName(line) {
                guard !profiles.syncServers.contains(where: { $0.name == name }), sync?.config.name != name else {
                    throw UserError(
                        tr(
                            "{place}: a second sync server called \"{name}\"; give each its own name.",
                            ["place": place, "name": name]))
                }
                try close()
                sync = (SyncServerSection(name: name), place)
                continue
            }
            if line.hasPrefix("[") {
                guard let name = sectionName(line) else {
                    throw UserError(
                        tr(
                            "{place}: expected a section like [library NAME] or [sync NAME], got \"{line}\".",
                            ["place": place, "line": SafeText.line(line)]))
                }
                guard name != mockName else {
                    throw UserError(
                        tr(
                            "{place}: \"mock\" is the built-in mock library; give this library another name.",
                            ["place": place]))
                }
                guard !profiles.named.contains(where: { $0.profile == name }), current?.profile != name else {
                    throw UserError(
                        tr(
                            "{place}: a second library called \"{name}\"; give each its own name.",
                            ["place": place, "name": name]))
                }
                try close()
                var section = LibraryConfig()
                section.profile = name
                current = section
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                throw UserError(
                    tr(
                        "{place}: expected `key = value`, got \"{line}\".",
                        ["place": place, "line": SafeText.line(line)]))
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(
                of: "_", with: "-")
            var value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            if key == "use", current == nil {
                profiles.use = value
            } else if key == "language", current == nil {
                guard let code = LanguageCommand.code(value) else {
                    throw UserError(
                        tr(
                            "{place}: language is {codes}, not \"{value}\".",
                            ["place": place, "codes": LanguageCommand.codes, "value": SafeText.line(value)]))
                }
                profiles.language = code
            } else if key == "pager", current == nil {
                profiles.pager = value
            } else if key == "speech", current == nil {
                guard let choice = SpeechChoice(rawValue: value.lowercased()) else {
                    throw UserError(
                        tr(
                            "{place}: speech is auto, espeak or speechd, not \"{value}\".",
                            ["place": place, "value": SafeText.line(value)]))
                }
                profiles.speech = choice
            } else if key == "screen-reader", current == nil {
                profiles.screenReader = try choice(
                    ScreenReaderSetting(configValue: value), key: key, choices: ScreenReaderSetting.choices,
                    value: value, at: place)
            } else if key == "images", current == nil {
                profiles.images = try choice(
                    ImagesSetting(configValue: value), key: key, choices: ImagesSetting.choices, value: value, at: place
                )
            } else if sync != nil {
                try sync!.config.apply(key: key, value: value, at: place)
            } else if current != nil {
                try current!.apply(key: key, value: value, at: place)
            } else {
                try top.apply(key: key, value: value, at: place)
            }
        }
        try close()
        if top.url != nil || top.serviceID != nil || top.name != nil { profiles.unnamed = top }
        return profiles
    }

    /// A setting's value that is one of a few words (`screen-reader = auto`), or the error that lists them.
    private static func choice<Setting>(
        _ setting: Setting?, key: String, choices: String, value: String, at place: String
    ) throws -> Setting {
        guard let setting else {
            throw UserError(
                tr(
                    "{place}: {key} is {choices}, not \"{value}\".",
                    ["place": place, "key": key, "choices": choices, "value": SafeText.line(value)]))
        }
        return setting
    }

    /// `[library home]` → `home`; names are letters, digits, `-` and `_`.
    static func sectionName(_ line: String) -> String? {
        guard line.hasSuffix("]") else { return nil }
        let words = line.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, words[0].lowercased() == "library", isValidName(String(words[1])) else { return nil }
        return String(words[1])
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 40 && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }

    /// `value` as one value of the file: a line break or another control character would end the
    /// line and let the rest be read as keys or sections of their own.
    /// - Throws: `UserError.usage` naming the option it came from.
    static func checkedValue(_ value: String?, option: String) throws -> String? {
        guard let value else { return nil }
        let controls = value.unicodeScalars.contains {
            $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}"
        }
        guard !controls, value.trimmingCharacters(in: .whitespaces) == value else {
            throw UserError.usage(
                tr(
                    "--{option} must be one line of text, without line breaks, other control characters or spaces "
                        + "at its ends.",
                    ["option": option]))
        }
        return value
    }

    /// True when any library holds a service key.
    var holdsSecrets: Bool { ([unnamed].compactMap { $0 } + named).contains { $0.serviceKey != nil } }

    /// The library called `name` (or the one `use` names, or the unnamed one).
    func config(named name: String?, file: URL) throws -> LibraryConfig {
        guard let wanted = name ?? use else { return unnamed ?? LibraryConfig() }
        if wanted == Self.mockName {
            var mock = LibraryConfig()
            mock.profile = Self.mockName
            mock.isMock = true
            return mock
        }
        if let found = named.first(where: { $0.profile == wanted }) { return found }
        let known = ([Self.mockName] + named.compactMap(\.profile)).joined(separator: ", ")
        let message =
            name == nil
            ? tr(
                "{file} says use = {name}, but there is no library called {name}. Libraries: {known}. "
                    + "library add NAME URL adds one.",
                ["file": file.path, "name": wanted, "known": known])
            : tr(
                "\"{name}\" is not a URL, and there is no library called {name}. Libraries: {known}. "
                    + "library add NAME URL adds one.",
                ["name": wanted, "known": known])
        throw name == nil ? UserError(message) : UserError.usage(message)
    }

    // MARK: Editing

    /// The file with a `[library NAME]` section added at the end.
    func adding(_ config: LibraryConfig) -> String {
        var lines = ["[library \(config.profile ?? "")]"]
        if let url = config.url { lines.append("url = \(url.absoluteString)") }
        if let kind = config.kind { lines.append("kind = \(kind.rawValue)") }
        if let id = config.serviceID { lines.append("service-id = \(id)") }
        if let key = config.serviceKey { lines.append("service-key = \(key)") }
        if let name = config.name { lines.append("name = \(name)") }
        let body = text.isEmpty || text.hasSuffix("\n\n") ? text : text.hasSuffix("\n") ? text + "\n" : text + "\n\n"
        return body + lines.joined(separator: "\n") + "\n"
    }

    /// The file without the section of `name` (and without `use = name`).
    func removing(_ name: String) -> String {
        var kept: [Substring] = []
        var inside = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") { inside = Self.sectionName(trimmed) == name }
            if inside { continue }
            if !trimmed.hasPrefix("#"), Self.isUse(trimmed), Self.useValue(trimmed) == name { continue }
            kept.append(line)
        }
        return kept.joined(separator: "\n")
    }

    /// The file with `use = name` at the top (replacing an earlier one).
    func using(_ name: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var sectionSeen = false
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") { sectionSeen = true }
            if !sectionSeen, Self.isUse(trimmed) {
                lines[index] = "use = \(name)"
                return lines.joined(separator: "\n")
            }
        }
        let rest = text.isEmpty ? "" : "\n" + text
        return "use = \(name)\n" + rest
    }

    private static func isUse(_ line: String) -> Bool {
        guard let eq = line.firstIndex(of: "=") else { return false }
        return line[..<eq].trimmingCharacters(in: .whitespaces).lowercased() == "use"
    }

    private static func useValue(_ line: String) -> String {
        guard let eq = line.firstIndex(of: "=") else { return "" }
        return line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
    }
}

extension LibraryProfiles {
    /// The names of the config file's libraries and `mock`, starting with `prefix`, for shell
    /// completion (none of a file that cannot be read).
    static func names(environment: [String: String], prefix: String = "") -> [String] {
        let file = Paths(environment: environment).configFile
        let named = ((try? load(file: file))?.named ?? []).compactMap(\.profile)
        return ([mockName] + named).filter { $0.hasPrefix(prefix) }
    }
}
