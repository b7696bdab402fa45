import Catalog
import Foundation
import Reader
import ReadingState
import Shelf

/// Bookmarks, highlights and notes of a loan kept at its lending library (Palace's annotation
/// service, issue 30), through the patron's card, once the patron has opted in.
///
/// The service only adds and deletes: an annotation has the id the library gave it and cannot
/// be changed. So a change made here is sent as a new annotation, and the one it replaces is
/// deleted after. Each one bok sends carries bok's own name for it (``WebAnnotation/key``: a
/// highlight's id, a bookmark's title), so a copy sent just before bok was killed is known again
/// and not made twice; ones other reading systems made are known by the library's id, which the
/// shelf keeps. The newer change wins, as with calibre; an annotation the library had and no
/// longer has was deleted on another device, unless it was changed here since.
struct LibraryAnnotationSync: AnnotationSyncing {
    let store: ShelfStore
    let book: BookID
    let link: LibraryAnnotationLink
    let client: LibraryAnnotations
    /// This machine's name, on each annotation it sends.
    let device: String
    /// Whether the book is on loan now, as the shelf last heard.
    var onLoan = true

    typealias Key = SyncedAnnotation.Key

    @discardableResult
    func merge(_ content: BookContent) async throws(LibraryAnnotations.Failure) -> MergeOutcome {
        let remote = try await client.annotations(at: link.service)
        guard let local = try? store.localAnnotations(of: book) else { return MergeOutcome() }
        let here = AnnotationSync.keyed(local)
        let known = (try? store.libraryAnnotationIDs(of: book)) ?? [:]
        let knownByID = Dictionary(known.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let waiting = Set(
            ((try? store.pendingAnnotations(of: book)) ?? []).compactMap { change in
                SyncedAnnotation.Kind(rawValue: change.kind).map { Key(kind: $0, key: change.key) }
            })
        var titles = Set(local.filter { $0.kind == .bookmark && !$0.removed }.map(\.key))

        // The library's copies of each annotation: one, or more when bok was stopped between sending
        // a change and deleting what it replaced.
        var order: [Key] = []
        var copies: [Key: [WebAnnotation]] = [:]
        var unfit = 0
        for annotation in remote {
            guard let id = annotation.id?.absoluteString else { continue }
            let kind: SyncedAnnotation.Kind
            switch annotation.motivation {
            case .bookmarking: kind = .bookmark
            case .highlighting: kind = .highlight
            case .readingPlace: continue
            }
            var key = annotation.key.map { Key(kind: kind, key: $0) } ?? knownByID[id]
            if key == nil {
                // Made by another reading system: named here by the library's id, a bookmark by its words.
                guard let place = AnnotationSync.place(annotation.cfi, in: content) else {
                    unfit += 1
                    continue
                }
                if kind == .bookmark {
                    let title = ShelfStore.uniqueTitle(ShelfStore.bookmarkTitle(place.snippet ?? ""), among: titles)
                    titles.insert(title)
                    key = Key(kind: kind, key: title)
                } else {
                    key = Key(kind: kind, key: id)
                }
            }
            guard let key, key.kind == kind else { continue }
            if copies[key] == nil { order.append(key) }
            copies[key, default: []].append(annotation)
        }

        var changes: [SyncedChange] = []
        var ids: [(key: Key, id: String?)] = []
        var newerHere: [(kind: SyncedAnnotation.Kind, key: String)] = []
        var superseded: [URL] = []
        for key in order {
            let all = copies[key] ?? []
            guard let newest = all.max(by: { ($0.time ?? .distantPast) < ($1.time ?? .distantPast) }),
                let id = newest.id
            else { continue }
            superseded += all.compactMap(\.id).filter { $0 != id }
            // A library's annotation without a time counts as the oldest there is.
            let when = newest.time ?? Date(timeIntervalSince1970: 0)
            let theirs = AnnotationSync.milliseconds(when)
            if let mine = here[key] {
                let ours = AnnotationSync.milliseconds(mine.time)
                if ours > theirs || (ours == theirs && !mine.removed) {
                    // Newer here (or the same): the library's copy stays until this one replaces it.
                    ids.append((key, id.absoluteString))
                    if ours > theirs { newerHere.append((key.kind, key.key)) }
                    continue
                }
            }
            var synced = SyncedAnnotation(kind: key.kind, key: key.key, time: when, removed: false)
            synced.start = newest.cfi
            synced.end = newest.endCFI
            synced.note = newest.note
            synced.text = newest.quote ?? ""
            guard let change = AnnotationSync.change(synced, replacing: here[key], in: content) else {
                unfit += 1
                continue
            }
            changes.append(change)
            ids.append((key, id.absoluteString))
        }
        // What the library had and has no longer was deleted on another device, unless it changed here
        // since. A library that has none of the book's any more once the loan ended forgot them
        // rather than every one being deleted elsewhere: nothing is deleted here, and they go again
        // when it is borrowed again.
        let forgotten = copies.isEmpty && !known.isEmpty && !onLoan
        for (key, _) in known where copies[key] == nil {
            ids.append((key, nil))
            if let mine = here[key], !mine.removed, !waiting.contains(key), !forgotten {
                changes.append(.removed(key.kind, key: key.key, time: Date()))
            }
        }
        // Made here and never sent (or sent and then lost, or forgotten there): sent now.
        for annotation in local where !annotation.removed {
            let key = Key(kind: annotation.kind, key: annotation.key)
            if copies[key] == nil, known[key] == nil || forgotten { newerHere.append((key.kind, key.key)) }
        }
        try? store.applySynced(changes, to: book)
        try? store.setLibraryAnnotationIDs(ids, of: book)
        try? store.queueAnnotations(newerHere, of: book)
        for id in superseded { try await client.remove(id) }
        try await sendWaiting(content)
        return MergeOutcome(unfit: unfit, applied: changes.count)
    }

    func sendWaiting(_ content: BookContent) async throws(LibraryAnnotations.Failure) {
        guard let waiting = try? store.pendingAnnotations(of: book), !waiting.isEmpty,
            let local = try? store.localAnnotations(of: book)
        else { return }
        let here = AnnotationSync.keyed(local)
        let known = (try? store.libraryAnnotationIDs(of: book)) ?? [:]
        for change in waiting {
            guard let kind = SyncedAnnotation.Kind(rawValue: change.kind) else { continue }
            let key = Key(kind: kind, key: change.key)
            let old = known[key].flatMap(URL.init(string:))
            if let mine = here[key], !mine.removed {
                // A place this copy cannot write is not sent (and not asked about again).
                if let annotation = web(mine, in: content) {
                    let made = try await client.add(annotation, of: link.source, to: link.service)
                    try? store.setLibraryAnnotationIDs([(key, made.id?.absoluteString)], of: book)
                    if let old, old != made.id { try await client.remove(old) }
                    if mine.startCFI == nil {
                        try? store.recordPlaces(
                            [(kind, mine.key, annotation.cfi, annotation.endCFI)], of: book)
                    }
                }
            } else if let old {
                try await client.remove(old)
                try? store.setLibraryAnnotationIDs([(key, nil)], of: book)
            }
            // Each one forgotten as soon as the library has it, so a failure later loses none of it.
            try? store.annotationsSent([change])
        }
    }

    /// This machine's annotation as the library keeps it; nil when its place cannot be written.
    func web(_ mine: LocalAnnotation, in content: BookContent) -> WebAnnotation? {
        guard let synced = AnnotationSync.synced(mine, in: content, form: .standard), let start = synced.start
        else { return nil }
        return WebAnnotation(
            motivation: mine.kind == .bookmark ? .bookmarking : .highlighting, cfi: start, endCFI: synced.end,
            time: mine.time, device: device, note: mine.note, quote: mine.text.isEmpty ? nil : mine.text,
            key: mine.key)
    }

    /// The newest reading place another device left at the library, with how far in it is.
    func place(
        in content: BookContent
    ) async throws(LibraryAnnotations.Failure)
        -> (device: String, fraction: Double, time: Date, place: Locator?)?
    {
        let places = try await client.annotations(at: link.service).filter {
            $0.motivation == .readingPlace && $0.device != device
        }
        guard let newest = places.max(by: { ($0.time ?? .distantPast) < ($1.time ?? .distantPast) }) else {
            return nil
        }
        let found = AnnotationSync.place(newest.cfi, in: content)
        return (
            newest.device ?? "", found.map(content.fraction(of:)) ?? 0, newest.time ?? .distantPast, found
        )
    }

    /// Sends this machine's place (the library keeps one a book: the last replaces it).
    func sendPlace(_ position: PendingPositionRecord) async throws(LibraryAnnotations.Failure) {
        let place = WebAnnotation(
            motivation: .readingPlace, cfi: position.cfi, time: position.madeAt, device: device)
        try await client.add(place, of: link.source, to: link.service)
    }
}
