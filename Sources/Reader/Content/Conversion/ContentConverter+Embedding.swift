import Foundation
import Markup
import TextSafety

extension ContentConverter {
    /// Shows what the gatherer gathered: MathML as text, a block of its own when
    /// `display="block"` and a line a row for tables; SVG and an `<object>` as pictures.
    mutating func showGathered() {
        guard let root = gatherer.finish() else { return }
        switch root.localName {
        case "svg":
            showDrawing(root)
        case "object":
            let words = root.text
            let alt = words.isEmpty ? (root.attribute("title") ?? "").trimmed : words
            let picture = ImageReference(path: resolveImage(root.attribute("data")), alt: alt)
            appendSpecialBlock(.image(picture))
        default:
            showMath(root)
        }
    }

    private mutating func showMath(_ root: MarkupElement) {
        let display = root.attribute("display")?.lowercased() == "block"
        let text = MathLinearizer.text(of: root)
        guard !text.isEmpty else { return }
        if display { breakBlock() }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { chapter.block.appendLineBreak(style: stack.style) }
            // Literal: the spaces between a table's cells are kept.
            if !line.isEmpty { chapter.block.appendLiteral(String(line), style: stack.style) }
        }
        if display { breakBlock() }
    }

    /// An SVG drawing as a picture, labelled by its `<title>`, description or text: the raster
    /// image it embeds (a cover wrapped in SVG), else the drawing itself, drawn by librsvg from
    /// a `data:` copy of it. Where neither can be drawn the label is shown, so the reader learns
    /// what the drawing is rather than seeing `[image]`.
    private mutating func showDrawing(_ root: MarkupElement) {
        let image = root.descendants("image").first ?? root.descendants("img").first
        let href = image.flatMap { $0.attribute("xlink:href") ?? $0.attribute("href") ?? $0.attribute("src") }
        let words =
            root.descendants("title").first?.text ?? root.descendants("desc").first?.text ?? SVGSource.words(root)
        let label = words.count > 120 ? SafeText.line(words, limit: 120) : words
        var source = resolveImage(href)
        if source == nil, let document = SVGSource.document(root), document.utf8.count <= DataURL.maxBytes {
            source = "data:image/svg+xml;base64," + Data(document.utf8).base64EncodedString()
        }
        let picture = ImageReference(path: source, alt: label)
        appendSpecialBlock(.image(picture))
    }

    /// A picture's source as the path of a resource in the book, or the `data:` URL itself
    /// (the picture is inline; see ``DataURL``). Called, not passed as a function (`flatMap`):
    /// a method passed as a value captures a copy of the whole converter.
    func resolveImage(_ source: String?) -> String? {
        guard let source else { return nil }
        let trimmed = source.trimmed
        if DataURL.isDataURL(trimmed) { return trimmed }
        return BookPath.resolve(source, relativeTo: path)?.path
    }

    /// An `<iframe>`: the content document of the book it shows, in place, as EPUB reading systems
    /// render it (once: a frame inside it is not followed); a page outside the book as a link.
    mutating func showInlineFrame(source: String?, title: String?) {
        guard let source = source?.trimmed, !source.isEmpty else { return }
        guard let target = BookPath.resolve(source, relativeTo: path) else {
            // A web page is a link to it; other schemes (a data: URL, javascript:) show nothing.
            let lower = source.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return }
            let label = title?.trimmed ?? ""
            let text = label.isEmpty ? source : label
            chapter.block.appendRun(
                text, length: text.utf16.count, style: stack.style.union(.link), link: .external(source))
            breakBlock()
            return
        }
        guard let bytes = documents.bytes(of: target.path, inside: path) else { return }
        readEmbedded(bytes, path: target.path)
    }

    /// Reads a document a frame shows, inside the frame's nesting, and gives that back after it.
    private mutating func readEmbedded(_ bytes: [UInt8], path embeddedPath: String) {
        let outer = (path: path, frames: stack.count, lists: lists.open, nesting: nesting)
        path = embeddedPath
        documents.depth += 1
        read(bytes)
        if gatherer.isGathering { showGathered() }
        breakBlock()
        // Whatever the embedded document left open ends with it.
        while stack.count > outer.frames, let innermost = stack.frames.last { popFrame(named: innermost.name) }
        documents.depth -= 1
        path = outer.path
        lists.open = outer.lists
        nesting = outer.nesting
        routing = TextRouting()
    }
}
