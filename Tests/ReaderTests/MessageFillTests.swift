import Localization
import Testing

/// Messages with `{name}` fields, as every screen of bok shows them (here in English, the
/// messages as written; Swedish catalogues fill the same fields).
@Suite("Filling in a message's fields")
struct MessageFillTests {
    @Test("Each field gets its value, once: a value that reads like a field is shown as it is")
    func fieldsAreFilledOnce() {
        #expect(
            tr("{title} by {author}", ["title": "Notes on {author}", "author": "Anna"]) == "Notes on {author} by Anna")
        #expect(tr("{n} of {n}", ["n": 3]) == "3 of 3")
    }

    @Test("A field with no value, and a brace that opens no field, stay as written")
    func strayBracesStay() {
        #expect(tr("{gone} at {time}", ["time": "noon"]) == "{gone} at noon")
        #expect(tr("a { b", ["b": 1]) == "a { b")
        #expect(tr("{time} left {", ["time": "5 min"]) == "5 min left {")
    }

    @Test("The plural message gets its count and its other fields")
    func pluralsAreFilled() {
        #expect(trn("{n} book on {shelf}", "{n} books on {shelf}", 3, ["shelf": "loans"]) == "3 books on loans")
        #expect(trn("{n} book", "{n} books", 1) == "1 book")
    }
}
