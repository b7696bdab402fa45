import ArgumentParser
import Foundation
import Localization
import SafeOutput
import TextSafety

/// `bok study run|note|watch|report|replay`: usability studies with participants (docs/studies.md) — a
/// study file's tasks sat and recorded, noted and watched live from a second terminal, every participant
/// summed up (two runs side by side), a recording played back (issue 33).
struct StudyCommand: ParsableCommand, Invocation {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "study",
            abstract: tr(
                "Usability studies: run a study with a participant, note and watch it live, "
                    + "report on every participant, compare two runs, play a session back."),
            usage: usage,
            discussion: tr("See docs/studies.md for the study file and a study from start to finish."),
            subcommands: [Run.self, Note.self, Watch.self, Report.self, Replay.self]
        )
    }
    static let usage =
        """
        bok study run FILE --participant P [--out DIR] [--library NAME|URL] [--kind elib|opds] | \
        bok study note TEXT | bok study watch | \
        bok study report DIR [DIR_B] [--format md|csv|json] [--out FILE] | \
        bok study replay RECORDING [--speed X] [--skip-idle SECONDS] [--asciicast FILE.cast]
        """
    static let replayUsage = "bok study replay RECORDING [--speed X] [--skip-idle SECONDS] [--asciicast FILE.cast]"

    @MainActor
    func execute(environment: [String: String], printer: any Printer) async -> Int32 {
        ErrorReport.report(UserError.usage(tr("Usage: {usage}", ["usage": Self.usage])), printer: printer)
    }

    /// `bok study frobnicate`: the word, and the usage.
    static func unknown(_ verb: String) -> UserError {
        UserError.usage(
            tr("Unknown study command \"{verb}\".", ["verb": SafeText.line(verb)]) + " "
                + tr("Usage: {usage}", ["usage": usage]))
    }

    struct Replay: ParsableCommand, Invocation {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: tr(
                    "Play a recording (bok --record FILE) back at its pace, or export it as an asciicast v2 file."),
                usage: StudyCommand.replayUsage,
                discussion: tr(
                    "The prompt, what was typed and what was shown come back when they happened, PINs as ••••. "
                        + "--skip-idle shortens every pause longer than SECONDS (2 by default) to it. "
                        + "--asciicast FILE.cast writes the session for asciinema play and asciinema's web player "
                        + "instead of playing it."))
        }
        @ParentCommand var bok: BokCommand
        @Argument(
            help: ArgumentHelp(tr("A recording made with bok --record FILE."), valueName: "RECORDING"),
            completion: .file(extensions: ["jsonl"]))
        var recording: String
        @Option(help: ArgumentHelp(tr("Play this many times faster (0.1 to 100)."), valueName: "X"))
        var speed: Double = 1
        @Option(
            name: .customLong("skip-idle"),
            help: ArgumentHelp(tr("Shorten pauses longer than this to it."), valueName: "SECONDS"))
        var skipIdle: Double = 2
        @Option(
            help: ArgumentHelp(tr("Write an asciicast v2 file instead of playing."), valueName: "FILE.cast"),
            completion: .file(extensions: ["cast"]))
        var asciicast: String?

        @MainActor
        func execute(environment: [String: String], printer: any Printer) async -> Int32 {
            do {
                guard (0.1...100).contains(speed) else {
                    throw UserError.usage(tr("--speed takes a number from 0.1 to 100, e.g. --speed 2."))
                }
                guard skipIdle > 0 else {
                    throw UserError.usage(tr("--skip-idle takes a number of seconds above 0, e.g. --skip-idle 2."))
                }
                let playback = RecordingPlayback(try Recording.read(file: recording))
                if let asciicast {
                    let file = try OutputFile(path: asciicast, name: "asciicast", replace: true)
                    var text = playback.asciicast(speed: speed, idleLimit: skipIdle)
                    try text.withUTF8 { bytes throws in try file.append(UnsafeRawBufferPointer(bytes)) }
                    try file.commit()
                    printer.err(tr("Wrote {file}: asciinema play {file} plays it.", ["file": file.path]))
                    return 0
                }
                var shown = 0.0
                for frame in playback.timed(speed: speed, idleLimit: skipIdle) {
                    if frame.time > shown {
                        try await Task.sleep(for: .seconds(frame.time - shown))
                        shown = frame.time
                    }
                    printer.document(frame.text)
                }
                return 0
            } catch is CancellationError {
                return 130
            } catch {
                return ErrorReport.report(error, printer: printer)
            }
        }
    }
}
