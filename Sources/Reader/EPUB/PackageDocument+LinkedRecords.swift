import Markup

/// Linked metadata records (EPUB 3.3 `<link rel="record">`): an ONIX record in the book that gives
/// the title and authors, which then take precedence over the package's own.
extension PackageDocument {
    /// The title and authors of the ONIX records the package links to, each taken from the first
    /// record (in the order of the `link` elements) that gives one; `nil` where none does.
    ///
    /// EPUB RS 3.3: metadata in the first linked record has the highest precedence and the
    /// package's the lowest, and the package's is still read. Records outside the book are not
    /// fetched.
    static func linkedRecords(
        _ metadata: MarkupElement?, packagePath: String, archive: ZipArchive
    ) -> (title: String?, creators: [Contributor]?) {
        var title: String?
        var creators: [Contributor]?
        for link in metadata?.children("link") ?? [] {
            let rel = (link.attribute("rel") ?? "").lowercased().split(separator: " ")
            let properties = (link.attribute("properties") ?? "").lowercased().split(separator: " ")
            guard (rel.contains("record") && properties.contains("onix")) || rel.contains("onix-record"),
                let href = link.attribute("href"), let target = BookPath.resolve(href, relativeTo: packagePath),
                archive.contains(target.path), let bytes = try? archive.prefix(at: target.path, maxBytes: 4 << 20)
            else { continue }
            let record = MarkupElement.parse(bytes)
            let product = record.descendants("product").first ?? record
            if title == nil { title = onixTitle(product) }
            if creators == nil {
                let authors = onixAuthors(product)
                if !authors.isEmpty { creators = authors }
            }
            if title != nil, creators != nil { break }
        }
        return (title, creators)
    }

    /// The distinctive title (type 01) of an ONIX 3.0 or 2.1 product, reference or short tags.
    private static func onixTitle(_ product: MarkupElement) -> String? {
        func value(_ element: MarkupElement, _ names: String...) -> String? {
            for name in names {
                if let text = element.child(name)?.text, !text.isEmpty { return text }
            }
            return nil
        }
        let details = product.descendants("titledetail") + product.descendants("title")
        let detail = details.first { value($0, "titletype", "b202") == "01" } ?? details.first
        guard let detail else { return nil }
        let elements = detail.children("titleelement")
        let element = elements.first { value($0, "titleelementlevel", "x409") == "01" } ?? elements.first ?? detail
        if let text = value(element, "titletext", "b203") { return text }
        let parts = [value(element, "titleprefix", "b030"), value(element, "titlewithoutprefix", "b031")].compactMap {
            $0
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The product's authors (contributor role A01), in their sequence numbers' order.
    private static func onixAuthors(_ product: MarkupElement) -> [Contributor] {
        func value(_ element: MarkupElement, _ names: String...) -> String? {
            for name in names {
                if let text = element.child(name)?.text, !text.isEmpty { return text }
            }
            return nil
        }
        let contributors = product.descendants("contributor").enumerated().filter { _, contributor in
            contributor.children.contains {
                ($0.localName == "contributorrole" || $0.localName == "b035") && $0.text == "A01"
            }
        }.sorted { first, second in
            let a = value(first.element, "sequencenumber", "b034").flatMap { Int($0) } ?? Int.max
            let b = value(second.element, "sequencenumber", "b034").flatMap { Int($0) } ?? Int.max
            return a != b ? a < b : first.offset < second.offset
        }
        return contributors.compactMap { _, contributor in
            let name =
                value(contributor, "personname", "b036")
                ?? [value(contributor, "namesbeforekey", "b039"), value(contributor, "keynames", "b040")]
                .compactMap { $0 }.joined(separator: " ")
            let shown = name.isEmpty ? value(contributor, "corporatename", "b047") : name
            guard let shown, !shown.isEmpty else { return nil }
            return Contributor(
                name: shown, role: "aut", fileAs: value(contributor, "personnameinverted", "b037"))
        }
    }
}
