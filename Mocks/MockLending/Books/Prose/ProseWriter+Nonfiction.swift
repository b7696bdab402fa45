/// Chapters of memoirs, non-fiction and poetry.
extension ProseWriter {
    // MARK: Biography

    /// Chapter `number` of a life told in `chapters` chapters, from `born` to `now`, in dated episodes.
    mutating func lifeChapter(number: Int, of chapters: Int, born: Int, now: Int, target: Int) -> Chapter {
        beginChapter(number)
        let span = max(chapters, now - born)
        let from = born + (number - 1) * span / chapters
        let to = max(from, born + number * span / chapters - 1)
        // The stage follows age, so a long life spends more chapters on its middle than its start.
        let age = from - born
        let stages = Phrasebook.lifeStages
        let stageIndex =
            number == 1
            ? 0 : min(stages.count - 1, max(1, [0, 7, 16, 22, 26, 32, 45, 60].lastIndex { age >= $0 } ?? 0))
        let stage = stages[stageIndex]
        var blocks: [Block] = []
        var year = from
        var season = 0
        var first = true
        var notesLeft = rng.chance(0.5) ? 1 : 0
        while written < target || first {
            let seasonName = book.lists["seasonName"]![season]
            let dateline = english ? "\(seasonName) \(year)" : "\(seasonName) \(year)"
            blocks.append(.dateline(dateline))
            count(dateline)
            for paragraphIndex in 0..<rng.int(in: 1...3) {
                var text: String
                if first, number == 1 {
                    text = sentence("birth") + " " + paragraph([stage, "memory"], count: rng.int(in: 1...3))
                } else if number > 1, rng.chance(0.06) {
                    text =
                        sentence("recall") + " " + paragraph(["episode", "memory", stage], count: rng.int(in: 1...3))
                } else {
                    text = paragraph([stage, "episode", "memory", "episode", stage], count: rng.int(in: 2...5))
                }
                if notesLeft > 0, written > target / 3 {
                    notesLeft -= 1
                    text = annotate(text, from: "note")
                }
                blocks.append(.paragraph(text, first: paragraphIndex == 0))
                count(text)
                first = false
            }
            season += rng.int(in: 1...2)
            if season >= 4 {
                season -= 4
                year = min(to, year + 1)
            }
        }
        var titleText = ""
        fill(book.pools["title"]![stageIndex], into: &titleText)
        let title = "\(from == to ? String(from) : "\(from)–\(to)"). \(titleText)"
        return Chapter(title: Self.plain(title), blocks: blocks, notes: notes, textBytes: written)
    }

    // MARK: Non-fiction

    /// Chapter `number` of a non-fiction book on `topic`: sections with headings, a list of tips,
    /// notes with references, and (in `tableChapter`s) the topic's table and a link back to it.
    mutating func factsChapter(
        number: Int, topic: FactsTopic, target: Int, tableNumber: Int?,
        figure: (index: Int, caption: String)?
    ) -> Chapter {
        beginChapter(number)
        var blocks: [Block] = []
        let intro = paragraph(["intro", "fact"], count: rng.int(in: 2...3))
        blocks.append(.paragraph(intro, first: true))
        count(intro)
        var section = 0
        var listDone = false
        var tableDone = tableNumber == nil
        var figureDone = figure == nil
        var notesLeft = rng.int(in: 1...3)
        while written < target || !tableDone || !figureDone {
            section += 1
            let heading = sentence("section")
            blocks.append(.heading(heading, id: "section-\(number)-\(section)"))
            count(heading)
            for index in 0..<rng.int(in: 1...4) {
                var text = paragraph(["fact", "fact", "fact"], count: rng.int(in: 2...5))
                if number > 1, rng.chance(0.08) { text += " " + sentence("recall") }
                if notesLeft > 0, rng.chance(0.5) {
                    notesLeft -= 1
                    text = annotate(text, from: "note")
                }
                blocks.append(.paragraph(text, first: index == 0))
                count(text)
            }
            if !listDone, section >= 1, rng.chance(0.6) || written > target / 2 {
                listDone = true
                var items: [String] = []
                for _ in 0..<rng.int(in: 3...5) { items.append(sentence("tip")) }
                blocks.append(.list(items))
                for item in items { count(item) }
            }
            if !tableDone, let tableNumber {
                tableDone = true
                let lead = sentence("tableRef")
                blocks.append(.paragraph(lead, first: true))
                count(lead)
                let caption =
                    (english ? "Table \(tableNumber). " : "Tabell \(tableNumber). ") + XML.escape(topic.caption)
                blocks.append(
                    .table(
                        caption: caption, header: topic.header.map(XML.escape),
                        rows: topic.rows.map { $0.map(XML.escape) },
                        id: "table-\(tableNumber)"))
                for row in topic.rows { for cell in row { count(cell) } }
            } else if !figureDone, let figure {
                figureDone = true
                blocks.append(.figure(figure.index, caption: figure.caption))
            }
        }
        if number > 1, let table = tableNumber == nil ? 1 : nil {
            // Later chapters point back to the first table, in the first chapter.
            let text =
                english
                ? """
                The figures in \(link(toChapter: 1, fragment: "table-\(table)", text: "table \(table)")) apply \
                here too.
                """
                : """
                Siffrorna i \(link(toChapter: 1, fragment: "table-\(table)", text: "tabell \(table)")) gäller även \
                här.
                """
            blocks.append(.paragraph(text, first: false))
            count(text)
        }
        let title = "\(number). \(sentence("title"))"
        return Chapter(title: Self.plain(title), blocks: blocks, notes: notes, textBytes: written)
    }

    // MARK: Poetry

    /// Section `number` of a collection: a handful of short poems in stanzas.
    mutating func poemChapter(number: Int, target: Int) -> Chapter {
        beginChapter(number)
        var blocks: [Block] = []
        var poem = 0
        var notesLeft = rng.chance(0.3) ? 1 : 0
        while written < target || poem == 0 {
            poem += 1
            var title = sentence("poemTitle")
            if notesLeft > 0, poem > 1 {
                notesLeft -= 1
                title = annotate(title, from: "note")
            }
            var stanzas: [[String]] = []
            for stanza in 0..<rng.int(in: 2...4) {
                var lines: [String] = []
                for line in 0..<rng.int(in: 3...5) {
                    var text = ""
                    fill(draw("line"), into: &text)
                    lines.append(stanza == 0 && line == 0 ? Self.capitalised(text) : text)
                    count(text)
                }
                stanzas.append(lines)
            }
            stanzas[stanzas.count - 1][stanzas[stanzas.count - 1].count - 1] += "."
            blocks.append(.poem(title: title, id: "poem-\(number)-\(poem)", stanzas: stanzas))
            count(title)
        }
        let roman = [
            "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
            "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII", "XXIII", "XXIV", "XXV",
        ]
        let numeral = number <= roman.count ? roman[number - 1] : String(number)
        return Chapter(
            title: Self.plain("\(numeral). \(sentence("section"))"), blocks: blocks, notes: notes, textBytes: written)
    }
}
