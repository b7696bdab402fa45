internal import Foundation
import Localization

extension ReaderSession {
    /// Characters of a word, space included, for turning a pace in characters into words.
    static let charactersPerWord = 6.0

    /// `:stats`: the reader's own pace in words and pages a minute, and the time read in this
    /// book and today (from the pace samples kept for time-left estimates), in one line.
    func readingStats(calendar: Calendar = .current) -> String {
        let all = (try? store.paceSamples(bookID: bookID, limit: 100_000)) ?? bookPace
        let everywhere = (try? store.paceSamples(bookID: nil, limit: 100_000)) ?? globalPace
        guard !all.isEmpty || !everywhere.isEmpty else {
            return tr("Not enough reading yet to know your pace; read a few pages and ask again.")
        }
        let rate = charactersPerSecond
        let words = Int((rate * 60 / Self.charactersPerWord).rounded())
        let perPage = Double(max(1, visibleCharacterCount))
        let pages = rate * 60 / perPage
        let decimal = Localization.locale.decimalSeparator ?? "."
        let pagesText =
            pages >= 10
            ? String(Int(pages.rounded())) : String(format: "%.1f", pages).replacingOccurrences(of: ".", with: decimal)
        let today = Date(timeIntervalSinceReferenceDate: now())
        let readToday = everywhere.filter { calendar.isDate($0.date, inSameDayAs: today) }.reduce(0) { $0 + $1.seconds }
        let readHere = all.reduce(0) { $0 + $1.seconds }
        return tr(
            "About {words} words ({pages} pages) a minute; {here} read in this book, {today} today in all books.",
            [
                "words": words, "pages": pagesText, "here": ReaderView.duration(readHere),
                "today": ReaderView.duration(readToday),
            ])
    }
}
