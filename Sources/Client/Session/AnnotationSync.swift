import Catalog
import Foundation
import Reader
import ReadingState
import Shelf

/// Bookmarks, highlights and notes of one book kept in step with a server: calibre's content
/// server or a lending library's annotation service (issue 30).
protocol AnnotationSyncing: Sendable {
    var store: ShelfStore { get }
    var book: BookID { get }
    /// Fetches the server's annotations, applies the newer ones, and sends what is newer here.
    @discardableResult
    func merge(_ content: BookContent) async throws -> MergeOutcome
    /// Sends the changes made here that wait, and forgets them once the server has them.
    func sendWaiting(_ content: BookContent) async throws
}

/// What a merge did.
struct MergeOutcome: Sendable {
    /// How many of the server's annotations do not fit this copy of the book (left there).
    var unfit = 0
    /// How many changes from the server were made on the shelf.
    var applied = 0
}

/// Bookmarks, highlights and notes of one book through calibre's content server (issue 30).
///
/// calibre keeps one entry per annotation and user, the newer timestamp winning; bok does the
/// same with the shelf: what the server has newer is applied here (added, changed or deleted),
/// what is newer here waits on the shelf and is sent. Places travel as CFIs in calibre's form,
/// worked out from the book's own text (`BookContent`), and a place that does not fit this copy
/// of the book is left on the server untouched.
struct AnnotationSync: AnnotationSyncing {
    let store: ShelfStore
    let book: BookID
    let link: CalibreBookLink
    let client: CalibreSync

    typealias Key = SyncedAnnotation.Key

    @discardableResult
    func merge(_ content: BookContent) async throws(CalibreSync.Failure) -> MergeOutcome {
        let remote = try await client.annotations(of: link)
        guard let local = try? store.localAnnotations(of: book) else { return MergeOutcome() }
        let here = AnnotationSync.keyed(local)
        var changes: [SyncedChange] = []
        var newerHere: [(kind: SyncedAnnotation.Kind, key: String)] = []
        var seen = Set<Key>()
        var unfit = 0
        for annotation in remote {
            let key = Key(kind: annotation.kind, key: annotation.key)
            guard seen.insert(key).inserted else { continue }
            let mine = here[key]
            if let mine {
                let (ours, theirs) = (Self.milliseconds(mine.time), Self.milliseconds(annotation.time))
                // calibre keeps its own on a tie, and so does bok: the server's wins.
                if ours > theirs {
                    newerHere.append((key.kind, key.key))
                    continue
                }
                if ours == theirs && mine.removed == annotation.removed { continue }
            }
            if annotation.removed {
                if mine != nil, mine?.removed == false {
                    changes.append(.removed(annotation.kind, key: annotation.key, time: annotation.time))
                }
                continue
            }
            guard let change = Self.change(annotation, replacing: mine, in: content) else {
                unfit += 1
                continue
            }
            changes.append(change)
        }
        for annotation in local
        where !annotation.removed && !seen.contains(Key(kind: annotation.kind, key: annotation.key)) {
            newerHere.append((annotation.kind, annotation.key))
        }
        try? store.applySynced(changes, to: book)
        try? store.queueAnnotations(newerHere, of: book)
        try await sendWaiting(content)
        return MergeOutcome(unfit: unfit, applied: changes.count)
    }

    /// Sends the changes made here that wait, and forgets them once the server has them.
    func sendWaiting(_ content: BookContent) async throws(CalibreSync.Failure) {
        guard let waiting = try? store.pendingAnnotations(of: book), !waiting.isEmpty,
            let local = try? store.localAnnotations(of: book)
        else { return }
        let here = AnnotationSync.keyed(local)
        var sending: [SyncedAnnotation] = []
        var places: [(kind: SyncedAnnotation.Kind, key: String, start: String, end: String?)] = []
        for change in waiting {
            guard let kind = SyncedAnnotation.Kind(rawValue: change.kind),
                let mine = here[Key(kind: kind, key: change.key)]
            else { continue }
            guard let annotation = Self.synced(mine, in: content) else { continue }
            if !mine.removed, mine.startCFI == nil, let start = annotation.start {
                places.append((kind, mine.key, start, annotation.end))
            }
            sending.append(annotation)
        }
        try await client.send(sending, of: link)
        // Whatever had nothing to send (gone meanwhile, no place in this copy) is forgotten too.
        try? store.annotationsSent(waiting)
        try? store.recordPlaces(places, of: book)
    }

    /// The shelf's annotations by their identity on the server.
    static func keyed(_ local: [LocalAnnotation]) -> [Key: LocalAnnotation] {
        Dictionary(local.map { (Key(kind: $0.kind, key: $0.key), $0) }, uniquingKeysWith: { a, _ in a })
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// The server's annotation as a change on the shelf, with its places found in this copy.
    static func change(
        _ annotation: SyncedAnnotation, replacing mine: LocalAnnotation?, in content: BookContent
    )
        -> SyncedChange?
    {
        guard let startCFI = annotation.start, let start = place(startCFI, in: content) else { return nil }
        switch annotation.kind {
        case .bookmark:
            let uuid = annotation.uuid.flatMap(UUID.init(uuidString:))?.uuidString ?? mine?.uuid ?? UUID().uuidString
            return .bookmark(key: annotation.key, uuid: uuid, at: start, cfi: startCFI, time: annotation.time)
        case .highlight:
            guard let endCFI = annotation.end, var end = place(endCFI, in: content) else { return nil }
            if end < start { end = start }
            let id =
                mine?.uuid.flatMap(UUID.init(uuidString:))
                ?? UUID(uuidString: annotation.key).flatMap { $0.uuidString == annotation.key ? $0 : nil } ?? UUID()
            // A server that keeps no colour (a library's) leaves the one chosen here.
            let color: HighlightColor =
                annotation.color == "red"
                ? .pink : annotation.color.flatMap(HighlightColor.init(rawValue:)) ?? mine?.color ?? .yellow
            let highlight = Highlight(
                id: id, start: start, end: end, color: color, note: annotation.note,
                text: text(from: start, to: end, in: content) ?? annotation.text, created: annotation.time)
            return .highlight(highlight, key: annotation.key, startCFI: startCFI, endCFI: endCFI, time: annotation.time)
        }
    }

    /// This machine's annotation as a server keeps it, its places in calibre's form of CFI or the
    /// standard one; nil when its place cannot be written.
    static func synced(
        _ mine: LocalAnnotation, in content: BookContent, form: EPUBCFI.Form = .calibre
    ) -> SyncedAnnotation? {
        var annotation = SyncedAnnotation(kind: mine.kind, key: mine.key, time: mine.time, removed: mine.removed)
        guard !mine.removed else { return annotation }
        guard let start = mine.start,
            let startCFI = mine.startCFI ?? content.cfi(for: start, form: form)?.string
        else { return nil }
        annotation.start = startCFI
        annotation.spineIndex = start.spineIndex
        switch mine.kind {
        case .bookmark:
            annotation.uuid = mine.uuid
        case .highlight:
            guard let end = mine.end, let endCFI = mine.endCFI ?? content.cfi(for: end, form: form)?.string
            else { return nil }
            annotation.end = endCFI
            annotation.text = mine.text
            annotation.note = mine.note
            annotation.color = mine.color == .pink ? "red" : mine.color?.rawValue
        }
        return annotation
    }

    /// Where a CFI from the server is in this copy, with the words there.
    static func place(_ cfi: String, in content: BookContent) -> Locator? {
        guard let parsed = EPUBCFI(cfi), let found = content.locator(for: parsed) else { return nil }
        return content.locator(spineIndex: found.spineIndex, offset: found.offset)
    }

    /// The text between two places of one chapter, as bok shows it (bounded).
    static func text(from start: Locator, to end: Locator, in content: BookContent) -> String? {
        guard start.spineIndex == end.spineIndex else { return nil }
        let text = content.plainText(at: start.spineIndex)
        let utf16 = text.utf16
        guard end.offset <= utf16.count, start.offset <= end.offset else { return nil }
        let from = utf16.index(utf16.startIndex, offsetBy: start.offset)
        let to = utf16.index(utf16.startIndex, offsetBy: end.offset)
        let words = String(text[from..<to]).split(whereSeparator: \.isNewline).joined(separator: " ")
        return words.isEmpty ? nil : String(words.prefix(SyncedAnnotation.Limits.text))
    }
}
