internal import Foundation

/// Chapters of stories: crime, fantasy, family novels and children's books.
///
/// A chapter opens with its setting, then runs scenes of action, talk and thought until it has
/// its length, and closes on a line that leads on. Children's chapters use the same shape with
/// shorter paragraphs.
extension ProseWriter {
    /// Writes chapter `number` of about `target` bytes of text.
    /// - Parameter figure: An illustration to place in the chapter, with its caption.
    mutating func storyChapter(number: Int, target: Int, short: Bool, figure: (index: Int, caption: String)?) -> Chapter
    {
        beginChapter(number)
        var blocks: [Block] = []
        func add(_ text: String, first: Bool = false) {
            blocks.append(.paragraph(text, first: first))
            count(text)
        }
        let most = short ? 3 : 6
        add(paragraph(["setting", "setting", "action"], count: rng.int(in: 1...(short ? 2 : 4))), first: true)
        if let figure {
            blocks.append(.figure(figure.index, caption: figure.caption))
        }
        var notesLeft = rng.chance(short ? 0.15 : 0.4) ? 1 : 0
        var sceneStart = 0
        while written < target {
            let roll = rng.unit()
            if roll < 0.5 {
                var text = paragraph(["action", "action", "thought", "action"], count: rng.int(in: 1...most))
                if notesLeft > 0, written > target / 4 {
                    notesLeft -= 1
                    text = annotate(text, from: "note")
                    if number > 2, rng.chance(0.5) {
                        // Some notes send the reader back to an earlier chapter.
                        let earlier = rng.int(in: 1...(number - 1))
                        let linkText = english ? "Chapter \(numberWord(earlier))" : "kapitel \(numberWord(earlier))"
                        notes[notes.count - 1].text +=
                            english
                            ? " See also \(link(toChapter: earlier, text: linkText))."
                            : " Se även \(link(toChapter: earlier, text: linkText))."
                    }
                }
                add(text)
            } else if roll < 0.68 {
                // Mostly the book's own talk with its own people; now and then small talk with the friend.
                let chat = !short && rng.chance(0.25)
                let partner = chat || cast.partners.isEmpty ? cast["friend"] : rng.pick(cast.partners)
                for line in dialogue(chat ? "chat" : "exchange", with: partner) { add(line) }
            } else if roll < 0.92 {
                add(paragraph(["thought", "action"], count: rng.int(in: 1...(short ? 2 : 3))))
            } else if written - sceneStart > 2_000 {
                blocks.append(.sceneBreak)
                add(paragraph(["setting", "action"], count: rng.int(in: 1...(short ? 2 : 4))), first: true)
                sceneStart = written
            }
        }
        add(sentence("closing"))
        let title = "\(number). \(Self.capitalised(sentence("title")))"
        return Chapter(title: Self.plain(title), blocks: blocks, notes: notes, textBytes: written)
    }

    /// Markup-free text for titles (the phrase patterns escape `&`, which a title shows as text).
    static func plain(_ xhtml: String) -> String {
        guard xhtml.contains("&") || xhtml.contains("<") else { return xhtml }
        var out = ""
        var inTag = false
        for ch in xhtml {
            if ch == "<" { inTag = true } else if ch == ">" { inTag = false } else if !inTag { out.append(ch) }
        }
        return out.replacingEntities
    }
}

extension String {
    /// With the five XML entities turned back into characters.
    var replacingEntities: String {
        guard contains("&") else { return self }
        var out = self
        for (entity, ch) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&amp;", "&")] {
            while let range = out.range(of: entity) { out.replaceSubrange(range, with: ch) }
        }
        return out
    }
}
