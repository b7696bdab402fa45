import Foundation
import Localization

/// `bok --help` in the interface language.
///
/// swift-argument-parser writes the help from the commands' one definition: bok's own words there
/// (the overview, the usage lines, each option's help) are translated where they are defined, but
/// the parser's words — its headings (`OVERVIEW:`, `USAGE:`, `OPTIONS:`), the help of `--help` and
/// `--version`, the line that points to `bok help` — are fixed English. This puts them in the
/// interface language in the text the parser made, so the options stay defined once. English is
/// left as the parser writes it.
enum ParserHelp {
    /// `text`, a help message of swift-argument-parser's, with its own words translated.
    static func translated(_ text: String) -> String {
        guard !Localization.isEnglish else { return text }
        var lines: [String] = []
        // A heading's continuation lines are indented to its width: `USAGE: ` is 7 cells, `ANVÄNDNING: ` 12.
        var indent: (from: Int, to: Int)?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let (from, to) = indent, line.hasPrefix(String(repeating: " ", count: from)), !line.isBlank {
                lines.append(String(repeating: " ", count: to) + line.dropFirst(from))
                continue
            }
            indent = nil
            if let (english, label) = labels.first(where: { line.hasPrefix($0.english + " ") }) {
                lines.append(label + line.dropFirst(english.count))
                indent = (english.count + 1, label.count + 1)
            } else {
                lines.append(headings[line] ?? line)
            }
        }
        return phrases(lines.joined(separator: "\n"))
    }

    /// The headings that begin a paragraph: the overview and the usage lines.
    private static var labels: [(english: String, label: String)] {
        // TRANSLATORS: Headings of bok --help, in capitals as the command-line convention has them.
        [("OVERVIEW:", tr("OVERVIEW:")), ("USAGE:", tr("USAGE:"))]
    }

    /// The headings alone on their line.
    private static var headings: [String: String] {
        ["ARGUMENTS:": tr("ARGUMENTS:"), "OPTIONS:": tr("OPTIONS:"), "SUBCOMMANDS:": tr("SUBCOMMANDS:")]
    }

    /// The parser's sentences: the help of `-h, --help` and `--version`, the values an option takes
    /// and its default (a line may break inside them), the pointer to `bok help COMMAND`.
    private static func phrases(_ text: String) -> String {
        var text = text
        for (english, translated) in [
            ("Show help information.", tr("Show help information.")), ("Show the version.", tr("Show the version.")),
        ] {
            text = text.replacingOccurrences(of: english, with: translated)
        }
        text.replace(/\(values: ([^)]*)\)/) { tr("(values: {values})", ["values": String($0.output.1)]) }
        text.replace(/\(default: ([^)]*)\)/) { tr("(default: {value})", ["value": String($0.output.1)]) }
        text.replace(/See '([^']*) <subcommand>' for detailed help\./) {
            tr("See “{command} COMMAND” for a command's help.", ["command": String($0.output.1)])
        }
        return text
    }
}

extension String {
    fileprivate var isBlank: Bool { allSatisfy(\.isWhitespace) }
}
