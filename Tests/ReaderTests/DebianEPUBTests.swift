import Foundation
import Testing

@testable import Reader

/// Real-world EPUBs from Debian's packages (installed by scripts/install-test-epubs.sh).
enum DebianEPUBs {
    static let expected: [String] = [
        "/usr/share/doc/live-manual/epub/live-manual.en.epub",
        "/usr/share/doc/live-manual/epub/live-manual.de.epub",
        "/usr/share/doc/live-manual/epub/live-manual.ja.epub",
        "/usr/share/doc/live-manual/epub/live-manual.fr.epub",
        "/usr/share/doc/ubuntu-packaging-guide-epub/ubuntu-packaging-guide.epub",
        "/usr/share/doc/ubuntu-packaging-guide-epub-ru/ubuntu-packaging-guide.epub",
        "/usr/share/doc/ubuntu-packaging-guide-epub-uk/ubuntu-packaging-guide.epub",
    ]
    static let present = expected.filter { FileManager.default.fileExists(atPath: $0) }
    static let available = !present.isEmpty
    /// Runs a suite only where the books are installed, and says why not otherwise.
    static var installed: ConditionTrait {
        .enabled(
            if: available,
            "Debian's live-manual-epub and ubuntu-packaging-guide-epub are missing: scripts/install-test-epubs.sh"
        )
    }
}

@Suite(DebianEPUBs.installed)
struct DebianEPUBTests {
    @Test(arguments: DebianEPUBs.present)
    func opensLaysOutToTheEndAndSearches(path: String) throws {
        let book = try EPUBBook.open(path: path)
        #expect(!book.metadata.title.isEmpty)
        #expect(book.hasOwnTableOfContents)
        #expect(!book.tableOfContents.isEmpty)
        #expect(book.tableOfContents.contains { $0.spineIndex != nil })
        #expect(!book.spine.isEmpty)
        // Read straight through, no chapter comes round again (the live manual's spine lists
        // each chapter's sections as items of their own).
        let paths = book.readingOrder.compactMap { book.spine[$0].path }
        #expect(Set(paths).count == paths.count, "a chapter is in the reading order twice")

        let content = BookContent(book: book)
        let layout = BookLayout(content: content, settings: LayoutSettings(width: 80, rows: 24, justify: true))
        var position = PagePosition(spineIndex: book.readingOrder[0], page: 0)
        var pages = 1
        var widest = 0
        while let next = layout.position(after: position) {
            for line in layout.lines(at: next) {
                widest = max(widest, line.indent + CellWidth.of(line.text))
            }
            position = next
            pages += 1
        }
        #expect(pages > 20)
        #expect(widest <= 80)
        #expect(position.spineIndex == book.readingOrder.last)

        // Every linear chapter has text, and TOC targets resolve to positions.
        for entry in book.tableOfContents.flatMap({ $0.flattened() }).prefix(40) {
            guard let target = entry.entry.target else { continue }
            if let locator = book.locator(for: target) {
                #expect(layout.page(containing: locator).spineIndex == locator.spineIndex)
            }
        }

        let word = path.contains("live-manual") ? "live" : "package"
        let hits = try content.search(word)
        #expect(hits.count > 10 || path.contains("-ru") || path.contains("-uk") || path.contains(".ja."))
        for hit in hits.prefix(20) {
            let page = layout.page(containing: hit.locator)
            let lines = layout.lines(at: page)
            let low = lines.first?.sourceRange.lowerBound ?? 0
            let high = lines.last?.sourceRange.upperBound ?? 0
            #expect(low <= hit.locator.offset && hit.locator.offset <= high)
        }
    }
}

extension DebianEPUBTests {
    /// Books nobody here wrote are well-formed XHTML, and bok must not say otherwise.
    @Test func realBooksAreNotCalledMalformed() throws {
        let books =
            ["/usr/share/doc/ubuntu-packaging-guide-epub/ubuntu-packaging-guide.epub"]
            + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/share/calibre/quick_start")) ?? [])
            .filter { $0.hasSuffix(".epub") }.map { "/usr/share/calibre/quick_start/" + $0 }
        for path in books where FileManager.default.fileExists(atPath: path) {
            let book = try EPUBBook.open(path: path)
            for index in book.readingOrder {
                #expect(book.document(at: index).isWellFormed, "\(path): \(book.spine[index].path ?? "?")")
            }
        }
    }
}
