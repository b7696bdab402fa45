import Foundation
import MockLending

/// The options that come before (or anywhere around) a command: which library, and how to print.
struct GlobalOptions: Sendable, Equatable {
    /// Run on the built-in mock library.
    var mock = false
    /// A library base URL given with `--library`.
    var libraryURL: String?
    /// A library of the config file named with `--library NAME` (`mock` is the built-in one).
    var libraryName: String?
    /// `--kind elib|opds` for `--library`.
    var kind: String?
    /// Print JSON instead of text.
    var json = false
    /// Never colour, even at a terminal.
    var noColor = false
    /// The mock's seed.
    var seed: UInt64 = 1
    /// The mock's catalogue size.
    var catalogSize = 600
    /// Where the mock's clock starts (nil: now). Scenarios set it; there is no flag for it.
    var mockClockStart: Date?
    /// False stops the mock's clock between `mock clock` moves, as scenarios need.
    var mockClockRuns = true
    /// `--record FILE`: record the interactive session there.
    var record: String?
    /// `--help` was given.
    var help = false
    /// `--version` was given.
    var version = false
    /// The command and its words, if any (none starts the REPL).
    var command: [String] = []

    /// Parses `bok [options] [COMMAND [ARGS…]]`; global options may also follow the command.
    static func parse(_ argv: [String]) throws -> GlobalOptions {
        var options = GlobalOptions()
        var index = 0
        var passThrough = false
        func value(_ name: String) throws -> String {
            guard index < argv.count else { throw UserError.usage("\(name) needs a value. See bok --help.") }
            defer { index += 1 }
            return argv[index]
        }
        while index < argv.count {
            let word = argv[index]
            index += 1
            if passThrough { options.command.append(word); continue }
            switch word {
            case "--mock": options.mock = true
            case "--json": options.json = true
            case "--no-color", "--no-colour": options.noColor = true
            case "--help", "-h": if options.command.isEmpty { options.help = true } else { options.command.append(word) }
            case "--version", "-V": options.version = true
            case "--library":
                // A URL has a scheme; anything else names a library of the config file.
                let given = try value(word)
                if given.contains("://") { options.libraryURL = given } else { options.libraryName = given }
            case "--kind": options.kind = try value(word)
            case "--record": options.record = try value(word)
            case "--seed":
                let text = try value(word)
                guard let seed = UInt64(text) else { throw UserError.usage("--seed takes a whole number, e.g. --seed 7.") }
                options.seed = seed
            case "--catalog-size":
                let text = try value(word)
                guard let size = Int(text), (1...1_000_000).contains(size) else {
                    throw UserError.usage("--catalog-size takes a number from 1 to 1000000, e.g. --catalog-size 200000.")
                }
                options.catalogSize = size
            case "--":
                options.command.append(word)
                passThrough = true
            default:
                if options.command.isEmpty, word.hasPrefix("-") {
                    throw UserError.usage("Unknown option \(word). See bok --help.")
                }
                options.command.append(word)
            }
        }
        return options
    }

    /// The built-in mock library these options ask for.
    var mockConfiguration: MockConfiguration {
        MockConfiguration(seed: seed, catalogSize: catalogSize, clockStart: mockClockStart, clockRuns: mockClockRuns)
    }

    /// `bok --help`.
    static let usage = """
        bok — find, borrow and read library e-books from the shell

        Usage:
          bok [--mock] [--library URL]               start the interactive prompt
          bok [--mock] COMMAND [ARGS…] [--json]      run one command and exit
          bok --record FILE [--mock]                 start the prompt and record the session in FILE
          bok mock-server [--port P] [--seed S] [--catalog-size N]
                                                     run the mock lending library alone
          bok scenario run FILE… [--report R.md] [--junit R.xml] [--json]
                                                     run scenario files, each on a fresh mock library
          bok scenario check FILE…                   check scenario files without running them
          bok scenario report RECORDING [--json]     summarise a recording by task

        Options:
          --mock               use the built-in mock library (the default when none is configured)
          --library URL        the lending service's base URL (service id and key from the config file),
                               or an OPDS catalogue's root feed
          --kind elib|opds     what --library speaks (found out from what it answers when not given)
          --json               print one JSON object per command
          --no-color           never colour output (NO_COLOR=1 does the same)
          --seed S             the mock library's seed (default 1)
          --catalog-size N     the mock library's number of books (default 600)
          --record FILE        record commands, what was shown, errors and help (PINs as ••••)
          --version            print the version

        Commands: search, more, back, sort, filter, view, info, library, top, new, login, logout,
        whoami, borrow, loans, return, reserve, reservations, cancel, shelf, tbr, sample, remove,
        read, notes, browse, get, mock, help, quit.
        Type help inside bok, or see docs/commands.md; scenario files: docs/scenarios.md.
        """
}
