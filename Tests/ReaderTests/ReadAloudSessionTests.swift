import Foundation
import Testing

@testable import Reader

/// Reading aloud in a session, without a terminal: from a chosen paragraph, and not past the
/// end of a loan. Needs eSpeak NG's data; there is no sound device here, so the voice is paced
/// silently at the speed it would be heard.
@Suite(
    .serialized,
    .enabled(
        if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/espeak-ng-data/sv_dict"),
        "needs eSpeak NG's voice data"))
struct ReadAloudSessionTests {
    final class Clock {
        var seconds = 1_000.0
    }

    static func session(clock: Clock) throws -> ReaderSession {
        let paragraphs = (1...12).map { "<p>Stycke \($0) börjar här. Det slutar strax efter.</p>" }.joined()
        let book = try EPUBBuilder(chapters: [.init("one.xhtml", "Ett", paragraphs)]).open()
        var session = ReaderSession(
            book: book, store: InMemoryPositionStore(), columns: 60, rows: 20, now: { clock.seconds })
        session.setSpeech { $0.speechRate = 450 }
        return session
    }

    /// Waits (a bounded time) until the voice has reached a sentence.
    static func firstSpoken(_ session: ReaderSession) async -> AloudPlayer.Spoken? {
        for _ in 0..<200 {
            if let spoken = session.aloud?.spoken { return spoken }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    @Test func readingStartsAtTheChosenParagraph() async throws {
        var session = try Self.session(clock: Clock())
        let targets = session.highlightTargets()
        let chosen = try #require(targets.first { $0.text.hasPrefix("Stycke 4 ") })
        session.readAloud(from: chosen)
        #expect(session.isReadingAloud)
        let spoken = try #require(await Self.firstSpoken(session))
        #expect(
            session.content.document(at: spoken.spineIndex).text(in: spoken.sentence).hasPrefix("Stycke 4 börjar"),
            "the voice starts at the chosen paragraph, not the top of the page")
        session.stopReadingAloud()
        #expect(!session.isReadingAloud)
    }

    @Test func readingAloudStopsWhenTheLoanEnds() async throws {
        let clock = Clock()
        var session = try Self.session(clock: clock)
        session.loanEnds = clock.seconds + 3_600
        session.toggleReadingAloud()
        #expect(session.isReadingAloud)
        #expect(await Self.firstSpoken(session) != nil)
        _ = session.followReadingAloud()
        #expect(session.isReadingAloud, "an hour before the end it reads on")

        clock.seconds += 3_601
        let changed = session.followReadingAloud()
        #expect(changed)
        #expect(!session.isReadingAloud)
        #expect(session.message?.contains("loan has ended") == true, "\(session.message ?? "")")

        session.toggleReadingAloud()
        #expect(!session.isReadingAloud, "an ended loan is not read aloud again")
        #expect(session.message?.contains("borrow it again") == true, "\(session.message ?? "")")
    }
}
