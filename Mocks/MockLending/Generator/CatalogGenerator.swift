public import Catalog
internal import Foundation

#if canImport(Glibc)
internal import Glibc
#endif

/// Generates a library catalogue that reads like a Swedish public library's, from a seed.
///
/// The same seed and size give the same catalogue on every machine (the generator has its own
/// PRNG and never reads the clock). Each book draws from its own random stream, so books can be
/// generated in parallel and a book's text does not depend on how many numbers another drew.
/// Cover and sample URLs are paths (`/mock/content/{id}/cover.png`); the server makes them
/// absolute with its own address when it serves a product.
public struct CatalogGenerator: Sendable {
    /// The seed.
    public let seed: UInt64
    /// Number of products.
    public let size: Int
    /// The newest book is published before this day; fixed so that a seed means one catalogue.
    public let referenceDay: DayDate

    /// The default reference day.
    public static let defaultReferenceDay = DayDate(year: 2026, month: 11, day: 1)

    /// Creates a generator.
    /// - Parameters:
    ///   - seed: Any number; equal seeds give equal catalogues.
    ///   - size: Number of products (600 by default; 200 000 takes about a second in release).
    ///   - referenceDay: The day "now" is for publication dates.
    public init(seed: UInt64, size: Int = 600, referenceDay: DayDate = CatalogGenerator.defaultReferenceDay) {
        precondition(size >= 0 && size < 9_000_000, "catalogue size must be between 0 and 9 000 000")
        self.seed = seed
        self.size = size
        self.referenceDay = referenceDay
    }

    /// Generates the catalogue: its licences and plans; the products are generated when read.
    public func generate() -> GeneratedCatalog { generate(indexingIn: nil) }

    /// Generates the catalogue and, with a collation, its search index and sort ranks, in one
    /// pass over the books: in chunks on every core, each book generated once and dropped.
    func generate(indexingIn collation: Collation?) -> GeneratedCatalog {
        let plans = makePlans()
        let referenceOrdinal = referenceDay.ordinal
        // Chunks the cores share out; each keeps its own vocabulary (joined afterwards) so that
        // no lock is taken per book. Sixteen: enough to keep both cores busy to the end, few
        // enough that the chunks' vocabularies are not held many times over.
        let chunkCount = size < 20_000 ? 1 : 16
        let bounds = (0...chunkCount).map { $0 * size / chunkCount }
        let slots = ResultSlots<Chunk>(count: chunkCount)
        DispatchQueue.concurrentPerform(iterations: chunkCount) { number in
            let range = bounds[number]..<bounds[number + 1]
            var chunk = Chunk(range: range, collation: collation)
            for index in range {
                let (product, licence) = book(
                    index, plan: plans[index], referenceOrdinal: referenceOrdinal, complete: false)
                chunk.add(index, product, licence)
            }
            chunk.part?.finish()
            slots.set(number, chunk)
        }
        var chunks = slots.values()
        // The chunks' memos and unsorted postings are freed, often in the middle of malloc's
        // per-thread heaps, which keep such pages: hand them back before the join allocates the index.
        Self.trimHeap()
        var licences: [Licence] = []
        var popularity: [Int] = []
        var aring: [Int] = []
        var activeDays: [ProductTable.ActiveDays] = []
        activeDays.reserveCapacity(size)
        licences.reserveCapacity(size)
        popularity.reserveCapacity(size)
        for chunk in chunks {
            licences += chunk.licences
            popularity += chunk.popularity
            aring += chunk.aringThrillers
            activeDays += chunk.activeDays
        }
        let unadjusted = ProductTable(
            generator: self, plans: plans, adjusted: [:], aringThrillers: Set(aring), activeDays: activeDays)
        let (top, adjusted) = ScenarioGuarantees.apply(
            popularity: popularity, licences: &licences, aringThrillers: aring, products: unadjusted)
        let products = ProductTable(
            generator: self, plans: plans, adjusted: adjusted, aringThrillers: Set(aring), activeDays: activeDays)
        let search = collation.map { CatalogSearch(products: products, parts: chunks.map { $0.part! }, collation: $0) }
        // The chunks' postings and sort facts, now joined, are freed on the workers' heaps: hand
        // their pages back before the library's state is seeded on another (67 MB at a million).
        chunks = []
        Self.trimHeap()
        return GeneratedCatalog(
            seed: seed, products: products, licences: licences, referenceDay: referenceDay, topByPopularity: top,
            search: search)
    }

    /// glibc's `malloc_trim(0)`, looked up by name (Swift's Glibc module leaves out malloc.h):
    /// returns the free pages of every heap to the system. Nothing where there is none.
    static func trimHeap() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
    }

    /// What one chunk of the books gives: licences, popularity, Å thrillers, and its share of the index.
    struct Chunk: Sendable {
        var licences: [Licence] = []
        var popularity: [Int] = []
        var aringThrillers: [Int] = []
        var activeDays: [ProductTable.ActiveDays] = []
        var part: CatalogSearch.Part?

        init(range: Range<Int>, collation: Collation?) {
            licences.reserveCapacity(range.count)
            popularity.reserveCapacity(range.count)
            part = collation.map { CatalogSearch.Part(start: range.lowerBound, count: range.count, collation: $0) }
        }

        mutating func add(_ index: Int, _ product: Product, _ licence: Licence) {
            licences.append(licence)
            popularity.append(product.popularity ?? 0)
            activeDays.append(ProductTable.ActiveDays(product))
            if ScenarioGuarantees.isAringThriller(product) { aringThrillers.append(index) }
            part?.add(index, product)
        }
    }

    /// The product id of book `index`: seven digits, unique, not visibly sequential.
    static func productID(_ index: Int) -> String {
        String(1_000_000 + (index &* 7_919 &+ 104_729) % 9_000_000)
    }

    /// The index of the book whose product id is `id` in a catalogue of `size`, if there is one
    /// (the inverse of `productID`: 5 017 679 is 7 919's inverse modulo 9 000 000).
    static func index(ofProductID id: String, size: Int) -> Int? {
        guard id.utf8.count == 7, id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = Int(id), number >= 1_000_000
        else { return nil }
        let modulus = 9_000_000
        let shifted = ((number - 1_000_000 - 104_729) % modulus + modulus) % modulus
        let index = shifted * 5_017_679 % modulus
        return index < size ? index : nil
    }

    // MARK: Plans

    /// What kind of book each position holds; decided in one cheap sequential pass so that the
    /// expensive per-book work can run in any order.
    enum Plan: Sendable {
        case standalone
        /// Book `order` of `length` in the series started at `leader`.
        case series(leader: Int, order: Int, length: Int)
        /// An edition of `Vocabulary.classics[index]`.
        case classic(Int)
        /// A Swedish thriller whose first author's last name starts with Å (a usability scenario).
        case aringThriller(Int)

        var isStandalone: Bool {
            if case .standalone = self { return true }
            return false
        }
    }

    func makePlans() -> [Plan] {
        var rng = SplitMix64.stream(seed, 0x504C_414E)
        var plans = [Plan](repeating: .standalone, count: size)
        var index = 0
        while index < size {
            let roll = rng.unit()
            if roll < 0.06, size - index >= 2 {
                let length = min(size - index, rng.int(in: 2...6))
                for order in 1...length {
                    plans[index + order - 1] = .series(leader: index, order: order, length: length)
                }
                index += length
            } else if roll < 0.075 {
                plans[index] = .classic(rng.below(Vocabulary.classics.count))
                index += 1
            } else {
                index += 1
            }
        }
        // Plant the Å thrillers the `author:Å*` scenario needs, spread over the catalogue.
        let planted = size >= 200 ? 4 : min(size, max(1, size / 50))
        for k in 0..<planted {
            var position = (k * size) / planted + rng.below(max(1, size / (planted * 4)))
            // The planted book must be a standalone: move past series and classics.
            while position < size - 1, !plans[position].isStandalone { position += 1 }
            while position > 0, !plans[position].isStandalone { position -= 1 }
            plans[position] = .aringThriller(k)
        }
        return plans
    }

    // MARK: One book

    /// The facts a series shares, or a standalone book's own.
    struct Profile {
        var genre: Genre
        var companion: Genre?
        var origin: Vocabulary.Origin
        var language: String
        var translated: Bool
        var authors: [Contributor]
        var translator: Contributor?
        var illustrator: Contributor?
        var publisher: String
        var story: Story
        /// Days before the reference day of the (first) publication.
        var age: Int
        var seriesName: String?
    }

    static let genreWeights: [Genre] = Genre.allCases.flatMap { Array(repeating: $0, count: $0.weight) }
    static let seriesGenres: [Genre] = genreWeights.filter { $0.isFiction && $0 != .klassiker }
    /// Genres the few titles written in Danish, Norwegian, Finnish, German, French and Spanish fit.
    static let foreignGenres: Set<Genre> = [.deckare, .thriller, .romance, .feelgood, .historiska, .skrack]

    func person(_ origin: Vocabulary.Origin, _ role: Contributor.Role, _ rng: inout SplitMix64) -> Contributor {
        Contributor(
            role: role, firstName: rng.pickSkewed(origin.firstNames), lastName: rng.pickSkewed(origin.lastNames))
    }

    func makeProfile(_ rng: inout SplitMix64, aring: Int?, seriesLength: Int?) -> Profile {
        let genre: Genre =
            aring != nil
            ? .thriller
            : {
                var g = rng.pick(Self.genreWeights)
                if g == .klassiker { g = .historiska }  // classics come from the table, never invented
                // Series are stories: non-fiction in a "Visbyserien" would read oddly.
                if seriesLength != nil, !g.isFiction { g = rng.pick(Self.seriesGenres) }
                return g
            }()
        var companion: Genre?
        if let pair = genre.companion, rng.chance(pair.chance) { companion = pair.genre }

        let originRoll = rng.unit()
        var origin: Vocabulary.Origin
        if aring != nil || genre == .barn && originRoll < 0.85 || originRoll < 0.66 {
            origin = .swedish
        } else if originRoll < 0.94 || !Self.foreignGenres.contains(genre) {
            origin = .english
        } else {
            origin = [.danish, .norwegian, .finnish, .german, .french, .spanish][rng.below(6)]
        }
        // Most English novels reach a Swedish library in translation; some in the original.
        let translated = origin == .english && rng.chance(0.6)
        let language = translated ? "sv" : origin.languageCode

        var authors = [person(origin, .author, &rng)]
        if let aring {
            authors[0].lastName = Vocabulary.swedishAringLastNames[aring % Vocabulary.swedishAringLastNames.count]
        }
        if rng.chance(0.07) { authors.append(person(origin, .author, &rng)) }
        let translator = translated ? person(.swedish, .translator, &rng) : nil
        let illustrator = genre == .barn && rng.chance(0.7) ? person(.swedish, .illustrator, &rng) : nil

        // A translation is published by a Swedish house; an original by one of its language.
        let publisher = translated ? rng.pickSkewed(Vocabulary.swedishPublishers) : rng.pickSkewed(origin.publishers)
        let place = rng.pick(origin.places)
        let hero = rng.pick(origin.heroines)
        let heroLast = rng.pickSkewed(origin.lastNames)
        let friend = rng.pick(origin == .english ? Vocabulary.englishFirstNames : Vocabulary.swedishFirstNames)
        let year = genre == .historiska ? rng.int(in: 1650...1955) : rng.int(in: 1890...2020)
        var story = Story(
            place: place, hero: hero, heroLast: heroLast, friend: friend, year: year, author: authors[0].lastName)
        if genre == .biografi {
            // Memoirs: the book is about its author.
            story.hero = authors[0].firstName
            story.heroLast = authors[0].lastName
        }

        // Publication age: a third in the last two years, most since 2000, some back to the 1960s.
        let ageRoll = rng.unit()
        var age: Int
        if ageRoll < 0.33 {
            age = rng.int(in: 0...730)
        } else if ageRoll < 0.78 {
            age = rng.int(in: 730...9_500)
        } else {
            age = rng.int(in: 9_500...23_000)
        }
        var seriesName: String?
        if let seriesLength {
            age = max(age, seriesLength * 420)
            let english = language == "en"
            var pattern = rng.pick(Vocabulary.seriesNames(genre, english: english, length: seriesLength))
            // "Gamla stanserien" reads badly: compounds only with one-word places.
            if place.name.contains(" "), pattern.hasPrefix("{place}") { pattern = "Serien om {heroFull}" }
            let template = Vocabulary.seriesTemplates[pattern] ?? Template(pattern)
            seriesName = Story.capitalizingFirst(
                template.render(story: story, language: english ? .english : .swedish, rng: &rng))
        }
        return Profile(
            genre: genre, companion: companion, origin: origin, language: language, translated: translated,
            authors: authors, translator: translator, illustrator: illustrator, publisher: publisher,
            story: story, age: age, seriesName: seriesName)
    }

    /// Book `index` and its licence; when not `complete`, what the index neither searches nor
    /// sorts by is left out (the blurb, the cover and sample paths, the formats), everything
    /// else the same: the same numbers are drawn.
    func book(_ index: Int, plan: Plan, referenceOrdinal: Int, complete: Bool = true) -> (Product, Licence) {
        var rng = SplitMix64.stream(seed, UInt64(index) &+ 1)
        let id = Self.productID(index)
        var profile: Profile
        var seriesOrder: Int?
        var title: String
        var originalTitle: String?
        var age: Int
        switch plan {
        case .classic(let which):
            let classic = Vocabulary.classics[which]
            var shared = SplitMix64.stream(seed, 0xC1A5_5000 &+ UInt64(which))
            profile = makeProfile(&shared, aring: nil, seriesLength: nil)
            profile.genre = classic.genre
            profile.companion = classic.genre == .klassiker ? nil : .klassiker
            profile.language = classic.language
            profile.translated = classic.originalTitle != nil
            profile.authors = [Contributor(role: .author, firstName: classic.first, lastName: classic.last)]
            profile.translator = profile.translated ? person(.swedish, .translator, &rng) : nil
            profile.illustrator = nil
            profile.story.author = classic.last
            profile.story.year = classic.year
            profile.publisher =
                classic.language == "sv"
                ? rng.pickSkewed(Vocabulary.swedishPublishers)
                : classic.language == "en"
                    ? rng.pick(Vocabulary.englishPublishers) : rng.pick(Vocabulary.Origin.french.publishers)
            title = classic.title
            originalTitle = classic.originalTitle
            age = rng.int(in: 200...6_000)  // e-book editions of classics are recent
        case .series(let leader, let order, let length):
            var shared = SplitMix64.stream(seed, 0x5E41_E500_0000 &+ UInt64(leader))
            profile = makeProfile(&shared, aring: nil, seriesLength: length)
            seriesOrder = order
            age = max(0, profile.age - (order - 1) * rng.int(in: 280...420))
            (title, originalTitle) = makeTitle(profile, &rng)
        case .aringThriller(let k):
            profile = makeProfile(&rng, aring: k, seriesLength: nil)
            age = profile.age
            (title, originalTitle) = makeTitle(profile, &rng)
        case .standalone:
            profile = makeProfile(&rng, aring: nil, seriesLength: nil)
            age = profile.age
            (title, originalTitle) = makeTitle(profile, &rng)
        }

        var contributors = profile.authors
        if let translator = profile.translator { contributors.append(translator) }
        if let illustrator = profile.illustrator { contributors.append(illustrator) }

        var categories = [profile.genre.category]
        if let companion = profile.companion { categories.append(companion.category) }

        // A few records from older feeds carry no publication date, as in real catalogues.
        let published: DayDate? = rng.chance(0.015) ? nil : DayDate(ordinal: referenceOrdinal - age)
        let pages = rng.int(in: profile.genre.pages)
        let isbn = ISBN.make(index: index, language: profile.language)

        let epubSize = pages * rng.int(in: 2_200...3_400) + 180_000
        let pdfSize = rng.chance(0.25) ? pages * rng.int(in: 9_000...16_000) + 400_000 : nil
        var formats: [Product.Format] = []
        if complete {
            formats.append(Product.Format(id: "4104", name: "EPUB", sizeInBytes: epubSize))
            if let pdfSize { formats.append(Product.Format(id: "4103", name: "PDF", sizeInBytes: pdfSize)) }
        }
        let activeFrom = published.map { $0.adding(days: -rng.int(in: 0...30)) }
        let activeUntil: DayDate? =
            rng.chance(0.1) ? DayDate(ordinal: referenceOrdinal + rng.int(in: 180...2_000)) : nil
        let teaser: Product.Teaser? =
            rng.chance(0.85) && complete
            ? Product.Teaser(url: "/mock/content/\(id)/sample.epub", formatID: "4104") : nil

        var keywords: [String] = []
        let pool = profile.genre.keywords
        let wanted = rng.int(in: 2...4)
        var attempts = 0
        while keywords.count < wanted, attempts < 12 {
            let word = rng.pickSkewed(pool)
            if !keywords.contains(word) { keywords.append(word) }
            attempts += 1
        }
        if profile.genre.isFiction, rng.chance(0.4) { keywords.append(profile.story.place.name) }

        // Loans in the last twelve months: heavy-tailed, so a few titles are very popular.
        let u = max(rng.unit(), 1e-12)
        var popularity = 3.0 * pow(u, -0.9)
        if age < 365 { popularity *= 2 }
        if seriesOrder == 1 { popularity *= 1.5 }
        // A Swedish library lends mostly Swedish: books in other languages circulate less.
        if profile.language != "sv" { popularity *= 0.35 }
        let popularityCount = Int(min(popularity, 40_000))
        let spread = (rng.unit() + rng.unit() + rng.unit() - 1.5) * 1.3
        let rating =
            (min(5, max(1, 3.6 + spread + min(0.6, log10(Double(popularityCount) + 1) * 0.15))) * 10).rounded() / 10

        let product = Product(
            id: id, title: title, originalTitle: originalTitle, contributors: contributors,
            publisher: profile.publisher, publishedDate: published, language: profile.language,
            categories: categories,
            description: makeBlurb(profile, seriesOrder: seriesOrder, &rng, writing: complete),
            coverImage: complete ? "/mock/content/\(id)/cover.png" : nil, pages: pages, bookType: "Ebook",
            isbns: [isbn],
            formats: formats,
            statuses: [Product.Status(name: "Active", validFrom: activeFrom, validUntil: activeUntil)],
            teaser: teaser, series: profile.seriesName.map { Product.Series(name: $0, order: seriesOrder) },
            keywords: keywords, popularity: popularityCount, rating: rating)
        return (product, makeLicence(genre: profile.genre, popularity: popularityCount, &rng))
    }

    func makeTitle(_ profile: Profile, _ rng: inout SplitMix64) -> (String, String?) {
        if profile.origin != .swedish, profile.origin != .english,
            let templates = Vocabulary.otherLanguageTitles[profile.language]
        {
            return (
                Story.capitalizingFirst(
                    rng.pick(templates).render(story: profile.story, language: .swedish, rng: &rng)), nil
            )
        }
        let template = rng.pick(Vocabulary.titleTemplates[profile.genre.rawValue])
        let english = profile.translated || profile.language == "en"
        let pair = template.render(
            story: profile.story, rng: &rng, swedish: profile.translated || !english, english: english)
        if profile.translated { return (pair.sv, pair.en) }
        return (profile.language == "en" ? pair.en : pair.sv, nil)
    }

    /// The book's blurb; with `writing` false, only the numbers it would draw are drawn (the
    /// licence is drawn after it, and the index needs the licence but not the blurb).
    func makeBlurb(_ profile: Profile, seriesOrder: Int?, _ rng: inout SplitMix64, writing: Bool = true) -> String {
        let english = profile.language == "en"
        guard writing else {
            Vocabulary.skipBlurb(english: english, genre: profile.genre, &rng)
            return ""
        }
        let set =
            english
            ? Vocabulary.englishBlurbs[profile.genre.rawValue] : Vocabulary.swedishBlurbs[profile.genre.rawValue]
        let language: Story.Language = english ? .english : .swedish
        var text = ""
        text.reserveCapacity(400)
        func add(_ template: borrowing Template, after separator: String) {
            text += separator
            template.render(into: &text, story: profile.story, language: language, rng: &rng)
        }
        add(set.openings[rng.below(set.openings.count)], after: "")
        let first = rng.below(set.middles.count)
        add(set.middles[first], after: " ")
        if set.middles.count > 1, rng.chance(0.4) {
            add(set.middles[(first + 1) % set.middles.count], after: " ")
        }
        add(set.closings[rng.below(set.closings.count)], after: " ")
        if let seriesOrder, let name = profile.seriesName {
            text += english ? " Book \(seriesOrder) in \(name)." : " Del \(seriesOrder) i \(name)."
        }
        return text
    }

    func makeLicence(genre: Genre, popularity: Int, _ rng: inout SplitMix64) -> Licence {
        let roll = rng.unit()
        let accessShare = genre == .klassiker ? 0.6 : 0.15
        if roll < accessShare { return Licence(model: .access, onLoan: rng.int(in: 0...12)) }
        if roll < accessShare + 0.2 { return Licence(model: .ppu) }
        let copies = [1, 1, 2, 2, 2, 3, 3, 4, 5][rng.below(9)]
        // Popular titles are more often all out, with a queue that grows with popularity.
        let outChance = min(0.85, 0.12 + log10(Double(popularity) + 1) * 0.18)
        if rng.chance(outChance) {
            let waiting = rng.chance(0.85) ? rng.int(in: 1...(3 + popularity / 40)) : 0
            return Licence(model: .copies, copies: copies, onLoan: copies, waiting: min(waiting, 60))
        }
        return Licence(model: .copies, copies: copies, onLoan: rng.below(copies))
    }
}
