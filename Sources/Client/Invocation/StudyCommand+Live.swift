import ArgumentParser
import Foundation
import Localization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StudyCommand {
    /// `bok study note TEXT`: the moderator's note, from a second terminal, into the running sitting.
    struct Note: ParsableCommand, Invocation {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: tr("Add a note to the running study's recording, on the task under way."),
                usage: "bok study note TEXT",
                discussion: tr(
                    "Run it in a second terminal while bok study run goes on in the first. The note is timestamped, "
                        + "kept with the task the participant is doing, and listed by bok study report; "
                        + "the participant does not see it."))
        }
        @ParentCommand var bok: BokCommand
        @Argument(help: ArgumentHelp(tr("What you noticed, e.g. \"hesitated at PIN\"."), valueName: "TEXT"))
        var words: [String] = []

        @MainActor
        func execute(environment: [String: String], printer: any Printer) async -> Int32 {
            do {
                let text = words.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
                guard !text.isEmpty else {
                    throw UserError.usage(tr("Give the note to add, e.g. bok study note \"hesitated at PIN\"."))
                }
                let fd = try StudyCommand.reachStudy(environment: environment)
                defer { close(fd) }
                let line = "note " + text.replacing(/[\r\n]+/, with: " ") + "\n"
                guard StudyRendezvous.send(fd, Array(line.utf8)), let reply = StudyRendezvous.readLine(fd) else {
                    throw StudyCommand.noStudy
                }
                let fields = reply.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard fields.count >= 3, fields[0] == "noted" else { throw StudyCommand.noStudy }
                let task = fields[2]
                printer.out(
                    task.isEmpty
                        ? tr("Noted for {participant}, between tasks.", ["participant": fields[1]])
                        : tr("Noted for {participant}, task “{task}”.", ["participant": fields[1], "task": task]))
                return 0
            } catch {
                return ErrorReport.report(error, printer: printer)
            }
        }
    }

    /// `bok study watch`: the participant's screen, live and read-only, in the moderator's terminal.
    struct Watch: ParsableCommand, Invocation {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: tr("Follow the running study's screen live, read-only."),
                usage: "bok study watch",
                discussion: tr(
                    "Shows what the participant's screen has shown so far, then each command and its answer as it "
                        + "comes, from the recording (PINs as ••••). It ends when the sitting ends; Ctrl-C stops "
                        + "watching and leaves the study running."))
        }
        @ParentCommand var bok: BokCommand

        @MainActor
        func execute(environment: [String: String], printer: any Printer) async -> Int32 {
            do {
                let fd = try StudyCommand.reachStudy(environment: environment)
                defer { close(fd) }
                guard StudyRendezvous.send(fd, Array("watch\n".utf8)), let header = StudyRendezvous.readLine(fd)
                else { throw StudyCommand.noStudy }
                let fields = header.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard fields.count >= 3, fields[0] == "watching" else { throw StudyCommand.noStudy }
                printer.err(
                    tr(
                        "Watching {participant} in {study}, read-only. Ctrl-C stops watching; the study goes on.",
                        ["participant": fields[1], "study": fields[2]]))
                // The answers are long waits on a socket: off the main actor.
                let frames = AsyncStream<String> { continuation in
                    Thread.detachNewThread {
                        StudyCommand.readFrames(fd) { continuation.yield($0) }
                        continuation.finish()
                    }
                }
                for await frame in frames { printer.document(frame) }
                printer.err(tr("The sitting of {participant} has ended.", ["participant": fields[1]]))
                return 0
            } catch {
                return ErrorReport.report(error, printer: printer)
            }
        }
    }

    /// What `study note` and `study watch` say when no study answers.
    static var noStudy: UserError {
        UserError(
            tr(
                "No study is running for you on this machine. Start one with bok study run FILE --participant P, "
                    + "then note or watch from another terminal."))
    }

    /// A connection to the running study's socket.
    static func reachStudy(environment: [String: String]) throws -> Int32 {
        guard let folder = try StudyRendezvous.folder(environment: environment, create: false),
            let fd = StudyRendezvous.connect(StudyRendezvous.socket(in: folder))
        else { throw noStudy }
        return fd
    }

    /// Each moment of the screen (up to its NUL) as it arrives, until the other end closes.
    static func readFrames(_ fd: Int32, _ frame: (String) -> Void) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            pending += buffer[0..<n]
            while let end = pending.firstIndex(of: StudyLiveServer.frameEnd) {
                frame(String(decoding: pending[..<end], as: UTF8.self))
                pending.removeSubrange(...end)
            }
        }
    }
}
