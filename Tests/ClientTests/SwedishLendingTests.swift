import Catalog
import Foundation
import Localization
import Testing

@testable import Client
@testable import Shelf

/// Borrowing, reserving, the shelf and downloads in Swedish, as a patron with `LANG=sv_SE` reads
/// them: whole sentences in Swedish, Swedish command names in the advice, and no machinery.
@Suite("Lending in Swedish", .serialized)
@MainActor
struct SwedishLendingTests {
    func swedish() { Localization.use("sv", environment: [:]) }
    func english() { Localization.use("en", environment: [:]) }

    @Test("A queue, a reservation that is not a loan and a book already borrowed are said in Swedish")
    func queuesAndLoans() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1003"], secrets: ["3456"])
        swedish()
        defer { english() }
        await h.run("sök thriller")
        await h.run("mock clock +2d")
        let list = await h.run("reservationer")
        #expect(list.contains { $0.contains("Numren gäller nu de här reservationerna.") }, "\(list)")
        #expect(
            await h.text("återlämna 2").contains("är reserverad, inte lånad: avboka 2 lämnar kön."))
        let queued = await h.text("låna 2")
        #expect(queued.contains("väntar inte på dig än: du är nr "), "\(queued)")
        #expect(queued.hasSuffix("reservationer visar när den går att låna."), "\(queued)")
        let borrowed = await h.text("låna 1")
        #expect(borrowed.hasPrefix("Lånade ”Vintern 1953”."), "\(borrowed)")
        let again = await h.text("låna 1")
        #expect(again.hasPrefix("Du har redan lånat ”Vintern 1953”, åter "), "\(again)")
        #expect(again.hasSuffix("läs 1 öppnar den."), "\(again)")
        #expect(
            await h.text("låna 99")
                == "Ingen reservation nummer 99 i listan (det finns 2). Skriv reservationer för att se dem.")
    }

    @Test("At the monthly limit, borrow and reserve say when new loans start, and the to-be-read list, in Swedish")
    func monthlyLimit() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1004"], secrets: ["4567"])
        await h.run("top 1")
        #expect(await h.text("borrow 1").hasPrefix("Borrowed"))
        let top = await h.run("search thriller")
        let limited = hitLines(top).filter { $0.line.hasPrefix("✗ your 5 loans this month are used") }
        let n = try #require(limited.last?.number, "\(top)")
        swedish()
        defer { english() }
        let borrow = await h.text("låna \(n)")
        #expect(borrow.hasPrefix("Kan inte låna ”"), "\(borrow)")
        #expect(borrow.contains(": dina 5 lån för den här månaden är slut. Nya lån från "), "\(borrow)")
        #expect(borrow.hasSuffix("; läslista add \(n) sparar den på din läslista tills dess."), "\(borrow)")
        let reserve = await h.text("reservera \(n)")
        #expect(reserve.contains("är inte utlånad, så det finns ingen kö att ställa sig i: dina 5 lån"), "\(reserve)")
        let added = await h.text("läslista add \(n)")
        #expect(added.hasPrefix("La till ”") && added.hasSuffix("på din läslista (1 bok)."), "\(added)")
        #expect(
            await h.text("läslista rm 7")
                == "Ingen bok nummer 7 på läslistan (det finns 1). Skriv läslista för att se den.")
    }

    @Test("A damaged download while borrowing says, in Swedish, what happened and to type läs N; no checksums")
    func damagedDownload() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        await h.run("top 1")
        let title = try #require(h.session.lists.list?.byNumber[1]?.title)
        await h.run("mock fault corrupt-books")
        swedish()
        defer { english() }
        let screen = await h.run("låna 1")
        #expect(screen.first?.hasPrefix("Lånade ”\(title)”.") == true, "\(screen)")
        #expect(
            screen.contains(
                "Nedladdningen av ”\(title)” skadades på vägen, två gånger; inget sparades. "
                    + "Skriv läs 1 för att hämta den igen."),
            "\(screen)")
        #expect(!screen.joined().contains("SHA") && !screen.joined().contains("HTTP"), "\(screen)")
    }

    @Test("Download and shelf errors in Swedish keep the technical detail out of the message")
    func downloadErrors() {
        swedish()
        defer { english() }
        let stalled = DownloadError(
            .network, path: "/home/a/.local/share/bok/books/1.epub", detail: "curl: (28) Operation timed out",
            reason: tr("the library did not answer within {seconds} s", ["seconds": 30]))
        #expect(
            stalled.about(book: "”Boken”", retry: tr("read {number}", ["number": 3])).description
                == "Nedladdningen av ”Boken” avbröts: biblioteket svarade inte inom 30 s. "
                + "Skriv läs 3 för att fortsätta där den slutade.")
        let server = DownloadError(.server, path: "/tmp/1.epub", detail: "HTTP 503")
        #expect(server.description == "Biblioteket kunde inte skicka boken just nu. Försök igen senare.")
        let full = ShelfError.cannotSave("/home/a/shelf.sqlite", diskFull: false, detail: "permission denied")
        #expect(full.description.hasPrefix("bok kan inte spara till /home/a/shelf.sqlite (åtkomst nekad)."))
    }
}
