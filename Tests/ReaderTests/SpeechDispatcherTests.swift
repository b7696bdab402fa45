import Foundation
import Speech
import TestSupport
import Testing

@testable import Reader

/// Reading aloud through a real speech-dispatcher (Debian's), whose test voice writes down what
/// it is asked to say: the sentence marked on screen is the one being said, each passage in its
/// own language, and pause, resume and stop reach the server.
@Suite("Reading aloud through speech-dispatcher", .serialized)
struct SpeechDispatcherTests {
    static func withServer(pause: Double = 0.3, _ body: (SpeechDispatcherServer) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-spd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = try SpeechDispatcherServer.start(in: folder, pause: pause)
        let server = try #require(started, "speech-dispatcher: scripts/install-test-tools.sh")
        defer { server.stop() }
        setenv("SPEECHD_ADDRESS", server.address, 1)
        defer { unsetenv("SPEECHD_ADDRESS") }
        try await body(server)
    }

    static func session() throws -> ReaderSession {
        var builder = EPUBBuilder(chapters: [
            .init(
                "one.xhtml", "Ett",
                "<p>Huset låg vid havet. Hon läste böcker om kvällarna.</p>"
                    + "<p><span xml:lang=\"en\">The sea was calm that night.</span></p><p>Sedan sov hon.</p>")
        ])
        builder.language = "sv"
        var session = ReaderSession(book: try builder.open(), store: InMemoryPositionStore(), columns: 60, rows: 20)
        session.speechChoice = .speechd
        return session
    }

    @Test("Each sentence is one message in its passage's language, and the marked one is the one being said")
    func sentencesInOrder() async throws {
        try await Self.withServer { server in
            var session = try Self.session()
            session.toggleReadingAloud()
            #expect(session.message?.contains("speech-dispatcher") == true, "\(session.message ?? "")")
            // While each message is being said (0.3 s), the sentence marked is that message.
            var matched = Set<String>()
            for _ in 0..<200 {
                if let spoken = session.aloud?.spoken, let last = server.messages.last {
                    let marked = session.content.document(at: spoken.spineIndex).text(in: spoken.sentence)
                    if marked == last.text { matched.insert(marked) }
                }
                if session.aloud?.phase == .stopped { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let said = server.messages
            #expect(
                said.map(\.text) == [
                    "Huset låg vid havet.", "Hon läste böcker om kvällarna.", "The sea was calm that night.",
                    "Sedan sov hon.",
                ], "\(said)")
            #expect(said.map(\.language) == ["sv", "sv", "en", "sv"], "\(said)")
            #expect(said.allSatisfy { $0.rate == "0" || $0.rate.hasPrefix("0.") }, "the user's own rate: \(said)")
            #expect(matched.count == 4, "every sentence was marked while it was said: \(matched)")
            #expect(session.aloud?.finishedBook == true)
        }
    }

    @Test("Esc stops at once: nothing more is said; a chosen rate is passed on")
    func stopAndRate() async throws {
        try await Self.withServer(pause: 1) { server in
            var session = try Self.session()
            session.setSpeech { $0.speechRate = 450 }
            session.toggleReadingAloud()
            for _ in 0..<100 where server.messages.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            session.stopReadingAloud()
            try await Task.sleep(for: .milliseconds(1_500))
            #expect(server.messages.count == 1, "\(server.messages)")
            #expect(server.messages.first?.rate.hasPrefix("100") == true, "\(server.messages)")
        }
    }
}
