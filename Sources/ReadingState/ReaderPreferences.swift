/// The reading settings a patron chooses: text column, spacing, theme, and how pages turn.
///
/// Stored per book and as a default for new books. The screen's size is not part of them: it
/// comes from the terminal each time, and ``layoutSettings(columns:rows:)`` combines the two.
public struct ReaderPreferences: Sendable, Hashable, Codable {
    /// The colours of the page.
    public enum Theme: String, Sendable, Hashable, Codable, CaseIterable {
        /// Dark text on a light page (the default).
        case day
        /// Light text on a dark page.
        case night
        /// Dark brown text on a warm, paper-like page.
        case sepia
    }

    /// How the text moves.
    public enum Flow: String, Sendable, Hashable, Codable, CaseIterable {
        /// Whole pages that turn.
        case paged
        /// One continuous column that scrolls by lines or screens, across chapters.
        case scroll
    }

    /// Empty cells left and right of the text.
    public var margin: Int
    /// Blank lines between lines of text.
    public var lineSpacing: LineSpacing
    /// Whether lines are justified.
    public var justify: Bool
    /// Whether words are hyphenated by their language's patterns; nil: when lines are justified.
    public var hyphenate: Bool?
    /// How paragraphs are told apart.
    public var paragraphStyle: ParagraphStyle
    /// The widest text column in cells, or `nil` for the whole screen less margins (the layout's
    /// `maxTextWidth`; stored as `textWidth`).
    public var maxTextWidth: Int?
    /// The colours.
    public var theme: Theme
    /// Steps brighter (positive) or dimmer (negative) than the theme, from -3 to 3.
    public var brightness: Int
    /// Paged or scrolling.
    public var flow: Flow
    /// Two pages side by side when the screen is wide enough.
    public var twoPage: Bool
    /// Draw images (where the terminal can) rather than their `[image: …]` labels.
    public var showImages: Bool
    /// The eSpeak NG voice for reading aloud; nil: the voice of the book's language.
    public var voice: String?
    /// Reading-aloud speed in words a minute; nil: 175.
    public var speechRate: Int?
    /// Reading-aloud pitch, 0–99; nil: 50.
    public var speechPitch: Int?

    /// The names stored in the shelf's database, which stay as they were saved.
    enum CodingKeys: String, CodingKey {
        case margin, lineSpacing, justify, hyphenate, paragraphStyle, theme, brightness, flow, twoPage, showImages
        case voice, speechRate, speechPitch
        case maxTextWidth = "textWidth"
    }

    /// The brightness steps allowed.
    public static let brightnessRange = -3...3

    /// Creates preferences; the defaults are a 72-cell column, day theme, paged.
    public init(
        margin: Int = 2, lineSpacing: LineSpacing = .single, justify: Bool = false,
        paragraphStyle: ParagraphStyle = .book, maxTextWidth: Int? = 72, theme: Theme = .day,
        brightness: Int = 0, flow: Flow = .paged, twoPage: Bool = false, showImages: Bool = true
    ) {
        self.margin = margin
        self.lineSpacing = lineSpacing
        self.justify = justify
        self.paragraphStyle = paragraphStyle
        self.maxTextWidth = maxTextWidth
        self.theme = theme
        self.brightness = brightness
        self.flow = flow
        self.twoPage = twoPage
        self.showImages = showImages
    }
}

/// Blank lines between lines of text.
public enum LineSpacing: String, Sendable, Hashable, Codable, CaseIterable {
    /// No blank lines.
    case single
    /// A blank line after every second line.
    case oneAndHalf
    /// A blank line after every line.
    case double
}

/// How paragraphs are told apart.
public enum ParagraphStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// The first line of each paragraph after the first is indented; no blank lines.
    case indent
    /// A blank line between paragraphs; no indent.
    case blankLine
    /// Whatever the book's CSS says (`text-indent` on `p`), else a blank line.
    case book
}
