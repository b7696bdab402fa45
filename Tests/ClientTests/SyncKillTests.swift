#if canImport(Glibc)
import Catalog
import Foundation
import GRDB
import Glibc
import Reader
import ReadingState
import Shelf
import Terminal
import TestSupport
import Testing

/// The offline queue against `kill -9` (issue 30): bookmarks, highlights, notes and a reading
/// place made on one machine, and `bok sync now` killed 60 times at seeded random moments, some
/// before it connects, some in the middle of an exchange with calibre, some just after; then one
/// `sync now` to its end, and calibre holds every change exactly once, the last edit of each,
/// no deleted one, and the shelf is intact with nothing waiting.
///
/// calibre answers on loopback in a few milliseconds, so the test talks to it through a proxy
/// that holds every chunk 40 ms each way (as a slow network would): exchanges last long enough
/// for kills to land inside them. A whole `sync now` then takes 250–440 ms, and the kills are
/// spread over 0–1.1 times that; every third run, a change is made while it runs. On 29 Nov 2026
/// (2 cores shared with two builders, load about 3), seed 9 landed 6 kills before bok connected,
/// 36 in the middle of an exchange, 4 between or just after exchanges and 14 once bok had ended by
/// itself (another run: 10, 41, 2 and 7; where a kill lands depends on the load, what is made
/// does not); seeds 1, 2, 3 and 5 landed 6–14, 23–43, 3–11 and 0–28. The test fails if fewer than 10
/// land in the middle of an exchange. `BOK_KILL_SEED=N` runs another seed.
@Suite(
    "Sync killed with kill -9, through calibre", .serialized,
    .enabled(if: CalibreServer.isInstalled && access("/dev/ptmx", R_OK | W_OK) == 0, "needs calibre and /dev/ptmx"))
struct SyncKillTests {
    @Test("60 kill -9 during sync now: every change on calibre once, the last edit, no deleted one; nothing waits")
    func sixtyKills() async throws {
        let server = try await CalibreServer.start(
            books: [.init(title: "Sjön", author: "Eva Öst", language: "sv", paragraphs: 30)], user: ("elsa", "hemligt"))
        defer { server.stop() }
        let proxy = try SlowProxy(upstream: server.port, delay: 0.04)
        defer { proxy.stop() }
        // The machine: logged in (remembered, for one-shot sync now), the book got and opened once.
        let laptop = try await Laptop(root: proxy.root, remember: true)
        defer { laptop.close() }
        _ = await laptop.command("read 1") { Ansi.strip($0).contains("Stycke") }
        laptop.tty.type("q")
        _ = await laptop.tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
        laptop.tty.type("quit\r")
        #expect(await laptop.bok.waitForExit(seconds: 10))
        let shelf = laptop.home.appendingPathComponent("data/bok/shelf.sqlite")
        let store = ShelfStore(database: try ShelfDatabase.open(at: shelf))
        let synced = try #require(try store.syncedBooks().first, "the book got from calibre syncs")
        let content = BookContent(book: try EPUBBook.open(path: try #require(synced.file)))
        var machine = Changes(store: store, book: synced.book, content: content)

        var random = SeededRandom(seed: UInt64(ProcessInfo.processInfo.environment["BOK_KILL_SEED"] ?? "") ?? 9)
        // One run to its end first: how long a sync now with changes waiting takes.
        for _ in 0..<3 { try machine.change(&random) }
        let began = Date()
        let first = try await BokProcess.run(["sync", "now"], home: laptop.home)
        let whole = Date().timeIntervalSince(began)
        #expect(first.status == 0 && first.output.contains("Synced."), "\(first.output)")

        var phases: [Phase: Int] = [:]
        for kill in 0..<60 {
            if kill % 2 == 0 {
                for _ in 0...random.next(3) { try machine.change(&random) }
            }
            // Spread over the whole run and a little past it; every third run, a change is made
            // while it runs (the reader open in another terminal).
            let delay = random.next(Int(whole * 1100))
            let meanwhile = kill % 3 == 1 ? random.next(delay + 1) : delay
            let before = proxy.state.connections
            let bok = try BokProcess.start(["sync", "now"], home: laptop.home)
            try await Task.sleep(for: .milliseconds(meanwhile))
            if meanwhile < delay { try machine.change(&random) }
            try await Task.sleep(for: .milliseconds(delay - meanwhile))
            let phase = Self.kill(bok, proxy: proxy, connectionsBefore: before)
            phases[phase, default: 0] += 1
        }
        print("SyncKillTests: a whole sync now took \(Int(whole * 1000)) ms; kills landed \(phases)")
        #expect(phases[.midExchange, default: 0] >= 10, "kills landed \(phases)")

        // Then one sync now to its end.
        let last = try await BokProcess.run(["sync", "now"], home: laptop.home)
        #expect(last.status == 0 && last.output.contains("Synced."), "\(last.output)")
        #expect(!last.output.contains("wait"), "nothing waits: \(last.output)")

        let link = try #require(synced.link, "kept on calibre")
        let calibre = CalibreSync(user: "elsa", password: "hemligt")
        let remote = try await calibre.annotations(of: link)
        let keys = Dictionary(grouping: remote, by: { "\($0.kind) \($0.key)" })
        #expect(keys.values.allSatisfy { $0.count == 1 }, "duplicated: \(keys.filter { $0.value.count > 1 }.keys)")
        let live = Set(
            remote.filter { !$0.removed }.map {
                "\($0.kind) \($0.key) \($0.note ?? "-") \($0.kind == .highlight ? Self.color($0.color) : "-")"
            })
        #expect(machine.count > 40 && machine.made.count > 5, "the rounds made something to compare: \(machine.made)")
        #expect(
            live == machine.expected,
            "lost \(machine.expected.subtracting(live)) unexpected \(live.subtracting(machine.expected))")
        let deleted = Set(remote.filter(\.removed).map { "\($0.kind) \($0.key)" })
        #expect(
            machine.deleted.isSubset(of: deleted), "deletions calibre lacks: \(machine.deleted.subtracting(deleted))")
        #expect(try Self.held(store, synced.book) == machine.expected, "the shelf holds what was made")
        let places = try await calibre.positions(of: link).filter { $0.device == "laptop" }
        #expect(
            places.count == 1 && places.first?.cfi == machine.place?.cfi,
            "\(places) \(String(describing: machine.place))")
        #expect(try store.pendingAnnotationCount() == 0 && store.syncCounts().waiting == 0, "nothing waits")
        let check = try await ShelfDatabase.open(at: shelf).writer.read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check")
        }
        #expect(check == ["ok"], "\(check)")
    }

    /// Where `bok sync now` was when it was killed.
    enum Phase: String, CustomStringConvertible {
        case beforeConnecting, midExchange, betweenExchanges, ended
        var description: String { rawValue }
    }

    /// Kills `bok` with SIGKILL: where it was then.
    static func kill(_ bok: BokProcess, proxy: SlowProxy, connectionsBefore: Int) -> Phase {
        let now = proxy.state
        let running = bok.process.isRunning
        if running { Glibc.kill(bok.process.processIdentifier, SIGKILL) }
        _ = bok.finish()
        if !running { return .ended }
        if now.connections == connectionsBefore { return .beforeConnecting }
        return now.busy ? .midExchange : .betweenExchanges
    }

    /// calibre's colour name as bok's.
    static func color(_ name: String?) -> String { name == "red" ? "pink" : name ?? "yellow" }

    /// What the shelf holds, in the form of `Changes.expected`.
    static func held(_ store: ShelfStore, _ book: BookID) throws -> Set<String> {
        Set(
            try store.localAnnotations(of: book).filter { !$0.removed }.map {
                "\($0.kind) \($0.key) \($0.note ?? "-") \($0.color?.rawValue ?? "-")"
            })
    }
}

/// Random changes, as the reader makes them, and what calibre must hold after them.
struct Changes {
    let store: ShelfStore
    let book: BookID
    let content: BookContent
    /// Each live bookmark and highlight by its key on the server: its note and colour.
    var made: [String: String] = [:]
    /// Keys deleted (never made again: every bookmark's words differ).
    var deleted = Set<String>()
    /// The last place queued.
    var place: PendingPositionRecord?
    var count = 0

    var expected: Set<String> { Set(made.map { "\($0.key) \($0.value)" }) }

    mutating func change(_ random: inout SeededRandom) throws {
        count += 1
        let length = content.plainText(at: 0).utf16.count
        let highlights = try store.highlights(bookID: book)
        let bookmarks = try store.bookmarks(bookID: book)
        switch random.next(7) {
        case 2 where !highlights.isEmpty:
            var highlight = highlights[random.next(highlights.count)]
            highlight.note = "ändrad \(count)"
            highlight.color = HighlightColor.allCases[random.next(HighlightColor.allCases.count)]
            try store.saveHighlight(highlight, bookID: book)
            made["highlight \(highlight.id.uuidString)"] = "\(highlight.note ?? "-") \(highlight.color.rawValue)"
        case 3 where !highlights.isEmpty:
            let id = highlights[random.next(highlights.count)].id
            try store.removeHighlight(id: id, bookID: book)
            made["highlight \(id.uuidString)"] = nil
            deleted.insert("highlight \(id.uuidString)")
        case 4:
            let mark = try store.addBookmark(
                Locator(spineIndex: 0, offset: random.next(length - 1), snippet: "märke \(count)"), bookID: book)
            let title = try #require(try store.localAnnotations(of: book).first { $0.uuid == mark.id.uuidString }).key
            made["bookmark \(title)"] = "- -"
        case 5 where !bookmarks.isEmpty:
            let mark = bookmarks[random.next(bookmarks.count)]
            let title = try #require(try store.localAnnotations(of: book).first { $0.uuid == mark.id.uuidString }).key
            try store.removeBookmark(id: mark.id, bookID: book)
            made["bookmark \(title)"] = nil
            deleted.insert("bookmark \(title)")
        case 6:
            // The reader closed the book somewhere: the place waits to be sent.
            let at = random.next(length - 1)
            let cfi = try #require(content.cfi(for: Locator(spineIndex: 0, offset: at), form: .calibre))
            let queued = PendingPositionRecord(
                bookID: book.rawValue, cfi: cfi.string, fraction: Double(at) / Double(length), madeAt: Date())
            try store.queuePosition(queued)
            place = queued
        default:
            let highlight = random.highlight(round: count, length: length)
            try store.saveHighlight(highlight, bookID: book)
            made["highlight \(highlight.id.uuidString)"] = "\(highlight.note ?? "-") \(highlight.color.rawValue)"
        }
    }
}

/// A TCP proxy on 127.0.0.1 in front of a loopback server that holds every chunk `delay` seconds
/// each way, as a slow network would, and says whether an exchange is under way.
final class SlowProxy: @unchecked Sendable {
    // @unchecked: the counters are behind `lock`; the rest is set once in init.
    struct State {
        /// Connections accepted so far.
        var connections = 0
        /// A request is on its way or waits for its answer, or bytes are held.
        var busy: Bool { held > 0 || awaiting > 0 }
        var held = 0
        var awaiting = 0
        var open = Set<Int32>()
        var stopped = false
    }

    let port: Int
    var root: URL { URL(string: "http://127.0.0.1:\(port)/opds")! }
    private let listener: Int32
    private let upstream: Int
    private let delay: TimeInterval
    private let lock = NSLock()
    private var counters = State()

    var state: State { lock.withLock { counters } }

    init(upstream: Int, delay: TimeInterval) throws {
        self.upstream = upstream
        self.delay = delay
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard listener >= 0, bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    func stop() {
        let open = lock.withLock { () -> Set<Int32>? in
            guard !counters.stopped else { return nil }
            counters.stopped = true
            return counters.open
        }
        guard let open else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            guard let server = RawConnection.open(port: upstream) else {
                close(client)
                continue
            }
            let admitted = lock.withLock { () -> Bool in
                guard !counters.stopped else { return false }
                counters.connections += 1
                counters.open.formUnion([client, server])
                return true
            }
            guard admitted else {
                close(client)
                close(server)
                return
            }
            let exchange = Exchange()
            Thread { [self] in pump(client, to: server, asking: true, exchange) }.start()
            Thread { [self] in pump(server, to: client, asking: false, exchange) }.start()
        }
    }

    /// One connection's two directions; the second to end closes both sockets.
    final class Exchange: @unchecked Sendable {
        // @unchecked: changed only under the proxy's lock.
        var awaiting = false
        var ended = 0
    }

    private func pump(_ from: Int32, to: Int32, asking: Bool, _ exchange: Exchange) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = read(from, &buffer, buffer.count)
            if count <= 0 { break }
            lock.withLock {
                counters.held += 1
                if asking, !exchange.awaiting {
                    exchange.awaiting = true
                    counters.awaiting += 1
                }
            }
            Thread.sleep(forTimeInterval: delay)
            let written = buffer.withUnsafeBytes { send(to, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
            lock.withLock {
                counters.held -= 1
                if !asking, exchange.awaiting {
                    exchange.awaiting = false
                    counters.awaiting -= 1
                }
            }
            if written != count { break }
        }
        shutdown(from, Int32(SHUT_RDWR))
        shutdown(to, Int32(SHUT_RDWR))
        let last = lock.withLock { () -> Bool in
            exchange.ended += 1
            guard exchange.ended == 2 else { return false }
            if exchange.awaiting {
                exchange.awaiting = false
                counters.awaiting -= 1
            }
            counters.open.subtract([from, to])
            return true
        }
        if last {
            close(from)
            close(to)
        }
    }
}
#endif
