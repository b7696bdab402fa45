import Localization
internal import Terminal

/// One `:` command of the reader: its names, the argument it takes, and its lines in the `?`
/// panel. ``all`` is the one list ``ReaderCommand/parse(_:)`` and ``ReaderCommand/summary`` are
/// made from.
struct ReaderCommandDefinition: Sendable {
    /// Words that stand for a command: `full` for `:width full`.
    typealias Choice = (words: [String], command: ReaderCommand)

    /// What a command takes after its name. Words are compared in lower case.
    enum Argument: Sendable {
        /// Nothing; words after the name are ignored.
        case none(ReaderCommand)
        /// `on` or `off` (also yes/no, true/false, 1/0); nothing means on.
        case onOff(@Sendable (Bool) -> ReaderCommand)
        /// One of a few words; anything else is answered with `usage` (marked for translation).
        case word([Choice], usage: String)
        /// One of `words`, or a whole number in `range`; anything else is answered with `usage`.
        case number(ClosedRange<Int>, words: [Choice] = [], usage: String, @Sendable (Int) -> ReaderCommand)
        /// One of `words`, or any text as typed; nothing is answered with `usage`.
        case text(words: [Choice] = [], usage: String, @Sendable (String) -> ReaderCommand)
        /// Parsed by the command's own function (`goto`), given the argument as typed.
        case parsed(@Sendable (String) -> Result<ReaderCommand, ReaderCommandError>)
    }

    /// The name, then the other names it answers to.
    let names: [String]
    let argument: Argument
    /// The command's rows in the `?` panel: how it is typed and what it does (marked for
    /// translation). A command described in another's row (`paged` in `scroll | paged`) has none.
    let help: [(usage: String, summary: String)]

    /// The commands, in the order the `?` panel lists them.
    static let all: [ReaderCommandDefinition] = [
        .init(
            names: ["goto", "go", "g"], argument: .parsed(ReaderCommand.parseGoto),
            help: [
                (
                    "goto 42% | goto chapter 3 | goto 120 | goto start | goto end",
                    N_("jump by percent, chapter, page of the book")
                ),
                ("goto page 42", N_("the print edition's page, where the book marks them")),
                ("goto epubcfi(/6/4!/4/2/1:0)", N_("a place another reading system wrote (an EPUB CFI)")),
            ]),
        .init(
            names: ["width", "w"],
            argument: .number(
                20...Int.max, words: [(["full", "off", "none", "max"], .width(nil))],
                usage: N_("Give the text width in cells (20 or more), or full: :width 70"), ReaderCommand.width),
            help: [("width 70 | width full", N_("widest text column in cells"))]),
        .init(
            names: ["margin", "margins"],
            argument: .number(0...40, usage: N_("Give the margin in cells, 0 to 40: :margin 4"), ReaderCommand.margin),
            help: [("margin 4", N_("cells left and right of the text"))]),
        .init(
            names: ["spacing", "linespacing"],
            argument: .word(
                [
                    (["1", "single"], .spacing(.single)), (["1.5", "one-and-half"], .spacing(.oneAndHalf)),
                    (["2", "double"], .spacing(.double)),
                ], usage: N_("Line spacing is 1, 1.5 or 2: :spacing 1.5")),
            help: [("spacing 1 | 1.5 | 2", N_("line spacing"))]),
        .init(
            names: ["justify"], argument: .onOff(ReaderCommand.justify),
            help: [("justify on | off", N_("straight right edge"))]),
        .init(
            names: ["hyphenate", "hyphenation"], argument: .onOff(ReaderCommand.hyphenate),
            help: [("hyphenate on | off", N_("break words by their language's patterns (on with justify)"))]),
        .init(
            names: ["paragraphs", "paragraph"],
            argument: .word(
                [
                    (["indent", "indented"], .paragraphs(.indent)),
                    (["blank", "blankline", "space"], .paragraphs(.blankLine)), (["book", "auto"], .paragraphs(.book)),
                ], usage: N_("Paragraphs are indent, blank or book: :paragraphs indent")),
            help: [("paragraphs indent | blank | book", N_("how paragraphs are told apart"))]),
        .init(
            names: ["theme"],
            argument: .word(
                ReaderPreferences.Theme.allCases.map { ([$0.rawValue], .theme($0)) },
                usage: N_("Themes are day, night and sepia: :theme night")),
            help: [("theme day | night | sepia", N_("page colours"))]),
        .init(
            names: ["brightness", "bright"],
            argument: .number(
                ReaderPreferences.brightnessRange, usage: N_("Brightness is a level from -3 to 3: :brightness -1"),
                ReaderCommand.brightness),
            help: [("brightness -3 … 3", N_("dimmer or brighter page"))]),
        .init(
            names: ["scroll", "continuous"], argument: .none(.flow(.scroll)),
            help: [("scroll | paged", N_("scroll continuously or turn pages"))]),
        .init(names: ["paged", "pages", "page"], argument: .none(.flow(.paged)), help: []),
        .init(
            names: ["twopage", "twopages", "spread"], argument: .onOff(ReaderCommand.twoPage),
            help: [("twopage on | off", N_("two pages side by side when wide enough"))]),
        .init(
            names: ["images", "image", "pictures"],
            argument: .word(
                [(["on", "yes", "true", "1", ""], .images(true)), (["off", "no", "false", "0"], .images(false))]
                    + ImagesSetting.all.filter { $0 != .forced(.off) }.map { ([$0.configValue], .pictures($0)) }
                    + [(["iterm2"], .pictures(.forced(.iterm))), (["halfblocks"], .pictures(.forced(.blocks)))],
                usage: N_("Images are on, off, auto, kitty, iterm, sixel or blocks: :images sixel")),
            help: [
                ("images on | off", N_("draw images or show their labels")),
                ("images auto | kitty | iterm | sixel | blocks", N_("how images are drawn (auto: ask the terminal)")),
            ]),
        .init(
            names: ["search", "find"],
            argument: .text(usage: N_("Say what to search for: :search whale"), ReaderCommand.search),
            help: [("search PATTERN", N_("same as /"))]),
        .init(
            names: ["define", "dict", "lookup"],
            argument: .text(
                usage: N_("Say which word: :define läsa (d on the page asks for one)"), ReaderCommand.define),
            help: [("define WORD", N_("look a word up in this computer's dictionaries (dictd)"))]),
        .init(
            names: ["voice"],
            argument: .text(
                words: [(["auto", "book", "default"], .voice(nil))],
                usage: N_("Name a voice: :voice sv, :voice en-us, or :voice auto for the book's language"),
                ReaderCommand.voice),
            help: [("voice sv | en-us | auto", N_("reading-aloud voice (auto: the book's language)"))]),
        .init(
            names: ["rate", "speed"],
            argument: .number(
                80...450, usage: N_("Reading-aloud speed is 80 to 450 words a minute: :rate 200"), ReaderCommand.rate),
            help: [("rate 80 … 450", N_("reading-aloud speed, words a minute"))]),
        .init(
            names: ["pitch"],
            argument: .number(
                0...99, usage: N_("Pitch is 0 to 99 (50 is the voice's own): :pitch 40"), ReaderCommand.pitch),
            help: [("pitch 0 … 99", N_("reading-aloud pitch (50: the voice's own)"))]),
        .init(names: ["back"], argument: .none(.back), help: [("back", N_("return from a link or jump"))]),
        .init(
            names: ["stats", "statistics", "pace"], argument: .none(.stats),
            help: [("stats", N_("your reading pace, and time read today and in this book"))]),
        .init(names: ["quit", "q", "exit", "wq", "x"], argument: .none(.quit), help: [("quit", N_("leave the book"))]),
    ]

    /// Each name and alias, and its command.
    static let byName: [String: ReaderCommandDefinition] = Dictionary(
        all.flatMap { definition in definition.names.map { ($0, definition) } },
        uniquingKeysWith: { first, _ in first })

    /// The command for `argument`, the words after the name.
    func parse(_ argument: String) -> Result<ReaderCommand, ReaderCommandError> {
        let lowered = argument.lowercased()
        func chosen(_ choices: [Choice]) -> ReaderCommand? { choices.first { $0.words.contains(lowered) }?.command }
        switch self.argument {
        case .none(let command):
            return .success(command)
        case .onOff(let make):
            switch lowered {
            case "on", "yes", "true", "1", "": return .success(make(true))
            case "off", "no", "false", "0": return .success(make(false))
            default: return .failure(.init(tr("Say on or off: :{command} on", ["command": names[0]])))
            }
        case .word(let choices, let usage):
            guard let command = chosen(choices) else { return .failure(.init(tr(usage))) }
            return .success(command)
        case .number(let range, let words, let usage, let make):
            if let command = chosen(words) { return .success(command) }
            guard let number = Int(lowered), range.contains(number) else { return .failure(.init(tr(usage))) }
            return .success(make(number))
        case .text(let words, let usage, let make):
            if let command = chosen(words) { return .success(command) }
            guard !argument.isEmpty else { return .failure(.init(tr(usage))) }
            return .success(make(argument))
        case .parsed(let parse):
            return parse(argument)
        }
    }
}
