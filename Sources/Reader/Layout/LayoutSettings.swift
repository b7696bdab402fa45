/// How a chapter is laid out: the width, margins, spacing and paragraph style the reader chose.
public struct LayoutSettings: Sendable, Hashable, Codable {
    /// Blank lines between lines of text (the reader's preferences say it: ReadingState).
    public typealias LineSpacing = ReadingState.LineSpacing
    /// How paragraphs are told apart (the reader's preferences say it: ReadingState).
    public typealias ParagraphStyle = ReadingState.ParagraphStyle

    /// The width of the screen in terminal cells.
    public var width: Int
    /// The height of a page in rows.
    public var rows: Int
    /// Empty cells left and right of the text.
    public var margin: Int
    /// Blank lines between lines.
    public var lineSpacing: LineSpacing
    /// Whether lines are justified (spaces distributed so both edges are straight).
    public var justify: Bool
    /// How paragraphs are separated.
    public var paragraphStyle: ParagraphStyle
    /// Cells of first-line indent when paragraphs are indented.
    public var indentWidth: Int
    /// The widest text column, however wide the screen (long lines are hard to read).
    public var maxTextWidth: Int?
    /// Whether images get rows for their pictures (else one row for their label).
    public var showImages: Bool
    /// Whether words are hyphenated at the points their language's patterns allow.
    public var hyphenate: Bool
    /// The book's language (`dc:language`), for chapters that do not declare their own.
    public var language: String?

    /// Creates settings.
    public init(
        width: Int = 80, rows: Int = 24, margin: Int = 2, lineSpacing: LineSpacing = .single,
        justify: Bool = false, paragraphStyle: ParagraphStyle = .book, indentWidth: Int = 2,
        maxTextWidth: Int? = nil, showImages: Bool = false, hyphenate: Bool = false, language: String? = nil
    ) {
        self.width = width
        self.rows = rows
        self.margin = margin
        self.lineSpacing = lineSpacing
        self.justify = justify
        self.paragraphStyle = paragraphStyle
        self.indentWidth = indentWidth
        self.maxTextWidth = maxTextWidth
        self.showImages = showImages
        self.hyphenate = hyphenate
        self.language = language
    }

    /// The cells and rows a picture of `pixels` takes: scaled to the text width (but to no
    /// more than twice its size at 8 pixels a cell), two pixel rows per text row (upper
    /// half-blocks), and never taller than a page less a row.
    public func imageCells(pixels: (width: Int, height: Int)) -> (columns: Int, rows: Int) {
        let (width, height) = (max(1, pixels.width), max(1, pixels.height))
        var columns = max(1, min(textWidth, (width * 2 + 7) / 8))
        var rows = Self.textRows(pixels: (width, height), columns: columns)
        let most = max(1, self.rows - 1)
        if rows > most {
            rows = most
            columns = max(1, min(columns, rows * 2 * width / height))
        }
        return (columns, rows)
    }

    /// Text rows a picture takes at `columns` cells across: two pixel rows a text row, rounded up.
    public static func textRows(pixels: (width: Int, height: Int), columns: Int) -> Int {
        let (width, height) = (max(1, pixels.width), max(1, pixels.height))
        return max(1, (height * columns + 2 * width - 1) / (2 * width))
    }

    /// The cells available for text after margins (never less than 8).
    public var textWidth: Int {
        let available = max(8, width - 2 * max(0, margin))
        return maxTextWidth.map { min(available, max(8, $0)) } ?? available
    }

    /// The left edge of the text column: the margin, plus centring when `maxTextWidth` applies.
    public var leftEdge: Int {
        let margin = max(0, self.margin)
        return max(0, margin + (width - 2 * margin - textWidth) / 2)
    }
}
