import Foundation
import Localization
import Terminal
import TextSafety

/// A recording (`bok --record FILE`) as the screen showed it, moment by moment: for `bok study
/// replay` at the terminal, and as an asciicast v2 file that `asciinema play` and asciinema's web
/// player show.
///
/// A recording keeps what was typed and what was shown, colour removed, with PINs and passwords
/// already masked (`••••`), so every playback and export is masked too. A recording is a file
/// from anywhere: each line is guarded as bok guards its own output, so no control a file
/// carries reaches the terminal that plays it. The prompt, the typed
/// line and the answer come back at the moments they happened: the prompt when it appeared (the
/// line's time less the patron's think time), the line when Enter was pressed, the answer when
/// the command finished.
struct RecordingPlayback {
    /// What the terminal received, at seconds from the start.
    struct Frame: Sendable, Equatable {
        var time: Double
        var text: String
    }

    let frames: [Frame]
    /// Columns: 80, or the widest line shown.
    let width: Int
    let height = 24
    let started: Date?
    let title: String

    init(_ recording: Recording) {
        let events = recording.events
        let start = events.first?.date ?? Date(timeIntervalSince1970: 0)
        let library = SafeText.line(events.first { $0.event == .start }?.library ?? "bok")
        let prompt = library + "> "
        var frames: [Frame] = []
        func add(_ date: Date?, _ text: String) {
            guard let date else { return }
            // Never before the frame before: clocks and rounding must not make time run back.
            let time = max(frames.last?.time ?? 0, date.timeIntervalSince(start))
            frames.append(Frame(time: time, text: text))
        }
        for event in events {
            for (date, text) in Self.output(event, prompt: prompt) { add(date, text) }
        }
        // As wide as the widest line shown (the prompt and the typed line are two frames of one line).
        let widest = frames.map(\.text).joined().components(separatedBy: "\r\n").map(DisplayWidth.of).max() ?? 0
        self.frames = frames
        width = max(80, min(widest, 250))
        started = events.first?.date
        title = "bok · " + library + " · " + ((recording.file as NSString).lastPathComponent)
    }

    /// What the terminal received for one event, and when: the moments of a recording's screen,
    /// masked as the recording is (a study's live view, `bok study watch`, sends them as they come).
    static func output(_ event: RecordedEvent, prompt: String) -> [(date: Date?, text: String)] {
        switch event.event {
        case .start:
            let header = SafeText.guardingOutput(
                [event.bok.map { "bok " + $0 }, event.library].compactMap { $0 }.joined(separator: " · "))
            return header.isEmpty ? [] : [(event.date, header + "\r\n")]
        case .marker where event.instruction != nil:
            // A study's task begins (bok study run): the participant saw its title and instruction.
            let text = ["", event.task ?? "", "  " + (event.instruction ?? "")].map(SafeText.guardingOutput)
            return [(event.date, text.map { $0 + "\r\n" }.joined())]
        case .note where event.moderator == true:
            // The moderator's note (bok study note): never on the participant's screen.
            return []
        case .command, .marker, .note:
            let line = SafeText.guardingOutput(event.line ?? "")
            var out: [(date: Date?, text: String)] = [
                (event.date.map { $0.addingTimeInterval(-(event.think ?? 0)) }, prompt), (event.date, line + "\r\n"),
            ]
            var shown = (event.shown ?? []).map(SafeText.guardingOutput)
            if let outcome = event.outcome {
                // A study's task ended: the participant was told how.
                shown.append(tr("Task ended: {outcome}.", ["outcome": outcome.inWords]))
            }
            if !shown.isEmpty {
                out.append(
                    (event.date.map { $0.addingTimeInterval(event.seconds ?? 0) }, shown.map { $0 + "\r\n" }.joined()))
            }
            return out
        case .end:
            return [(event.date, "")]
        case .sus:
            return []
        }
    }

    /// The frames with every pause longer than `idleLimit` seconds shortened to it, and time run
    /// `speed` times faster.
    func timed(speed: Double, idleLimit: Double) -> [Frame] {
        var out: [Frame] = []
        var previous = 0.0
        var clock = 0.0
        for frame in frames {
            clock += min(frame.time - previous, idleLimit) / speed
            previous = frame.time
            out.append(Frame(time: clock, text: frame.text))
        }
        return out
    }

    /// asciicast v2: a header line, then one `[time, "o", text]` line per frame.
    func asciicast(speed: Double, idleLimit: Double) -> String {
        let header = AsciicastHeader(
            version: 2, width: width, height: height, timestamp: started.map { Int($0.timeIntervalSince1970) },
            title: title, env: ["TERM": "xterm-256color"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var lines = [String(decoding: (try? encoder.encode(header)) ?? Data(), as: UTF8.self)]
        for frame in timed(speed: speed, idleLimit: idleLimit) where !frame.text.isEmpty {
            let text = String(decoding: (try? encoder.encode([frame.text])) ?? Data("[\"\"]".utf8), as: UTF8.self)
            lines.append("[" + String(format: "%.3f", frame.time) + ", \"o\", " + text.dropFirst().dropLast() + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The first line of an asciicast v2 file.
private struct AsciicastHeader: Encodable {
    let version: Int
    let width: Int
    let height: Int
    let timestamp: Int?
    let title: String
    let env: [String: String]
}
