public import Catalog
public import Foundation

/// The books the mock library lends: a complete EPUB 3 file for any product, written on demand.
///
/// Everything in the file is made here: the prose (a generator per kind of book, in Swedish or
/// English, with the product's heroine and place when its blurb names them), the cover and the
/// illustrations (drawn and PNG-encoded here), the package and the zip. The same product and
/// seed always give the same bytes, so the server may cache a book or make it again.
public enum MockBooks {
    /// The EPUB of `product` (its first chapter or two only when `sample`).
    ///
    /// - Parameters:
    ///   - product: The catalogue entry; its title, contributors, language, categories, pages,
    ///     series and description decide the book.
    ///   - seed: The catalogue's seed; another seed gives the same product other words.
    ///   - sample: Whether to make the publisher's free sample: the front matter, the first
    ///     chapter (two when the first is short) and a closing page saying the whole book can be borrowed.
    public static func epub(for product: Product, seed: UInt64, sample: Bool) -> Data {
        Data(archive(for: product, seed: seed, sample: sample))
    }

    /// The PNG of `product`'s cover, as its EPUB has it, drawn without writing the book.
    static func cover(for product: Product, seed: UInt64) -> [UInt8] {
        let plan = BookPlan(product: product)
        var pictureRNG = SplitMix64.stream(seed, fnv1a(product.id) ^ 0x0000_C0FE_0000_0000)
        let palette = Palette.make(for: plan.kind, &pictureRNG)
        return Pictures.cover(palette: palette, &pictureRNG)
    }

    /// The EPUB's bytes.
    static func archive(for product: Product, seed: UInt64, sample: Bool) -> [UInt8] {
        let facts = BookFacts(product: product, seed: seed)
        let plan = BookPlan(product: product)
        // Independent streams: the cover does not change when the prose generator draws more numbers.
        let salt = fnv1a(product.id)
        var pictureRNG = SplitMix64.stream(seed, salt ^ 0x0000_C0FE_0000_0000)
        let palette = Palette.make(for: plan.kind, &pictureRNG)
        let cover = Pictures.cover(palette: palette, &pictureRNG)
        let manuscript = write(
            facts: facts, plan: plan, palette: palette, product: product,
            rng: SplitMix64.stream(seed, salt ^ 0x0000_7E47_0000_0000),
            pictureRNG: pictureRNG, sample: sample)
        return EPUBWriter(facts: facts, manuscript: manuscript, cover: cover, isSample: sample).archive()
    }

    /// A sample's first chapter counts as short below this many bytes of text, and the sample then takes two.
    static let shortChapter = 6_000

    /// Writes the chapters (all of them, or a sample's) and the illustrations they show.
    static func write(
        facts: BookFacts, plan: BookPlan, palette: Palette, product: Product, rng: SplitMix64,
        pictureRNG: SplitMix64, sample: Bool
    ) -> Manuscript {
        var rng = rng
        var pictureRNG = pictureRNG
        let language = facts.textLanguage
        let english = language == .english
        let cast = Cast(facts: facts, kind: plan.kind, &rng)
        let dash = !english && rng.chance(0.5)
        // Non-fiction is written from its topic's phrasebook; every other kind from its own.
        let topic = plan.kind == .facts ? FactsTopic.topic(keywords: product.keywords, english: english, &rng) : nil
        let book = topic?.book ?? Phrasebook.of(plan.kind, language)
        var writer = ProseWriter(rng: rng, language: language, book: book, cast: cast, dashDialogue: dash)

        // Pictures and the chapters that show them: the first in chapter 1, so a sample has one.
        var figures: [Int: (index: Int, caption: String)] = [:]
        var illustrations: [Illustration] = []
        if plan.kind.hasIllustrations {
            let count = pictureRNG.int(in: 1...3)
            for index in 0..<count {
                let chapter = index == 0 ? 1 : 1 + index * plan.chapterCount / count
                let figureNumber = index + 1
                if plan.kind == .facts, index == 0, let topic {
                    let values = topic.rows.map { Int($0[$0.count - 1].filter(\.isNumber)) ?? 0 }
                    let alt =
                        (english
                            ? "Bar chart of \(topic.header.last ?? ""): "
                            : "Stapeldiagram över \(topic.header.last ?? ""): ")
                        + topic.rows.map { "\($0[0]) \($0[$0.count - 1])" }.joined(separator: ", ") + "."
                    illustrations.append(
                        Illustration(png: Pictures.barChart(values: values, palette: palette), alt: alt))
                    let caption = english ? "Figure 1. Table 1 as a bar chart." : "Figur 1. Tabell 1 som stapeldiagram."
                    figures[chapter] = (index, caption)
                } else {
                    let scene = Pictures.scene(palette: palette, language: language, &pictureRNG)
                    illustrations.append(Illustration(png: scene.png, alt: scene.alt))
                    var caption = ""
                    if plan.kind == .children {
                        writer.fill(writer.draw("caption"), into: &caption)
                    } else {
                        caption =
                            english
                            ? "Figure \(figureNumber). A house in the country."
                            : "Figur \(figureNumber). Ett hus på landet."
                    }
                    figures[chapter] = (index, caption)
                }
            }
        }

        let born = (facts.published?.year ?? 2020) - writer.rng.int(in: 45...80)
        let now = facts.published?.year ?? 2020
        var chapters: [Chapter] = []
        for number in 1...plan.chapterCount {
            if sample, number > 2 || number == 2 && chapters[0].textBytes >= shortChapter { break }
            let target = plan.target(chapter: number, &writer.rng)
            let chapter: Chapter
            switch plan.kind {
            case .crime, .fantasy, .family:
                chapter = writer.storyChapter(number: number, target: target, short: false, figure: figures[number])
            case .children:
                chapter = writer.storyChapter(number: number, target: target, short: true, figure: figures[number])
            case .biography:
                chapter = writer.lifeChapter(
                    number: number, of: plan.chapterCount, born: born, now: now, target: target)
            case .facts:
                guard let topic else { preconditionFailure("a non-fiction book has a topic") }
                chapter = writer.factsChapter(
                    number: number, topic: topic, target: target,
                    tableNumber: number == 1 ? 1 : nil, figure: figures[number])
            case .poetry:
                chapter = writer.poemChapter(number: number, target: target)
            }
            chapters.append(chapter)
        }
        // A sample carries only the pictures its chapters show: the first ones, as figures run in chapter order.
        if sample {
            let shown = chapters.reduce(0) { count, chapter in
                count + chapter.blocks.filter { if case .figure = $0 { true } else { false } }.count
            }
            illustrations = Array(illustrations.prefix(shown))
        }
        return Manuscript(chapters: chapters, illustrations: illustrations, textLanguage: facts.textLanguageTag)
    }
}
