import Foundation
import Testing

@testable import Reader

/// Places as KOReader's XPointers (its progress sync's currency): bok's own come back to the same
/// character, and one KOReader wrote, or one into a copy whose elements differ, lands on the
/// nearest place in the right chapter, never on page one.
struct XPointerTests {
    static func words(_ content: BookContent, _ place: Locator, count: Int = 12) -> String {
        String(content.document(at: place.spineIndex).plainText.utf16.dropFirst(place.offset).prefix(count)) ?? ""
    }

    @Test func everyCharacterOfAChapterComesBack() throws {
        let content = BookContent(book: try EPUBCFITests.book.open())
        let text = Array(content.document(at: 1).plainText.utf16)
        for offset in text.indices where text[offset] != 0x20 && text[offset] != 0x0A {
            let pointer = try #require(content.xpointer(for: Locator(spineIndex: 1, offset: offset)))
            #expect(pointer.hasPrefix("/body/DocFragment[2]/body/"), "\(pointer)")
            let back = try #require(content.locator(forXPointer: pointer))
            #expect(back.spineIndex == 1 && back.offset == offset, "\(pointer)")
        }
    }

    @Test func aPointerKOReaderWritesLandsOnTheWordsItNames() throws {
        let content = BookContent(book: try EPUBCFITests.book.open())
        func words(_ pointer: String) throws -> String {
            let place = try #require(content.locator(forXPointer: pointer), "\(pointer)")
            #expect(place.spineIndex == 1, "\(pointer)")
            return Self.words(content, place)
        }
        // The second text of the first paragraph (after <em>), five characters in: " and " skipped.
        #expect(try words("/body/DocFragment[2]/body/section/p/text()[2].5") == "a tail of wo")
        #expect(try words("/body/DocFragment[2]/body/section/p[1]/text()[2].5") == "a tail of wo")
        // Written for the place bok shows there, the same pointer.
        let place = try #require(content.locator(forXPointer: "/body/DocFragment[2]/body/section/p/text()[2].5"))
        #expect(content.xpointer(for: place) == "/body/DocFragment[2]/body/section/p[1]/text()[2].5")
        // White space the chapter collapsed still counts in the document's offsets.
        #expect(try words("/body/DocFragment[2]/body/section/p[4]/text().20") == "spread over ")
        // An element bok's copy has fewer of: the last there is, at its start.
        #expect(try words("/body/DocFragment[2]/body/section/p[9]/text().3").hasPrefix("Last"))
        // A path that leaves the document early, or names no text: the start of what it reached.
        #expect(try words("/body/DocFragment[2]/body/section/div[2]/p/text().4").hasPrefix("The Second"))
        #expect(try words("/body/DocFragment[2]/body/section/p[2]").lowercased().hasPrefix("shouted"))
        #expect(try words("/body/DocFragment[2].0").hasPrefix("The Second"))
    }

    @Test(arguments: ["12", "", "/body/DocFragment[9]/body/p/text().0", "/body/DocFragment[0].0", "epubcfi(/6/4!)"])
    func whatIsNoPlaceInThisBookIsNone(text: String) throws {
        let content = BookContent(book: try EPUBCFITests.book.open())
        #expect(content.locator(forXPointer: text) == nil)
    }

    @Test func aFractionReachesThePlaceThatFarIn() throws {
        let content = BookContent(book: try EPUBCFITests.book.open())
        #expect(content.locator(atFraction: 0) == Locator(spineIndex: 0, offset: 0))
        let late = content.locator(atFraction: 0.97)
        #expect(late.spineIndex == 1 && late.offset > content.length(at: 1) / 2)
    }
}

@Suite(DebianEPUBs.installed)
struct RealBookXPointerTests {
    /// Places across books nobody here wrote: a place → XPointer → place starts with the same word.
    @Test(arguments: DebianEPUBs.present.prefix(3))
    func placesComeBackToTheSameWords(path: String) throws {
        let content = BookContent(book: try EPUBBook.open(path: path))
        var sampled = 0
        var exact = 0
        for spine in content.book.readingOrder {
            let text = content.document(at: spine).plainText.utf16
            for offset in stride(from: 0, to: text.count, by: max(1, text.count / 7)) {
                let place = content.locator(spineIndex: spine, offset: offset)
                guard let pointer = content.xpointer(for: place), pointer.contains("text()") else { continue }
                let back = try #require(content.locator(forXPointer: pointer), "\(pointer)")
                sampled += 1
                if back.offset == place.offset { exact += 1 }
                #expect(
                    RealBookCFITests.firstWord(content, back) == RealBookCFITests.firstWord(content, place),
                    "\(pointer)")
            }
        }
        #expect(sampled > 20)
        #expect(exact * 100 >= sampled * 95, "\(exact) of \(sampled) places came back to the same character")
    }
}
