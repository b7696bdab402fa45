/// What the reader says for a screen reader (``LinearReaderOutput``), decided by the view: the
/// page as lines of text with its headings, list items, links, notes and pictures in words; an
/// open panel; the message; the line being typed. The output writes what is new in it, once.
struct ReaderTranscript: Equatable {
    /// The page's lines, in reading order, without indent, justification or styles.
    var page: [String]
    /// Where the page is: `Page 3 of 12`, with the chapter's name.
    var place: String
    /// The open panel, if any.
    var panel: PanelContent?
    /// The panel's rows as a list a screen reader reads: numbered where a number chooses.
    var panelLines: [String]
    /// How to use the open panel, in words (no arrows drawn as symbols).
    var panelHelp: String?
    /// The message of the last key (`Bookmark added.`), or the question before opening a link.
    var message: String?
    /// The line being typed (`/` and the search so far), if one is.
    var prompt: String?
}
