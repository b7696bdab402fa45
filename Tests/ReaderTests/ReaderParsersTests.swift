import Testing

@testable import Reader

/// The fuzzing entry points wrap a fuzzed document in a valid book; that book must really open,
/// or every fuzzed package or navigation document would die in the zip reader and test nothing.
struct ReaderParsersTests {
    @Test func theFixtureBookOpensWithItsNestedTableOfContents() throws {
        let bytes = StoredZip.book(
            opf: Array(ReaderParsers.Fixture.opf.utf8), nav: Array(ReaderParsers.Fixture.nav.utf8),
            ncx: Array(ReaderParsers.Fixture.ncx.utf8))
        let book = try EPUBBook(bytes: bytes)
        #expect(book.metadata.title == "Fuzz")
        #expect(book.tableOfContents.flatMap { $0.flattened() }.map(\.entry.title) == ["Ett", "Två"])
        #expect(book.document(at: 0).plainText.contains("Första stycket"))
        #expect(book.warnings.isEmpty, "\(book.warnings)")
    }
}
