internal import CIntl
public import Foundation
internal import Synchronization

/// The interface language, through GNU gettext (glibc's libintl) and the `bok` message catalogues
/// (`po/*.po`, compiled by `scripts/compile-translations.sh` into `share/locale/LANG/LC_MESSAGES/bok.mo`).
///
/// The language follows the POSIX locale (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) unless the
/// config file (`language = sv`) or the prompt (`language sv`) names one. Text given to ``tr(_:)``
/// is the English message; a catalogue without it, or English, shows it as written.
public enum Localization {
    /// The language the messages are written in: a catalogue translates from it.
    public static let english = "en"
    /// The gettext domain: `bok.mo`.
    static let domain = "bok"

    private struct State {
        var language = Localization.english
        /// The language the patron chose, which output for scripts (in English) does not change.
        var patronLanguage = Localization.english
        /// `$BOK_LOCALEDIR` when the last ``use(_:environment:)`` was given one.
        var directory: String?
    }

    private static let state = Mutex(State())

    /// The interface language in use: `en`, or the language of a catalogue (`sv`).
    public static var language: String { state.withLock { $0.language } }

    /// The language the patron chose (the locale, the config file, the prompt): the interface
    /// language, also while output for scripts (`--json`) is written in English.
    public static var patronLanguage: String { state.withLock { $0.patronLanguage } }

    /// The `Accept-Language` bok sends a library: the interface language, then English (`sv, en;q=0.5`),
    /// so that a server that speaks it (a catalogue's feed titles) answers in it.
    public static var acceptLanguage: String {
        let language = language.replacingOccurrences(of: "_", with: "-")
        return language == english ? english : language + ", " + english + ";q=0.5"
    }

    /// True while bok speaks English, the language its messages and names are written in.
    public static var isEnglish: Bool { language == english }

    /// The languages bok speaks: English, and each language with a catalogue (`po/LANG.po`,
    /// compiled); a new catalogue is a new language, with nothing else to change.
    public static var languages: [String] {
        [english] + (catalogueDirectory.map { catalogueLanguages(in: $0) } ?? [])
    }

    /// Sets the interface language: `language` when given (the config file, the prompt), else the
    /// one the environment's locale asks for. Returns the language now in use. `forScripts` (output
    /// for scripts, `--json`, the same in every language) writes in English, and
    /// ``patronLanguage`` still names the language chosen.
    @discardableResult
    public static func use(_ language: String?, environment: [String: String], forScripts: Bool = false) -> String {
        let wanted = language ?? languageOf(environment: environment)
        let given = environment["BOK_LOCALEDIR"].flatMap { $0.isEmpty ? nil : $0 }
        let directory = given ?? installedCatalogues
        let patron = directory.map { hasCatalogue(wanted, in: $0) } == true ? wanted : english
        let chosen = forScripts ? english : patron
        // Messages need a locale other than "C" for LANGUAGE to count; C.UTF-8 serves when the
        // patron's own locale (sv_SE.UTF-8) is not installed. Only LC_MESSAGES changes: numbers
        // and dates are formatted by Foundation with an explicit Locale, never by the C library.
        if setlocale(LC_MESSAGES, "") == nil || isPlainC(setlocale(LC_MESSAGES, nil)) {
            _ = setlocale(LC_MESSAGES, "C.UTF-8")
        }
        setenv("LANGUAGE", chosen, 1)
        if let directory {
            _ = bindtextdomain(domain, directory)
        }
        _ = bind_textdomain_codeset(domain, "UTF-8")
        // textdomain also tells gettext that its cached translations are stale (a new LANGUAGE).
        _ = textdomain(domain)
        state.withLock { $0 = State(language: chosen, patronLanguage: patron, directory: given) }
        return chosen
    }

    /// The language the environment asks for: `LANGUAGE`'s first entry, else the messages locale
    /// (`LC_ALL`, then `LC_MESSAGES`, then `LANG`), as `sv` of `sv_SE.UTF-8`.
    public static func languageOf(environment: [String: String]) -> String {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        if isPlainC(locale) { return english }
        if let list = environment["LANGUAGE"], let first = list.split(separator: ":").first, !first.isEmpty {
            return code(String(first))
        }
        return code(locale)
    }

    /// `sv` of `sv_SE.UTF-8@euro`.
    static func code(_ locale: String) -> String {
        String(locale.prefix { $0.isLetter }).lowercased()
    }

    static func isPlainC(_ locale: UnsafePointer<CChar>?) -> Bool {
        guard let locale else { return true }
        return isPlainC(String(cString: locale))
    }

    static func isPlainC(_ locale: String) -> Bool { locale.isEmpty || locale == "C" || locale == "POSIX" }

    /// Where the compiled catalogues are: `$BOK_LOCALEDIR` as the last ``use(_:environment:)``
    /// was given it, else `share/locale` beside the executable's folder (an installed
    /// `PREFIX/bin/bok`) or a few folders up (a `.build` tree).
    static var catalogueDirectory: String? { state.withLock { $0.directory } ?? installedCatalogues }

    /// Whether `directory` holds a catalogue for `language` (English needs none); a language is
    /// named by letters (`sv`, `pt_BR`), never by a path.
    static func hasCatalogue(_ language: String, in directory: String) -> Bool {
        guard !language.isEmpty, language.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") }) else { return false }
        return language == english || access(directory + "/" + language + "/LC_MESSAGES/\(domain).mo", F_OK) == 0
    }

    /// The languages `directory` holds a catalogue of bok's for, in alphabetical order.
    static func catalogueLanguages(in directory: String, first: Bool = false) -> [String] {
        guard let folder = opendir(directory) else { return [] }
        defer { closedir(folder) }
        var found: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), name != english, hasCatalogue(name, in: directory) else { continue }
            found.append(name)
            if first { break }
        }
        return found.sorted()
    }

    private static let installedCatalogues: String? = {
        // Plain paths and realpath(3): the first `URL` of a run costs more code than this whole lookup.
        guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
        let executable = String(cString: resolved)
        free(resolved)
        func parent(_ path: String) -> String? {
            guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.startIndex else { return nil }
            return String(path[..<slash])
        }
        guard var folder = parent(executable) else { return nil }
        for _ in 0..<4 {
            guard let up = parent(folder) else { break }
            folder = up
            let candidate = folder + "/share/locale"
            if !catalogueLanguages(in: candidate, first: true).isEmpty { return candidate }
        }
        return nil
    }()
}

extension Localization {
    /// The interface language's locale, for Foundation's names of months and days and its numbers:
    /// the one its catalogue names (`sv_SE`), else the language's own.
    public static var locale: Locale {
        // TRANSLATORS: The locale (language_COUNTRY) whose numbers, month and weekday names bok
        // uses in your language: sv_SE, fi_FI, ar_SE.
        let named = trp("locale", "en_US")
        return Locale(identifier: isEnglish || named != "en_US" ? named : language)
    }

    private static let names = Mutex<[String: (months: [String], shortMonths: [String], weekdays: [String])]>([:])

    /// Month and weekday names of the interface language, from Foundation's formatter (standalone
    /// forms: `mars`; abbreviations without a full stop: `nov`).
    private static var symbols: (months: [String], shortMonths: [String], weekdays: [String]) {
        let language = language
        return names.withLock { cache in
            if let known = cache[language] { return known }
            let formatter = DateFormatter()
            formatter.locale = locale
            let found = (
                formatter.standaloneMonthSymbols,
                formatter.shortStandaloneMonthSymbols.map { String($0.prefix { $0 != "." }) },
                formatter.standaloneWeekdaySymbols
            )
            cache[language] = found
            return found
        }
    }

    /// The name of month 1–12: `March`, `mars`; short: `Mar`, `mars`.
    public static func month(_ number: Int, short: Bool = false) -> String {
        let names = short ? symbols.shortMonths : symbols.months
        return names.count == 12 ? names[max(0, min(11, number - 1))] : String(number)
    }

    /// The name of weekday 0–6, Sunday first: `Friday`, `fredag`.
    public static func weekday(_ index: Int) -> String {
        let names = symbols.weekdays
        return names.count == 7 ? names[max(0, min(6, index))] : ""
    }
}

/// `message` in the interface language.
public func tr(_ message: String) -> String {
    guard !Localization.isEnglish else { return message }
    return message.withCString { String(cString: dgettext(Localization.domain, $0)) }
}

/// `message` in the interface language with each `{name}` replaced by its value.
public func tr(_ message: String, _ values: KeyValuePairs<String, any CustomStringConvertible>) -> String {
    fill(tr(message), values)
}

/// The singular or the plural of a message for `count`, by the language's plural rule, with `{n}`
/// replaced by `count` and each `{name}` by its value.
public func trn(
    _ singular: String, _ plural: String, _ count: Int,
    _ values: KeyValuePairs<String, any CustomStringConvertible> = [:]
) -> String {
    let chosen: String
    if Localization.isEnglish {
        chosen = count == 1 ? singular : plural
    } else {
        chosen = singular.withCString { one in
            plural.withCString { many in
                String(cString: dngettext(Localization.domain, one, many, UInt(max(0, count))))
            }
        }
    }
    return fill(fill(chosen, ["n": count]), values)
}

/// `message` in the interface language where one English word needs two translations: `context`
/// tells them apart (gettext's pgettext).
public func trp(_ context: String, _ message: String) -> String {
    guard !Localization.isEnglish else { return message }
    let key = context + "\u{04}" + message
    let found = key.withCString { String(cString: dgettext(Localization.domain, $0)) }
    return found == key ? message : found
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// (N_ is gettext's own name for a message marked to be translated where it is shown; xgettext looks for it.)
/// Marks `message` for translation where it is defined (a table of commands) and returns it as
/// written; ``tr(_:)`` translates it where it is shown.
public func N_(_ message: String) -> String { message }

/// `text` with each `{name}` of `values` replaced by its value, in one pass: a value is put in as
/// it is, so a title that reads `{time}` stays a title. (By byte: Foundation's
/// `replacingOccurrences` goes through NSString, and its first use cost the reader's first page.)
func fill(
    _ text: String, _ values: some Collection<(key: String, value: any CustomStringConvertible)>,
    language: String = Localization.patronLanguage
) -> String {
    guard !values.isEmpty, text.utf8.contains(UInt8(ascii: "{")) else { return text }
    var result = ""
    var rest = Substring(text)
    while let open = rest.utf8.firstIndex(of: UInt8(ascii: "{")),
        let close = rest[open...].utf8.firstIndex(of: UInt8(ascii: "}"))
    {
        let name = rest[rest.utf8.index(after: open)..<close]
        result += rest[..<open]
        if let value = values.first(where: { $0.key == name })?.value {
            // A count (`{n}`, the plural rule's number) of five digits or more is grouped as the
            // language writes it: 542 366 träffar, 542,366 hits. Only counts: a port or a year is not.
            if name == "n", let count = value as? Int, abs(count) >= 10_000 {
                result += Localization.grouped(count, language: language)
            } else {
                result += value.description
            }
        } else {
            result += rest[open...close]
        }
        rest = rest[rest.utf8.index(after: close)...]
    }
    return result + rest
}

extension Localization {
    /// `542 366` in Swedish (a no-break space between groups of three), `542,366` in English.
    static func grouped(_ number: Int, language: String) -> String {
        let separator = language.hasPrefix("sv") ? "\u{A0}" : ","
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += separator }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }
}

/// An error worded for the patron where it is made: bok's error report shows ``patronMessage``
/// as it is, so a module's new error never falls into "Something went wrong".
public protocol PatronFacingError: Error {
    /// One line that says what happened and what to do, in the interface language.
    var patronMessage: String { get }
}
