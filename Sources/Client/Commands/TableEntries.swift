import ArgumentParser
import Catalog
import Foundation

/// A command of the table, named by a type so that it can be a subcommand of `bok`
/// (`TableSubcommand<Entry>`): swift-argument-parser's commands are types.
protocol TableEntry: SendableMetatype {
    static var command: Command { get }
}

/// The commands bok knows, in the order `help` lists them: the one list the prompt's table, the
/// shell's subcommands, their completions and the man page are made from.
enum TableEntries {
    enum Search: TableEntry { static var command: Command { SearchCommands.search } }
    enum More: TableEntry { static var command: Command { SearchCommands.more } }
    enum Back: TableEntry { static var command: Command { SearchCommands.back } }
    enum Sort: TableEntry { static var command: Command { SearchCommands.sort } }
    enum Filter: TableEntry { static var command: Command { SearchCommands.filter } }
    enum View: TableEntry { static var command: Command { SearchCommands.view } }
    enum Info: TableEntry { static var command: Command { InfoCommand.info } }
    enum Similar: TableEntry { static var command: Command { InfoCommand.similar } }
    enum Library: TableEntry { static var command: Command { LibraryCommands.library } }
    enum Top: TableEntry { static var command: Command { LibraryCommands.top } }
    enum Newest: TableEntry { static var command: Command { LibraryCommands.newest } }
    enum Login: TableEntry { static var command: Command { PatronCommands.login } }
    enum Logout: TableEntry { static var command: Command { PatronCommands.logout } }
    enum Whoami: TableEntry { static var command: Command { PatronCommands.whoami } }
    enum Borrow: TableEntry { static var command: Command { LoanCommands.borrow } }
    enum Loans: TableEntry { static var command: Command { LoanCommands.loans } }
    enum GiveBack: TableEntry { static var command: Command { LoanCommands.giveBack } }
    enum Reserve: TableEntry { static var command: Command { ReservationCommands.reserve } }
    enum Reservations: TableEntry { static var command: Command { ReservationCommands.reservations } }
    enum Cancel: TableEntry { static var command: Command { ReservationCommands.cancel } }
    enum Shelf: TableEntry { static var command: Command { ShelfCommands.shelf } }
    enum ToBeRead: TableEntry { static var command: Command { ShelfCommands.tbr } }
    enum Sample: TableEntry { static var command: Command { ShelfCommands.sample } }
    enum Remove: TableEntry { static var command: Command { ShelfCommands.remove } }
    enum Notices: TableEntry { static var command: Command { NoticeCommands.notices } }
    enum Status: TableEntry { static var command: Command { StatusCommand.status } }
    enum History: TableEntry { static var command: Command { HistoryCommand.history } }
    enum Watch: TableEntry { static var command: Command { WatchCommand.watch } }
    enum Sync: TableEntry { static var command: Command { SyncCommand.sync } }
    enum Define: TableEntry { static var command: Command { DefineCommand.define } }
    enum Read: TableEntry { static var command: Command { ReadCommands.read } }
    enum Notes: TableEntry { static var command: Command { ReadCommands.notes } }
    enum Browse: TableEntry { static var command: Command { OPDSCommands.browse } }
    enum Get: TableEntry { static var command: Command { OPDSCommands.get } }
    enum Mock: TableEntry { static var command: Command { MockCommand.mock } }
    enum Language: TableEntry { static var command: Command { LanguageCommand.language } }
    enum Guide: TableEntry { static var command: Command { GuideCommand.guide } }
    enum Help: TableEntry { static var command: Command { HelpCommand.help } }
    enum Quit: TableEntry { static var command: Command { HelpCommand.quit } }

    static let all: [any TableEntry.Type] = [
        Search.self, More.self, Back.self, Sort.self, Filter.self, View.self, Info.self, Similar.self, Library.self,
        Top.self, Newest.self, Login.self, Logout.self, Whoami.self, Borrow.self, Loans.self, GiveBack.self,
        Reserve.self, Reservations.self, Cancel.self, Shelf.self, ToBeRead.self, Sample.self, Remove.self,
        Notices.self, Status.self, History.self, Watch.self, Sync.self, Define.self, Read.self, Notes.self, Browse.self,
        Get.self,
        Mock.self,
        Language.self,
        Guide.self,
        Help.self,
        Quit.self,
    ]

    /// The commands, for the prompt's table.
    static var commands: [Command] { all.map { $0.command } }

    /// The commands as subcommands of `bok`.
    static var subcommands: [any ParsableCommand.Type] { all.map { $0.subcommand } }
}

extension TableEntry {
    static var subcommand: any ParsableCommand.Type { TableSubcommand<Self>.self }
}

/// What a shell completes after `bok COMMAND`, and which of a one-shot's words are bok's own
/// options: the table's commands know their options, arguments and words.
enum TableCompletion {
    /// Candidates for the word at `index` of `words` (the whole line, `bok` first), starting with `prefix`.
    static func complete(_ command: Command, words: [String], index: Int, prefix: String) -> [String] {
        let before = Array(words.prefix(max(0, index)))
        let start = (before.firstIndex { $0 == command.name || command.aliases.contains($0) } ?? before.count - 1) + 1
        let arguments = Array(before.dropFirst(max(0, start)))
        var candidates: [String]
        switch arguments.last {
        case "--sort"?: candidates = SortKey.allCases.map(\.rawValue)
        case "--order"?: candidates = ["asc", "desc"]
        case "--library"?: candidates = LibraryProfiles.names(environment: ProcessInfo.processInfo.environment)
        case "--kind"?: candidates = LibraryConfig.Kind.allCases.map(\.rawValue)
        default:
            if prefix.hasPrefix("-") {
                candidates = (command.valued.union(command.flags).union(["json", "help"])).sorted().map { "--" + $0 }
                break
            }
            // Positional words so far: not options, nor an option's value.
            var position = 0
            var skipNext = false
            for word in arguments {
                if skipNext {
                    skipNext = false
                    continue
                }
                if word.hasPrefix("--") {
                    skipNext = command.valued.contains(String(word.dropFirst(2)))
                    continue
                }
                position += 1
            }
            switch command.completion {
            case .commands: candidates = TableEntries.commands.map(\.name)
            case .words, .typedWords, .filters, .languages:
                candidates = command.completion.words(at: position)
                if command.name == "library", position == 1, ["use", "remove", "rm"].contains(arguments.last ?? "") {
                    candidates = LibraryProfiles.names(environment: ProcessInfo.processInfo.environment)
                }
            case .none, .resultNumbers: candidates = []
            }
        }
        return candidates.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    }

    /// Splits a one-shot's words into bok's own options (`bok search x --json`, as before the
    /// command) and the command's words. An option the command takes stays the command's
    /// (`shelf --library NAME`); which of the rest are bok's is asked of `GlobalFlags` itself.
    static func splitGlobals(_ words: [String], for command: Command) throws -> (GlobalFlags, [String]) {
        var globals: [String] = []
        var rest: [String] = []
        var index = 0
        var onlyWords = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyWords || !word.hasPrefix("--") || word == "--" {
                if word == "--" { onlyWords = true }
                rest.append(word)
                continue
            }
            let name = String(word.dropFirst(2).prefix { $0 != "=" })
            if command.valued.contains(name) {
                rest.append(word)
                if !word.contains("="), index < words.count {
                    rest.append(words[index])
                    index += 1
                }
            } else if command.flags.contains(name) || name == "help" {
                rest.append(word)
            } else if (try? GlobalFlags.parse(globals + [word])) != nil {
                globals.append(word)
            } else if index < words.count, (try? GlobalFlags.parse(globals + [word, words[index]])) != nil {
                globals += [word, words[index]]
                index += 1
            } else {
                rest.append(word)
            }
        }
        return (try GlobalFlags.parse(globals), rest)
    }
}
