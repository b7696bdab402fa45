/// How deep the text being read is inside the elements that shape its blocks. A document an
/// `<iframe>` shows starts from its frame's nesting and gives it back when it ends.
struct Nesting {
    var quoteDepth = 0
    /// Definition descriptions (`dd`), each indented a step as a nested list is.
    var extraIndent = 0
    /// Open `aside` elements and notes (see `ElementStack.Frame.isNote`): their blocks are notes.
    var noteDepth = 0
    var preDepth = 0
    /// Open table cells, where blocks only separate words.
    var cellDepth = 0
    /// Open `nav` elements: their ordered lists show no numbers.
    var navDepth = 0
    /// The closing marks of the `<q>` elements open now, innermost last.
    var quotationClosers: [String] = []
}
