import Catalog
import Foundation
import Logging
import Terminal
import TestSupport
import Testing

@testable import Client

@Suite("Rendering in terminal cells")
@MainActor
struct RenderingTests {
    func session(width: Int) -> Session {
        Session(
            library: LibraryConnection(
                kind: .elib, service: UnusedService(), identity: LibraryIdentity(baseURL: "test:", serviceID: "test"),
                name: "Test", alphabet: .swedish),
            theme: Theme(caps: .plain, width: width),
            logger: Logger(label: "t", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    let products = [
        Product(
            id: "1", title: "漢字の本と東京の夜", contributors: [Contributor(firstName: "Haruki", lastName: "村上")],
            publishedDate: DayDate(year: 2020, month: 1, day: 1), categories: ["Roman"],
            availability: Availability(available: true)),
        Product(
            id: "2", title: "Cafe\u{301} Ängel", contributors: [Contributor(firstName: "Åsa", lastName: "Öberg")],
            categories: ["Poesi"], availability: Availability(available: false, reason: .product, copies: 2, waiting: 1)
        ),
        Product(
            id: "3", title: "Plain title", contributors: [Contributor(firstName: "Ann", lastName: "Berg")],
            availability: Availability(available: false, reason: .library)),
    ]

    @Test("Grid cards line up by cells with wide characters and combining marks")
    func gridAlignment() {
        let s = session(width: 90)
        let lines = s.listRenderer.grid(products.enumerated().map { ($0.offset + 1, $0.element) })
        // Three cards a row at 90 cells; the title row's second card starts at the same cell as the head row's.
        let head = lines[0]
        let titles = lines[1]
        func column(of needle: String, in line: String) -> Int? {
            guard let range = line.range(of: needle) else { return nil }
            return DisplayWidth.of(String(line[..<range.lowerBound]))
        }
        #expect(column(of: "2 ✗", in: head) == column(of: "Cafe\u{301}", in: titles))
        #expect(column(of: "3 ✗", in: head) == column(of: "Plain", in: titles))
        for line in lines { #expect(DisplayWidth.of(line) <= 90, "\(line)") }
    }

    @Test("Rows never exceed the width, and wide titles are cut by cells")
    func rowsFit() {
        let s = session(width: 40)
        let lines = s.listRenderer.rows(products.enumerated().map { ($0.offset + 1, $0.element) })
        for line in lines { #expect(DisplayWidth.of(line) <= 40, "\(line)") }
        #expect(lines[0].hasPrefix(" 1  ✓ Available · "))
        // Too narrow for the whole reason: it shortens before the title is cut.
        #expect(lines[2].hasPrefix(" 2  ✗ on loan · 1 waiting · Café"))
        let wide = session(width: 80).listRenderer.rows(
            products.enumerated().map { ($0.offset + 1, $0.element) })
        #expect(wide[2] == " 2  ✗ both copies on loan, 1 waiting · Cafe\u{301} Ängel")
    }

    @Test("Colour at a terminal: green ✓ and red ✗; none when piped")
    func colour() {
        let tty = Theme(caps: TerminalCapabilities(isTTY: true, colorDepth: .ansi256, unicode: true), width: 80)
        #expect(tty.availabilityMark(Availability(available: true)) == "\u{1B}[32m✓ Available\u{1B}[0m")
        #expect(tty.availabilityMark(Availability(available: false, reason: .library)).hasPrefix("\u{1B}[31m✗ "))
        #expect(Theme.plain.availabilityMark(Availability(available: true)) == "✓ Available")
    }
}
