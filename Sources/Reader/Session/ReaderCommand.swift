internal import Foundation
public import Localization
public import Terminal

/// A command typed at the reading view's `:` prompt, parsed.
///
/// The commands, the names they answer to and the arguments they take are one list,
/// ``ReaderCommandDefinition/all``, which ``parse(_:)`` reads and `?` lists.
public enum ReaderCommand: Sendable, Hashable {
    case gotoPercent(Double)
    case gotoChapter(Int)
    case gotoPage(Int)
    /// A page of the print edition, by its label (`42`, `xii`).
    case gotoPrintPage(String)
    /// A place as another reading system names it.
    case gotoCFI(EPUBCFI)
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
    /// `:images sixel`: how pictures are drawn (the view's drawer changes; the page keeps its cells).
    case pictures(ImagesSetting)
    case search(String)
    /// `:define WORD`: the word looked up in the installed dictionaries.
    case define(String)
    case voice(String?)
    case rate(Int)
    case pitch(Int)
    case back
    /// `:stats`: the reader's pace and time read.
    case stats
    case quit

    /// The commands with their arguments, for help and completion; the descriptions are marked for
    /// translation and translated where they are shown.
    public static let summary: [(String, String)] = ReaderCommandDefinition.all.flatMap { $0.help.map { ($0, $1) } }

    /// Parses a command line (without the `:`).
    ///
    /// - Returns: the command, or a message saying what is wrong and what would work.
    public static func parse(_ line: String) -> Result<ReaderCommand, ReaderCommandError> {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let name = words.first?.lowercased() else {
            return .failure(.init(tr("Type a command, like :goto 50% or :theme night.")))
        }
        guard let definition = ReaderCommandDefinition.byName[name] else {
            return .failure(.init(tr("There is no :{command} command; press ? for the list.", ["command": name])))
        }
        return definition.parse(words.dropFirst().joined(separator: " "))
    }

    /// `:goto`'s argument, as typed (a CFI's ids keep their case; the rest is read in lower case).
    static func parseGoto(_ typed: String) -> Result<ReaderCommand, ReaderCommandError> {
        if typed.contains("epubcfi") {
            guard let cfi = EPUBCFI(typed) else {
                return .failure(
                    .init(tr("That is not a whole EPUB CFI; paste it as written, like :goto epubcfi(/6/4!/4/2/1:0).")))
            }
            return .success(.gotoCFI(cfi))
        }
        let argument = typed.lowercased()
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
        case .gotoCFI(let cfi): goTo(cfi: cfi)
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
        case .pictures: updatePreferences { $0.showImages = true }
        case .search(let pattern):
            do { try search(pattern) } catch { message = error.message }
        case .voice(let voice): setSpeech { $0.voice = voice }
        case .rate(let rate): setSpeech { $0.speechRate = rate }
        case .pitch(let pitch): setSpeech { $0.speechPitch = pitch }
        case .back: goBack()
        case .stats: message = readingStats()
        case .define(let word): define(word)
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
