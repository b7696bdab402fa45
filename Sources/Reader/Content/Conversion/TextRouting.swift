/// Where the text of the document goes, rather than into the chapter: nowhere inside skipped
/// content and the `head` but for its `title`, and into the stylesheets inside a `<style>`.
struct TextRouting {
    /// How many elements deep inside skipped content (hidden, a drawing, an iframe's fallback).
    var skipDepth = 0
    var inHead = false
    var inTitle = false
    var inStyle = false
}
