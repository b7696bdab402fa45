public import Foundation
import Localization

/// The id of a bookmark or highlight: unique, and stable across sessions.
public typealias AnnotationID = UUID

/// A place the patron marked to come back to.
public struct Bookmark: Sendable, Hashable, Codable, Identifiable {
    /// The bookmark's id.
    public var id: AnnotationID
    /// Where it is; its snippet names the place in lists.
    public var locator: Locator
    /// When it was made.
    public var created: Date

    /// Creates a bookmark.
    public init(id: AnnotationID = AnnotationID(), locator: Locator, created: Date = Date()) {
        self.id = id
        self.locator = locator
        self.created = created
    }
}

/// The colours a highlight can have, each with a key for choosing it.
public enum HighlightColor: String, Sendable, Hashable, Codable, CaseIterable {
    case yellow, green, blue, pink, purple

    /// The key that chooses the colour in the reading view (`1` … `5`).
    public var key: Character {
        Character(String((HighlightColor.allCases.firstIndex(of: self) ?? 0) + 1))
    }

    /// The colour's name in the interface language (the raw value is what is stored).
    public var name: String {
        switch self {
        case .yellow: tr("yellow")
        case .green: tr("green")
        case .blue: tr("blue")
        case .pink: tr("pink")
        case .purple: tr("purple")
        }
    }
}

/// A marked stretch of text, with a colour and an optional note.
public struct Highlight: Sendable, Hashable, Codable, Identifiable {
    /// The highlight's id.
    public var id: AnnotationID
    /// Where the marked text begins.
    public var start: Locator
    /// Where it ends (exclusive), in the same or a later spine item.
    public var end: Locator
    /// Its colour.
    public var color: HighlightColor
    /// The patron's note, if any.
    public var note: String?
    /// The marked text, kept so notes can be listed without opening the book.
    public var text: String
    /// When it was made.
    public var created: Date

    /// Creates a highlight.
    public init(
        id: AnnotationID = AnnotationID(), start: Locator, end: Locator, color: HighlightColor,
        note: String? = nil, text: String, created: Date = Date()
    ) {
        self.id = id
        self.start = start
        self.end = end
        self.color = color
        self.note = note
        self.text = text
        self.created = created
    }
}

/// How fast the patron read a stretch of text: one page, or one screen in scroll mode.
public struct PaceSample: Sendable, Hashable, Codable {
    /// Characters of text read (UTF-16 code units of the plain text).
    public var characters: Int
    /// Seconds it took.
    public var seconds: Double
    /// When it was taken.
    public var date: Date

    /// Creates a sample.
    public init(characters: Int, seconds: Double, date: Date = Date()) {
        self.characters = characters
        self.seconds = seconds
        self.date = date
    }

    /// Characters a second.
    public var charactersPerSecond: Double { seconds > 0 ? Double(characters) / seconds : 0 }
}
