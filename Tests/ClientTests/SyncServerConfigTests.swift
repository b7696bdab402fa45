import Foundation
import Testing

@testable import Client

/// `[sync NAME]` sections of the config file, beside the libraries, and the KOReader keys of the
/// credentials file: read whole, mistakes said in one line with their place.
struct SyncServerConfigTests {
    @Test("A [sync NAME] section is read beside the libraries; each mistake is one line naming its place")
    func sections() throws {
        let text = """
            use = home
            [library home]
            url = http://127.0.0.1:8080/opds
            kind = opds
            [sync reader]
            kind = kosync
            url = http://127.0.0.1:8080/kosync
            user = elsa
            [library malmo]
            url = https://elib.example.org/library/v3.0/
            """
        let profiles = try LibraryProfiles.parse(text, fileName: "config")
        #expect(profiles.named.compactMap(\.profile) == ["home", "malmo"])
        let server = try #require(profiles.syncServers.first)
        #expect(profiles.syncServers.count == 1 && server.name == "reader" && server.kind == .kosync)
        #expect(server.url.absoluteString == "http://127.0.0.1:8080/kosync/" && server.user == "elsa")

        func refusal(_ text: String) -> String {
            let error = #expect(throws: UserError.self) { try LibraryProfiles.parse(text, fileName: "config") }
            return error?.message ?? ""
        }
        #expect(
            refusal("[sync reader]\nkind = calibre\n")
                == "config:2: a sync server's kind is kosync (KOReader's progress sync), not \"calibre\".")
        #expect(refusal("[sync reader]\nkind = kosync\nuser = elsa\n").hasPrefix("config:1: [sync reader] needs kind"))
        #expect(refusal("[sync reader]\npassword = x\n").contains("Keys are kind, url and user."))
        #expect(refusal("[sync reader]\nuser = a:b\n").contains("without a colon"))
        let twice = "[sync a]\nkind = kosync\nurl = http://h/\nuser = u\n[sync a]\n"
        #expect(refusal(twice).contains("a second sync server called \"a\""))
    }

    @Test("A KOReader key is kept for one server and user, beside the card and catalogue logins")
    func keys() throws {
        let folder = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CredentialStore(file: folder.appendingPathComponent("credentials"))
        let server = try #require(URL(string: "http://127.0.0.1:8080/kosync/"))
        try store.save(CredentialStore.CatalogueLogin(user: "elsa", password: "lösen"), for: server)
        try store.saveKosyncKey("1a2806367d23c7884dfde273882ad6a9", for: server, user: "elsa")
        #expect(try store.kosyncKey(for: server, user: "elsa") == "1a2806367d23c7884dfde273882ad6a9")
        #expect(try store.kosyncKey(for: URL(string: "http://127.0.0.1:8080/kosync")!, user: "elsa") != nil)
        #expect(try store.kosyncKey(for: server, user: "bo") == nil)
        #expect(try store.kosyncKey(for: URL(string: "http://127.0.0.1:9090/kosync")!, user: "elsa") == nil)
        #expect(try store.catalogueLogin(for: server)?.password == "lösen", "the catalogue's login stays")
        #expect(store.forgetKosyncKey(for: server, user: "elsa"))
        #expect(try store.kosyncKey(for: server, user: "elsa") == nil)
        #expect(try store.catalogueLogin(for: server)?.password == "lösen")
    }
}
