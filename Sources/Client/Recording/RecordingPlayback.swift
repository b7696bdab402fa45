import Foundation
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
        var widest = 0
        for event in events {
            switch event.event {
            case .start:
                let header = SafeText.guardingOutput(
                    [event.bok.map { "bok " + $0 }, event.library].compactMap { $0 }.joined(separator: " · "))
                if !header.isEmpty { add(event.date, header + "\r\n") }
            case .marker where event.instruction != nil:
                // A study's task begins (bok study run): the participant saw its title and instruction.
                let text = ["", event.task ?? "", "  " + (event.instruction ?? "")].map(SafeText.guardingOutput)
                widest = max(widest, text.map(DisplayWidth.of).max() ?? 0)
                add(event.date, text.map { $0 + "\r\n" }.joined())
            case .command, .marker, .note:
                let line = SafeText.guardingOutput(event.line ?? "")
                add(event.date.map { $0.addingTimeInterval(-(event.think ?? 0)) }, prompt)
                add(event.date, line + "\r\n")
                let shown = (event.shown ?? []).map(SafeText.guardingOutput)
                widest = max(widest, DisplayWidth.of(prompt + line), shown.map(DisplayWidth.of).max() ?? 0)
                if !shown.isEmpty {
                    add(
                        event.date.map { $0.addingTimeInterval(event.seconds ?? 0) },
                        shown.map { $0 + "\r\n" }.joined())
                }
            case .end:
                add(event.date, "")
            case .sus:
                break
            }
        }
        self.frames = frames
        width = max(80, min(widest, 250))
        started = events.first?.date
        title = "bok · " + library + " · " + ((recording.file as NSString).lastPathComponent)
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
