import Foundation
import TestSupport

/// A third language made at test time from `po/bok.pot` alone, to show that a language is a
/// catalogue and nothing else: `qps`, whose messages are the English in brackets (`[Commands]`)
/// and whose typed words are the English with a `q` before them (`qsearch`, and for a command a
/// second, two-word name: `qps search`), as the convention in `po/bok.pot`'s header asks.
///
/// ``environment`` points bok at a folder holding this catalogue and `po/sv.po` compiled, as
/// `BOK_LOCALEDIR`; it is made once per test run.
enum PseudoLanguage {
    /// The language's code.
    static let code = "qps"

    /// `BOK_LOCALEDIR` for a folder with the `qps` and `sv` catalogues.
    static var environment: [String: String] { ["BOK_LOCALEDIR": folder.path] }

    /// The environment for `language`: with the pseudo-language's folder for `qps`, none otherwise.
    static func environment(for language: String) -> [String: String] {
        language == code ? environment : [:]
    }

    /// The names of the command called `name` in the pseudo-language, the main one first.
    static func names(ofCommand name: String) -> [String] { ["q" + name, "qps " + name] }

    private static let folder: URL = {
        let root = ScenarioTests.root
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-qps-\(UUID().uuidString)")
        do {
            let template = try String(contentsOf: root.appendingPathComponent("po/bok.pot"), encoding: .utf8)
            let source = folder.appendingPathComponent("qps.po")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try catalogue(from: template).write(to: source, atomically: true, encoding: .utf8)
            for (language, po) in [(code, source), ("sv", root.appendingPathComponent("po/sv.po"))] {
                let messages = folder.appendingPathComponent("\(language)/LC_MESSAGES")
                try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
                let compiled = try runProgram(
                    "/usr/bin/msgfmt", ["--check", "-o", messages.appendingPathComponent("bok.mo").path, po.path])
                precondition(compiled.status == 0, "msgfmt \(po.path): \(compiled.output)")
            }
        } catch {
            preconditionFailure("the pseudo-language's catalogue: \(error)")
        }
        return folder
    }()

    /// `qps.po` from the template: every message translated.
    static func catalogue(from template: String) -> String {
        var out = [
            #"msgid """#, #"msgstr """#, #""Language: qps\n""#, #""Content-Type: text/plain; charset=UTF-8\n""#,
            #""Content-Transfer-Encoding: 8bit\n""#, #""Plural-Forms: nplurals=2; plural=(n != 1);\n""#, "",
        ]
        for block in template.components(separatedBy: "\n\n") {
            var fields: [String: String] = [:]
            var field = ""
            for line in block.split(separator: "\n") where !line.hasPrefix("#") {
                if line.hasPrefix("\"") {
                    fields[field, default: ""] += unquote(line)
                } else if let space = line.firstIndex(of: " ") {
                    field = String(line[..<space])
                    fields[field] = unquote(line[space...])
                }
            }
            guard let message = fields["msgid"], !message.isEmpty else { continue }
            let context = fields["msgctxt"]
            if let context { out.append("msgctxt \(quote(context))") }
            out.append("msgid \(quote(message))")
            if let plural = fields["msgid_plural"] {
                out += [
                    "msgid_plural \(quote(plural))", "msgstr[0] \(quote(translate(message, context: context)))",
                    "msgstr[1] \(quote(translate(plural, context: context)))",
                ]
            } else {
                out.append("msgstr \(quote(translate(message, context: context)))")
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    /// A message in the pseudo-language.
    static func translate(_ message: String, context: String?) -> String {
        switch context {
        case "typed: command"?: return names(ofCommand: message).joined(separator: ", ")
        case let context? where context.hasPrefix("typed: "): return "q" + message.filter { $0 != " " }
        case "locale"?: return "en_GB"
        case "quotation mark"?: return message == "“" ? "«" : "»"
        default:
            // Spaces and line ends stay outside the brackets, where the layout expects them.
            let body = message.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !body.isEmpty, let start = message.range(of: body) else { return message }
            return message[..<start.lowerBound] + "[" + body + "]" + message[start.upperBound...]
        }
    }

    private static func unquote(_ text: Substring) -> String {
        var out = ""
        var escaped = false
        for character in text.drop(while: { $0 != "\"" }).dropFirst().dropLast() {
            if escaped {
                out.append(["n": "\n", "t": "\t"][character] ?? character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    private static func quote(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t")
        return "\"" + escaped + "\""
    }
}
