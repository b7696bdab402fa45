import Foundation
import Testing

@testable import Client

@Suite("Questions a command asks", .serialized)
struct PromptTests {
    @Test("Ctrl-C at “Library card number:” cancels the command, and the next line is a command again")
    func cardPromptCancels() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-prompt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        // The test runner may start processes with SIGINT blocked or ignored; bok at a terminal never is.
        let script = """
            import signal
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
            signal.signal(signal.SIGINT, signal.SIG_DFL)

            """ + patronScriptPrelude + """

                until("> ")
                type("login"); until("card number: ")
                time.sleep(0.3)
                os.write(fd, b"10"); time.sleep(0.3)
                os.write(fd, b"\\x03"); until("nothing was done", 10)
                type("help whoami"); until("whoami", 5); time.sleep(0.5)
                type("quit"); until("\\x00", 3)
                sys.stdout.buffer.write(out[0])
                """
        let screen = try await runPatronScript(script, binary: PINSafetyTests.binary, home: home)
        #expect(screen.contains("No card number given; nothing was done."), "\(screen.suffix(1500))")
        // The line typed after Ctrl-C ran as a command, not as a card number.
        #expect(!screen.contains("is not a library card number"), "\(screen.suffix(1500))")
        #expect(screen.contains("Your card, your name"), "\(screen.suffix(1500))")
    }

    @Test("Arguments are checked before any prompt: borrow abc while logged out asks for nothing")
    @MainActor
    func argumentsFirst() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        h.session.account.prompt = prompt
        for line in ["borrow abc", "reserve abc", "return abc", "cancel abc", "borrow 1 2"] {
            let screen = await h.run(line)
            #expect(
                screen.count == 1
                    && (screen.first?.contains("neither a result number nor a product id") == true
                        || screen.first?.hasPrefix("Usage:") == true),
                "\(line): \(screen)")
        }
        #expect(prompt.asked.isEmpty, "\(prompt.asked)")
    }
}
