import Catalog
import Testing

@Suite("Text order in a library's alphabet")
struct CollationTests {
    let names = ["Öberg", "Zetterlund", "Åberg", "Andersson", "Ängström", "Ekdahl", "Élise", "ekström", "Ödman"]

    @Test("Swedish order puts Å, Ä, Ö after Z, in that order")
    func swedish() {
        let sorted = Collation(.swedish).sorted(names, by: { $0 })
        #expect(
            sorted == ["Andersson", "Ekdahl", "ekström", "Élise", "Zetterlund", "Åberg", "Ängström", "Öberg", "Ödman"])
    }

    @Test("English order reads Å, Ä as A and Ö as O")
    func english() {
        let sorted = Collation(.english).sorted(names, by: { $0 })
        #expect(
            sorted == ["Åberg", "Andersson", "Ängström", "Ekdahl", "ekström", "Élise", "Öberg", "Ödman", "Zetterlund"])
    }

    @Test("Keys kept as bytes in one array order texts as the keys themselves do")
    func keysAsBytes() {
        let texts = names + ["", "O'Connor", "OConnor", "Öberg ", "A", "a", "Aa", "Å"]
        for collation in [Collation(.swedish), Collation(.english)] {
            var bytes: [UInt8] = []
            var ranges: [Range<Int>] = []
            for text in texts {
                let start = bytes.count
                collation.appendKey(text, to: &bytes)
                ranges.append(start..<bytes.count)
            }
            func before(_ a: Int, _ b: Int) -> Bool { bytes[ranges[a]].lexicographicallyPrecedes(bytes[ranges[b]]) }
            for a in texts.indices {
                for b in texts.indices {
                    let (keyA, keyB) = (collation.key(texts[a]), collation.key(texts[b]))
                    #expect(before(a, b) == (keyA < keyB), "\(texts[a]) < \(texts[b])")
                    #expect(bytes[ranges[a]].elementsEqual(bytes[ranges[b]]) == (keyA == keyB))
                }
            }
        }
    }

    @Test("Descending Swedish order starts with Ö")
    func descending() {
        let sorted = Collation(.swedish).sorted(names, by: { $0 }, descending: true)
        #expect(sorted.first == "Ödman")
        #expect(sorted.last == "Andersson")
    }

    @Test("Æ sorts as Ä and Ø as Ö in Swedish; Ü as Y")
    func danishLetters() {
        let c = Collation(.swedish)
        #expect(c.areInIncreasingOrder("Zorn", "Ærø"))
        #expect(c.areInIncreasingOrder("Ærø", "Øst"))
        #expect(c.areInIncreasingOrder("Xylander", "Über"))
        #expect(c.areInIncreasingOrder("Über", "Zorn"))
    }

    @Test("Case and accents only break ties")
    func tiers() {
        let c = Collation(.swedish)
        #expect(c.areInIncreasingOrder("ekström", "Ekström"))
        #expect(c.areInIncreasingOrder("Eliasson", "Élise"))
        #expect(c.areInIncreasingOrder("Élise", "Ellis"))
    }

    @Test("A word boundary sorts before a letter: Ek Anna before Eka")
    func words() {
        #expect(Collation(.swedish).areInIncreasingOrder("Ek Anna", "Eka"))
    }

    @Test(
        "Locale tags choose the alphabet",
        arguments: [
            ("sv-SE", Collation.Alphabet.swedish), ("sv_SE.UTF-8", .swedish), ("fi", .swedish),
            ("en-GB", .english), (nil, .english),
        ] as [(String?, Collation.Alphabet)])
    func locales(tag: String?, alphabet: Collation.Alphabet) {
        #expect(Collation(locale: tag).alphabet == alphabet)
    }
}

@Suite("Sorting products")
struct ProductOrderingTests {
    func product(
        _ id: String, _ title: String, last: String, first: String = "Anna", year: Int = 2000, popularity: Int = 0
    ) -> Product {
        Product(
            id: id, title: title, contributors: [Contributor(firstName: first, lastName: last)],
            publishedDate: DayDate(year: year, month: 1, day: 1), popularity: popularity)
    }

    @Test("Author order uses the first author's last name, Å after Z in Swedish")
    func byAuthor() {
        let products = [
            product("1", "B", last: "Åkesson"), product("2", "C", last: "Zander"), product("3", "A", last: "Berg"),
        ]
        let swedish = ProductOrdering(collation: Collation(.swedish))
        #expect(swedish.sorted(products, by: SortSpec(.author, .ascending)).map(\.id) == ["3", "2", "1"])
        #expect(swedish.sorted(products, by: SortSpec(.author, .descending)).map(\.id) == ["1", "2", "3"])
        let english = ProductOrdering(collation: Collation(.english))
        #expect(english.sorted(products, by: SortSpec(.author, .ascending)).map(\.id) == ["1", "3", "2"])
    }

    @Test("Date and popularity default to newest and most popular first")
    func numbers() {
        let products = [
            product("1", "A", last: "X", year: 1990, popularity: 5),
            product("2", "B", last: "Y", year: 2020, popularity: 50),
            product("3", "C", last: "Z", year: 2005, popularity: 500),
        ]
        let ordering = ProductOrdering(collation: Collation(.swedish))
        #expect(ordering.sorted(products, by: SortSpec(.date)).map(\.id) == ["2", "3", "1"])
        #expect(ordering.sorted(products, by: SortSpec(.popularity)).map(\.id) == ["3", "2", "1"])
        #expect(ordering.sorted(products, by: SortSpec(.date, .ascending)).map(\.id) == ["1", "3", "2"])
    }

    @Test("Ties break by title so pages are stable")
    func ties() {
        let products = [product("9", "Öken", last: "Berg"), product("8", "Annat", last: "Berg")]
        let sorted = ProductOrdering(collation: Collation(.swedish)).sorted(
            products, by: SortSpec(.author, .descending))
        #expect(sorted.map(\.title) == ["Annat", "Öken"])
    }

    @Test("Direction labels are in the patron's terms")
    func labels() {
        #expect(SortSpec(.author, .descending).label(alphabet: .swedish) == "author, Ö→A")
        #expect(SortSpec(.title).label(alphabet: .english) == "title, A→Z")
        #expect(SortSpec(.date).directionLabel(alphabet: .swedish) == "newest first")
        #expect(SortSpec(.popularity).directionLabel(alphabet: .swedish) == "most popular first")
        #expect(SortSpec(.title, .descending).directionLabel(alphabet: .swedish, arrow: "->") == "Ö->A")
    }
}
