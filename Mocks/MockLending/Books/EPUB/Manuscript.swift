/// A book as the prose generator writes it, before it becomes files: chapters of blocks whose
/// inline text is already XHTML (escaped, with `<em>`, note references and links).
struct Manuscript: Sendable {
    /// The chapters, in reading order.
    var chapters: [Chapter]
    /// The inline pictures; `Block.figure` refers to them by index.
    var illustrations: [Illustration]
    /// The language the prose is written in, when it is not the book's (a German title's text
    /// is Swedish here; the chapters say so with `xml:lang`).
    var textLanguage: String
}

/// One chapter: a file of its own in the EPUB.
struct Chapter: Sendable {
    /// The title as the table of contents shows it (plain text).
    var title: String
    /// The body, in order.
    var blocks: [Block]
    /// The footnotes referenced in this chapter, as `(number, XHTML text)`; numbers run through the book.
    var notes: [(number: Int, text: String)]
    /// UTF-8 bytes of the chapter's prose (its text without markup), for sizing the book.
    var textBytes: Int
}

/// A piece of a chapter's body.
enum Block: Sendable {
    /// A paragraph; `first` ones (after a heading or a scene break) have no indent.
    case paragraph(String, first: Bool)
    /// A section heading with an id that links can point at.
    case heading(String, id: String)
    /// A bulleted list of XHTML items.
    case list([String])
    /// A table with a caption, header cells and rows of cells (all XHTML), and an id.
    case table(caption: String, header: [String], rows: [[String]], id: String)
    /// A poem: its title (and id) and stanzas of lines.
    case poem(title: String, id: String, stanzas: [[String]])
    /// An illustration (index into `Manuscript.illustrations`) with a caption.
    case figure(Int, caption: String)
    /// A break between scenes.
    case sceneBreak
    /// A date line opening an episode of a life.
    case dateline(String)
}

/// A generated PNG and what it shows.
struct Illustration: Sendable {
    /// The PNG file.
    var png: [UInt8]
    /// The alternative text, in the book's language.
    var alt: String
}

/// Escaping for XHTML text and attribute values.
enum XML {
    /// `text` with `&`, `<`, `>` and `"` escaped, safe in text and in double-quoted attributes.
    static func escape(_ text: String) -> String {
        // Most text has nothing to escape; checking bytes first keeps that case a plain copy.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for ch in text.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
