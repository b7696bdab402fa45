internal import Foundation
public import Localization

/// A command typed at the reading view's `:` prompt, parsed.
///
/// `:goto 42%`, `:goto chapter 3`, `:goto 120` (page of the book), `:goto start`/`end`,
/// `:width 70` (`:width full`), `:margin 4`, `:spacing 1|1.5|2`, `:justify on|off`, `:hyphenate on|off`,
/// `:paragraphs indent|blank|book`, `:theme day|night|sepia`, `:brightness -1` (a level from
/// -3 to 3), `:scroll`, `:paged`, `:twopage on|off`, `:images on|off`, `:search PATTERN`,
/// `:back`, `:quit`.
public enum ReaderCommand: Sendable, Hashable {
    case gotoPercent(Double)
    case gotoChapter(Int)
    case gotoPage(Int)
    /// A page of the print edition, by its label (`42`, `xii`).
    case gotoPrintPage(String)
    case gotoStart
    case gotoEnd
    case width(Int?)
    case margin(Int)
    case spacing(LayoutSettings.LineSpacing)
    case justify(Bool)
    case hyphenate(Bool)
    case paragraphs(LayoutSettings.ParagraphStyle)
    case theme(ReaderPreferences.Theme)
    case brightness(Int)
    case flow(ReaderPreferences.Flow)
    case twoPage(Bool)
    case images(Bool)
    case search(String)
    case voice(String?)
    case rate(Int)
    case pitch(Int)
    case back
    /// `:stats`: the reader's pace and time read.
    case stats
    case quit

    /// The commands with their arguments, for help and completion; the descriptions are marked for
    /// translation and translated where they are shown.
    public static let summary: [(String, String)] = [
        (
            "goto 42% | goto chapter 3 | goto 120 | goto start | goto end",
            N_("jump by percent, chapter, page of the book")
        ),
        ("goto page 42", N_("the print edition's page, where the book marks them")),
        ("width 70 | width full", N_("widest text column in cells")),
        ("margin 4", N_("cells left and right of the text")),
        ("spacing 1 | 1.5 | 2", N_("line spacing")),
        ("justify on | off", N_("straight right edge")),
        ("hyphenate on | off", N_("break words by their language's patterns (on with justify)")),
        ("paragraphs indent | blank | book", N_("how paragraphs are told apart")),
        ("theme day | night | sepia", N_("page colours")),
        ("brightness -3 … 3", N_("dimmer or brighter page")),
        ("scroll | paged", N_("scroll continuously or turn pages")),
        ("twopage on | off", N_("two pages side by side when wide enough")),
        ("images on | off", N_("draw images or show their labels")),
        ("search PATTERN", N_("same as /")),
        ("voice sv | en-us | auto", N_("reading-aloud voice (auto: the book's language)")),
        ("rate 80 … 450", N_("reading-aloud speed, words a minute")),
        ("pitch 0 … 99", N_("reading-aloud pitch (50: the voice's own)")),
        ("back", N_("return from a link or jump")),
        ("stats", N_("your reading pace, and time read today and in this book")),
        ("quit", N_("leave the book")),
    ]

    /// Parses a command line (without the `:`).
    ///
    /// - Returns: the command, or a message saying what is wrong and what would work.
    public static func parse(_ line: String) -> Result<ReaderCommand, ReaderCommandError> {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let name = words.first?.lowercased() else {
            return .failure(.init(tr("Type a command, like :goto 50% or :theme night.")))
        }
        let argument = words.dropFirst().joined(separator: " ")
        let lowered = argument.lowercased()
        func onOff(_ usage: String) -> Result<Bool, ReaderCommandError> {
            switch lowered {
            case "on", "yes", "true", "1", "": return .success(true)
            case "off", "no", "false", "0": return .success(false)
            default: return .failure(.init(tr("Say on or off: :{command} on", ["command": usage])))
            }
        }
        switch name {
        case "goto", "go", "g":
            return parseGoto(lowered)
        case "width", "w":
            if ["full", "off", "none", "max"].contains(lowered) { return .success(.width(nil)) }
            guard let width = Int(lowered), width >= 20 else {
                return .failure(.init(tr("Give the text width in cells (20 or more), or full: :width 70")))
            }
            return .success(.width(width))
        case "margin", "margins":
            guard let margin = Int(lowered), (0...40).contains(margin) else {
                return .failure(.init(tr("Give the margin in cells, 0 to 40: :margin 4")))
            }
            return .success(.margin(margin))
        case "spacing", "linespacing":
            switch lowered {
            case "1", "single": return .success(.spacing(.single))
            case "1.5", "one-and-half": return .success(.spacing(.oneAndHalf))
            case "2", "double": return .success(.spacing(.double))
            default: return .failure(.init(tr("Line spacing is 1, 1.5 or 2: :spacing 1.5")))
            }
        case "justify":
            return onOff("justify").map(ReaderCommand.justify)
        case "hyphenate", "hyphenation":
            return onOff("hyphenate").map(ReaderCommand.hyphenate)
        case "paragraphs", "paragraph":
            switch lowered {
            case "indent", "indented": return .success(.paragraphs(.indent))
            case "blank", "blankline", "space": return .success(.paragraphs(.blankLine))
            case "book", "auto": return .success(.paragraphs(.book))
            default: return .failure(.init(tr("Paragraphs are indent, blank or book: :paragraphs indent")))
            }
        case "theme":
            guard let theme = ReaderPreferences.Theme(rawValue: lowered) else {
                return .failure(.init(tr("Themes are day, night and sepia: :theme night")))
            }
            return .success(.theme(theme))
        case "brightness", "bright":
            guard let level = Int(lowered.hasPrefix("+") ? String(lowered.dropFirst()) : lowered),
                ReaderPreferences.brightnessRange.contains(level)
            else {
                return .failure(.init(tr("Brightness is a level from -3 to 3: :brightness -1")))
            }
            return .success(.brightness(level))
        case "scroll", "continuous": return .success(.flow(.scroll))
        case "paged", "pages", "page": return .success(.flow(.paged))
        case "twopage", "twopages", "spread":
            return onOff("twopage").map(ReaderCommand.twoPage)
        case "images", "image":
            return onOff("images").map(ReaderCommand.images)
        case "search", "find":
            guard !argument.isEmpty else { return .failure(.init(tr("Say what to search for: :search whale"))) }
            return .success(.search(argument))
        case "voice":
            if ["auto", "book", "default"].contains(lowered) { return .success(.voice(nil)) }
            guard !argument.isEmpty else {
                return .failure(
                    .init(tr("Name a voice: :voice sv, :voice en-us, or :voice auto for the book's language")))
            }
            return .success(.voice(argument))
        case "rate", "speed":
            guard let rate = Int(lowered), (80...450).contains(rate) else {
                return .failure(.init(tr("Reading-aloud speed is 80 to 450 words a minute: :rate 200")))
            }
            return .success(.rate(rate))
        case "pitch":
            guard let pitch = Int(lowered), (0...99).contains(pitch) else {
                return .failure(.init(tr("Pitch is 0 to 99 (50 is the voice's own): :pitch 40")))
            }
            return .success(.pitch(pitch))
        case "back": return .success(.back)
        case "stats", "statistics", "pace": return .success(.stats)
        case "q", "quit", "exit", "wq", "x": return .success(.quit)
        default:
            return .failure(.init(tr("There is no :{command} command; press ? for the list.", ["command": name])))
        }
    }

    private static func parseGoto(_ argument: String) -> Result<ReaderCommand, ReaderCommandError> {
        let usage = ReaderCommandError(
            tr(
                "Go where? :goto 42%, :goto chapter 3, :goto 120 (a page), :goto page 42 (print page), "
                    + ":goto start or :goto end"))
        switch argument {
        case "start", "beginning", "first": return .success(.gotoStart)
        case "end", "last": return .success(.gotoEnd)
        default: break
        }
        if argument.hasSuffix("%") {
            guard let value = Double(argument.dropLast().trimmingCharacters(in: .whitespaces)),
                (0...100).contains(value)
            else { return .failure(usage) }
            return .success(.gotoPercent(value / 100))
        }
        let words = argument.split(separator: " ")
        if let first = words.first, ["chapter", "ch", "c"].contains(first), words.count == 2,
            let number = Int(words[1]), number > 0
        {
            return .success(.gotoChapter(number))
        }
        if let first = words.first, ["page", "print", "p."].contains(first), words.count == 2 {
            return .success(.gotoPrintPage(String(words[1])))
        }
        if words.count == 1, let page = Int(words[0].hasPrefix("p") ? String(words[0].dropFirst()) : String(words[0])),
            page > 0
        {
            return .success(.gotoPage(page))
        }
        return .failure(usage)
    }
}

/// What is wrong with a typed command, and what would work.
public struct ReaderCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message for the status line.
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension ReaderSession {
    /// Carries out a parsed command; the outcome is in ``message``.
    ///
    /// - Returns: `false` for `:quit`, which the view handles by closing the book.
    @discardableResult
    public mutating func perform(_ command: ReaderCommand) -> Bool {
        switch command {
        case .gotoPercent(let fraction): goTo(fraction: fraction)
        case .gotoChapter(let number):
            let chapters = numberedChapters()
            guard chapters.indices.contains(number - 1) else {
                message = trn(
                    "The book has {n} chapter; try :goto chapter {last}.",
                    "The book has {n} chapters; try :goto chapter {last}.", chapters.count,
                    ["last": max(1, chapters.count)])
                return true
            }
            jump(to: locator(inChapter: chapters[number - 1]))
        case .gotoPage(let page): goTo(page: page)
        case .gotoPrintPage(let label): goTo(printPage: label)
        case .gotoStart: goToStart()
        case .gotoEnd: goToEnd()
        case .width(let width):
            updatePreferences { $0.maxTextWidth = width }
            message =
                width.map { trn("Text column at most {n} cell wide.", "Text column at most {n} cells wide.", $0) }
                ?? tr("Text column as wide as the screen.")
        case .margin(let margin):
            updatePreferences { $0.margin = margin }
            message = trn("Margins of {n} cell.", "Margins of {n} cells.", margin)
        case .spacing(let spacing): updatePreferences { $0.lineSpacing = spacing }
        case .justify(let on): updatePreferences { $0.justify = on }
        case .hyphenate(let on):
            updatePreferences { $0.hyphenate = on }
            let language = book.metadata.language ?? "en"
            if !on {
                message = tr("Words are not hyphenated.")
            } else if Hyphenator.forLanguage(language) == nil {
                message = tr(
                    "No hyphenation patterns for {language} are installed (Debian's hyphen-* packages); "
                        + "words are not broken.", ["language": language])
            } else {
                message = tr("Words are hyphenated by the patterns of their language.")
            }
        case .paragraphs(let style): updatePreferences { $0.paragraphStyle = style }
        case .theme(let theme): updatePreferences { $0.theme = theme }
        case .brightness(let level): updatePreferences { $0.brightness = level }
        case .flow(let flow): updatePreferences { $0.flow = flow }
        case .twoPage(let on):
            updatePreferences { $0.twoPage = on }
            if on, !showsTwoPages, preferences.flow == .paged {
                message = tr(
                    "Two pages need a window at least {columns} columns wide; shown when it is.",
                    ["columns": ReaderPreferences.twoPageMinimumColumns])
            }
        case .images(let on): updatePreferences { $0.showImages = on }
        case .search(let pattern):
            do { try search(pattern) } catch { message = error.message }
        case .voice(let voice): setSpeech { $0.voice = voice }
        case .rate(let rate): setSpeech { $0.speechRate = rate }
        case .pitch(let pitch): setSpeech { $0.speechPitch = pitch }
        case .back: goBack()
        case .stats: message = readingStats()
        case .quit: return false
        }
        return true
    }

    /// Goes to a fraction (0 to 1) of the book, by characters.
    public mutating func goTo(fraction: Double) {
        let order = book.readingOrder
        let lengths = order.map(chapterLength)
        let total = lengths.reduce(0, +)
        var target = Int(Double(total) * max(0, min(1, fraction)))
        for (index, spine) in order.enumerated() {
            if target < lengths[index] || index == order.count - 1 {
                // The estimate for this chapter becomes exact once it is converted.
                let exact = content.length(at: spine)
                let offset = lengths[index] > 0 ? Int(Double(target) / Double(lengths[index]) * Double(exact)) : 0
                if fraction >= 1 {
                    goToEnd()
                } else {
                    jump(to: content.locator(spineIndex: spine, offset: min(offset, exact)))
                }
                return
            }
            target -= lengths[index]
        }
    }

    /// Goes to a page of the whole book (from 1), counting every chapter's pages first if needed.
    public mutating func goTo(page: Int) {
        layout.computePageCounts()
        var remaining = page - 1
        for spine in book.readingOrder {
            let count = layout.knownPageCount(ofSpineItem: spine) ?? chapter(spine).pageCount
            if remaining < count {
                jump(to: content.locator(spineIndex: spine, offset: chapter(spine).offset(atPageStart: remaining)))
                return
            }
            remaining -= count
        }
        let total = page - 1 - remaining
        message = trn(
            "The book has {n} page at this size; going to the last.",
            "The book has {n} pages at this size; going to the last.", total)
        goToEnd()
    }
}

extension ReaderCommandError: PatronFacingError {
    public var patronMessage: String { message }
}
