import Catalog
import Foundation
import TestSupport
import Testing

@testable import MockLending

/// EPUBCheck, the W3C's validator, on a spread of generated books.
///
/// `scripts/install-test-tools.sh` installs it (the Debian package `epubcheck`); without it these
/// tests are skipped with that advice.
@Suite(
    "Generated books pass EPUBCheck",
    .enabled(if: EPUBCheck.jar != nil, "epubcheck is not installed: run scripts/install-test-tools.sh"))
struct BooksValidationTests {
    typealias F = BookFixtures

    static let books: [(String, Product, Bool)] = [
        ("a Swedish novel", F.swedishNovel, false),
        ("an English novel", F.englishNovel, false),
        ("a translated novel", F.translatedNovel, false),
        ("a children's book with pictures", F.childrensBook, false),
        ("a non-fiction book with a table and notes", F.factsBook, false),
        ("a poetry book", F.poetryBook, false),
        ("a memoir", F.biography, false),
        ("a book in another language", F.otherLanguageBook, false),
        ("a novel-length book", F.novelLength[0], false),
        ("a sample", F.swedishNovel, true),
    ]

    @Test("No errors and no warnings", arguments: books.indices)
    func validates(_ index: Int) throws {
        let (name, product, sample) = Self.books[index]
        let report = try EPUBCheck.check(MockBooks.epub(for: product, seed: F.seed, sample: sample))
        #expect(report.contains("Messages: 0 fatals / 0 errors / 0 warnings"), "\(name) (\(product.id)):\n\(report)")
    }
}

enum EPUBCheck {
    /// The validator's jar. The Debian package's `/usr/bin/epubcheck` is the jar itself, run
    /// through binfmt, which containers often lack; `java -jar` works everywhere.
    static let jar: String? = ["/usr/share/java/epubcheck.jar", "/usr/share/epubcheck/epubcheck.jar"]
        .first { FileManager.default.fileExists(atPath: $0) }

    /// EPUBCheck's report on `epub`.
    static func check(_ epub: Data) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bok-epubcheck-\(UUID().uuidString).epub")
        try epub.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try runProgram("/usr/bin/env", ["java", "-jar", jar ?? "epubcheck.jar", file.path]).output
    }
}
