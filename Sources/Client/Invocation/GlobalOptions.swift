import ArgumentParser
import Catalog
import Foundation
import Localization
import MockLending

/// The options that come before (or after) a command: which library, and how to print. Their one
/// definition: swift-argument-parser parses, validates and documents them (`--help`, the man page,
/// shell completions).
struct GlobalFlags: ParsableArguments {
    @Flag(help: ArgumentHelp(tr("Use the built-in mock library (the default when none is configured).")))
    var mock = false

    @Option(
        help: GlobalFlags.libraryHelp,
        completion: .custom { _, _, prefix in
            LibraryProfiles.names(environment: ProcessInfo.processInfo.environment, prefix: prefix)
        })
    var library: String?

    @Option(help: GlobalFlags.kindHelp)
    var kind: LibraryConfig.Kind?

    @Flag(help: ArgumentHelp(tr("Print one JSON object per command.")))
    var json = false

    @Flag(
        name: [.customLong("no-color"), .customLong("no-colour")],
        help: ArgumentHelp(tr("Never colour output (NO_COLOR=1 does the same).")))
    var noColor = false

    @Flag(
        name: .customLong("no-pager"),
        help: ArgumentHelp(tr("Never page output taller than the window (PAGER=cat does the same).")))
    var noPager = false

    @Flag(
        name: .customLong("screen-reader"),
        help: ArgumentHelp(
            tr(
                "Write for a screen reader or braille display: lines written once, marks in words, no box drawing, "
                    + "spinner or full-screen reader (on by itself when one is found; see docs/accessibility.md).")))
    var screenReader = false

    @Option(help: ArgumentHelp(tr("The mock library's seed (default 1)."), valueName: "S"), transform: GlobalFlags.seed)
    var seed: UInt64?

    @Option(
        name: .customLong("catalog-size"),
        help: ArgumentHelp(tr("The mock library's number of books (default 600)."), valueName: "N"),
        transform: GlobalFlags.catalogSize)
    var catalogSize: Int?

    @Option(
        help: ArgumentHelp(
            tr("Record the interactive session in FILE: commands, what was shown, errors and help (PINs as ••••)."),
            // TRANSLATORS: What --record takes, as bok --help shows it: --record <FILE>.
            valueName: tr("FILE")),
        completion: .file(extensions: ["jsonl"]))
    var record: String?

    /// `--library`'s help, here and where a command takes it too (`bok study run`).
    static var libraryHelp: ArgumentHelp {
        ArgumentHelp(
            tr("A library of the config file, an Elib service's base URL or an OPDS catalogue's root feed."),
            // TRANSLATORS: What --library takes, as bok --help shows it: --library <NAME|URL>.
            valueName: tr("NAME|URL"))
    }

    /// `--kind`'s help, here and where a command takes it too.
    static var kindHelp: ArgumentHelp {
        ArgumentHelp(
            tr(
                "What --library speaks (found out from what it answers when not given); with --mock, which face of the "
                    + "mock bok talks to."),
            valueName: LibraryConfig.Kind.choices)
    }

    static func seed(_ text: String) throws -> UInt64 {
        guard let seed = UInt64(text) else { throw UserError.usage(tr("--seed takes a whole number, e.g. --seed 7.")) }
        return seed
    }

    static func catalogSize(_ text: String) throws -> Int {
        guard let size = Int(text), (1...1_000_000).contains(size) else {
            throw UserError.usage(tr("--catalog-size takes a number from 1 to 1000000, e.g. --catalog-size 200000."))
        }
        return size
    }
}

extension LibraryConfig.Kind: ExpressibleByArgument {
    init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

/// The options a run ends up with: the flags given before the command and after it, the mock's
/// settings that scenarios set (they have no flags).
struct GlobalOptions: Sendable, Equatable {
    /// Run on the built-in mock library.
    var mock = false
    /// A library base URL given with `--library`.
    var libraryURL: String?
    /// A library of the config file named with `--library NAME` (`mock` is the built-in one).
    var libraryName: String?
    /// `--kind elib|opds` for `--library`.
    var kind: LibraryConfig.Kind?
    /// Print JSON instead of text.
    var json = false
    /// Never colour, even at a terminal.
    var noColor = false
    /// Never page long answers, even at a terminal.
    var noPager = false
    /// `--screen-reader`: write for a screen reader, whatever the config file says.
    var screenReader = false
    /// The mock's seed.
    var seed: UInt64 = 1
    /// The mock's catalogue size.
    var catalogSize = 600
    /// Where the mock's clock starts (nil: now). Scenarios set it; there is no flag for it.
    var mockClockStart: Date?
    /// False stops the mock's clock between `mock clock` moves, as scenarios need.
    var mockClockRuns = true
    /// The mock library's pace (`pace:` in a scenario; nil: none, as by default).
    var mockPace: LoanPace?
    /// `--record FILE`: record the interactive session there.
    var record: String?

    init() {}

    /// The options of flags given in several places (before the command, after it); a later
    /// place's value wins, a flag set anywhere is set.
    init(_ groups: [GlobalFlags]) {
        for flags in groups {
            mock = mock || flags.mock
            json = json || flags.json
            noColor = noColor || flags.noColor
            noPager = noPager || flags.noPager
            screenReader = screenReader || flags.screenReader
            if let library = flags.library {
                // A URL has a scheme; anything else names a library of the config file.
                if library.contains("://") {
                    libraryURL = library
                    libraryName = nil
                } else {
                    libraryName = library
                    libraryURL = nil
                }
            }
            kind = flags.kind ?? kind
            seed = flags.seed ?? seed
            catalogSize = flags.catalogSize ?? catalogSize
            record = flags.record ?? record
        }
    }

    /// The built-in mock library these options ask for.
    /// What the mock answers: all of bok's extensions, or (`scenario run --plain-elib`) only the
    /// calls a plain Elib lending service has.
    var mockDialect = APIDialect.full

    var mockConfiguration: MockConfiguration {
        MockConfiguration(
            seed: seed, catalogSize: catalogSize, clockStart: mockClockStart,
            rules: MockRules(loanPace: mockPace), clockRuns: mockClockRuns, dialect: mockDialect)
    }
}
