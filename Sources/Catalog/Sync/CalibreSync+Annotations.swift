public import Foundation
internal import TextSafety

/// A bookmark or highlight as calibre's content server keeps it for a user: one entry of the
/// book's annotation map, or a tombstone (`removed`) saying it was deleted.
///
/// calibre merges what it is sent into what it has, one entry per identity, the newer timestamp
/// winning (`calibre/db/annotations.py`): a highlight is known by its `uuid`, a bookmark by its
/// `title`. ``key`` is that identity, kept exactly as calibre has it so the next merge finds it.
public struct SyncedAnnotation: Sendable, Hashable {
    /// calibre's two kinds of annotation that bok keeps.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case bookmark, highlight
    }

    /// An annotation's identity on a server and on the shelf: its kind and ``key``.
    public struct Key: Hashable, Sendable {
        public let kind: Kind
        public let key: String

        public init(kind: Kind, key: String) {
            self.kind = kind
            self.key = key
        }
    }

    public var kind: Kind
    /// What calibre merges by: a highlight's uuid, a bookmark's title.
    public var key: String
    /// When it was last changed (or deleted), to the millisecond.
    public var time: Date
    /// Whether it was deleted.
    public var removed: Bool
    /// A highlight's start or a bookmark's place, as an EPUB CFI (calibre's form); nil when removed.
    public var start: String?
    /// A highlight's end.
    public var end: String?
    /// The highlighted text (cleaned, bounded); empty for a bookmark.
    public var text: String
    /// The note on a highlight (cleaned, bounded).
    public var note: String?
    /// A highlight's colour, by calibre's name for it (`yellow`, `green`, `blue`, `red`, `purple`).
    public var color: String?
    /// The spine item the start is in, when known (calibre's reader groups highlights by it).
    public var spineIndex: Int?
    /// bok's own id for a bookmark (calibre keeps fields it does not know); a highlight's is ``key``.
    public var uuid: String?

    public init(
        kind: Kind, key: String, time: Date, removed: Bool = false, start: String? = nil, end: String? = nil,
        text: String = "", note: String? = nil, color: String? = nil, spineIndex: Int? = nil, uuid: String? = nil
    ) {
        self.kind = kind
        self.key = key
        self.time = time
        self.removed = removed
        self.start = start
        self.end = end
        self.text = text
        self.note = note
        self.color = color
        self.spineIndex = spineIndex
        self.uuid = uuid
    }

    /// Bounds on what is taken from a server: longer fields are cut, longer ids and places skipped.
    public enum Limits {
        /// Entries read from one answer.
        public static let entries = 5000
        /// Bytes of an id (a uuid, a bookmark's title) or a CFI.
        public static let keyBytes = 1024
        /// Characters of highlighted text.
        public static let text = 4000
        /// Characters of a note.
        public static let note = 20000
    }
}

extension CalibreSync {
    /// The most an annotation map may weigh: notes make it larger than a book's places.
    static let maxAnnotationBytes = 8 << 20

    /// The bookmarks and highlights this user keeps on the server for the book, tombstones
    /// included; entries calibre would not have written (no id, no place, a bad time) are skipped.
    public func annotations(of link: CalibreBookLink) async throws(Failure) -> [SyncedAnnotation] {
        let data = try await exchange(
            link, HTTPRequest(url: link.url("book-get-annotations", "\(link.bookID)-\(link.format)")),
            maxBytes: Self.maxAnnotationBytes)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(kind: .strangeAnswer, server: Self.name(link))
        }
        let book = object["\(link.bookID):\(link.format)"] as? [String: Any]
        let map = book?["annotations_map"] as? [String: Any] ?? [:]
        var found: [SyncedAnnotation] = []
        for kind in SyncedAnnotation.Kind.allCases {
            for case let entry as [String: Any] in (map[kind.rawValue] as? [Any] ?? []).prefix(
                SyncedAnnotation.Limits.entries)
            {
                if let annotation = Self.annotation(kind, entry) { found.append(annotation) }
            }
        }
        return found
    }

    /// Sends annotations (changes and tombstones) for calibre to merge into what it keeps.
    public func send(_ annotations: [SyncedAnnotation], of link: CalibreBookLink) async throws(Failure) {
        guard !annotations.isEmpty else { return }
        var map: [String: [[String: Any]]] = [:]
        for annotation in annotations { map[annotation.kind.rawValue, default: []].append(Self.entry(annotation)) }
        let body = try? JSONSerialization.data(withJSONObject: map, options: [.sortedKeys])
        let url = link.url("book-update-annotations", "\(link.bookID)/\(link.format)")
        _ = try await exchange(
            link, HTTPRequest(url: url, method: "POST", headers: [("Content-Type", "application/json")], body: body))
    }

    /// One entry of calibre's map, bounded and cleaned; nil when calibre could not merge it.
    static func annotation(_ kind: SyncedAnnotation.Kind, _ entry: [String: Any]) -> SyncedAnnotation? {
        func bounded(_ name: String) -> String? {
            guard let value = entry[name] as? String, !value.isEmpty,
                value.utf8.count <= SyncedAnnotation.Limits.keyBytes
            else { return nil }
            return value
        }
        guard let key = bounded(kind == .highlight ? "uuid" : "title"),
            let time = (entry["timestamp"] as? String).flatMap(Self.time(iso:))
        else { return nil }
        let removed = entry["removed"] as? Bool ?? false
        var annotation = SyncedAnnotation(kind: kind, key: key, time: time, removed: removed)
        guard !removed else { return annotation }
        switch kind {
        case .bookmark:
            guard (entry["pos_type"] as? String) == "epubcfi", let place = bounded("pos") else { return nil }
            annotation.start = place
            annotation.uuid = bounded("uuid")
        case .highlight:
            guard let start = bounded("start_cfi"), let end = bounded("end_cfi") else { return nil }
            annotation.start = start
            annotation.end = end
            annotation.text = SafeText.line(
                entry["highlighted_text"] as? String ?? "", limit: SyncedAnnotation.Limits.text)
            if let note = entry["notes"] as? String, !note.isEmpty {
                annotation.note = SafeText.text(String(note.unicodeScalars.prefix(SyncedAnnotation.Limits.note)))
            }
            let style = entry["style"] as? [String: Any]
            annotation.color = (style?["which"] as? String).flatMap { $0.utf8.count <= 20 ? $0 : nil }
            annotation.spineIndex = (entry["spine_index"] as? NSNumber)?.intValue
        }
        return annotation
    }

    /// The entry calibre's own readers write for an annotation.
    static func entry(_ annotation: SyncedAnnotation) -> [String: Any] {
        var entry: [String: Any] = [
            "type": annotation.kind.rawValue, "timestamp": iso(annotation.time),
            annotation.kind == .highlight ? "uuid" : "title": annotation.key,
        ]
        if annotation.removed {
            entry["removed"] = true
            return entry
        }
        switch annotation.kind {
        case .bookmark:
            entry["pos_type"] = "epubcfi"
            entry["pos"] = annotation.start ?? ""
            if let uuid = annotation.uuid { entry["uuid"] = uuid }
        case .highlight:
            entry["start_cfi"] = annotation.start ?? ""
            entry["end_cfi"] = annotation.end ?? annotation.start ?? ""
            entry["highlighted_text"] = annotation.text
            if let note = annotation.note, !note.isEmpty { entry["notes"] = note }
            entry["style"] = ["kind": "color", "type": "builtin", "which": annotation.color ?? "yellow"]
            if let spine = annotation.spineIndex { entry["spine_index"] = spine }
        }
        return entry
    }

    /// `2026-11-29T09:10:11.123Z`, the form calibre's web reader writes (calibre compares these as
    /// text, so bok writes the same form, to the millisecond).
    static func iso(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, rest) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (ordinal, time) = rest < 0 ? (days - 1, rest + 86_400_000) : (days, rest)
        func pad(_ value: Int64, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return "\(DayDate(ordinal: Int(ordinal)))T\(pad(time / 3_600_000, 2)):\(pad(time / 60_000 % 60, 2))"
            + ":\(pad(time / 1000 % 60, 2)).\(pad(time % 1000, 3))Z"
    }

    /// The moment an ISO 8601 timestamp names (`…T09:10:11.123Z`, `…T09:10:11.123456+00:00`, no
    /// zone meaning UTC, as calibre assumes), to the millisecond; nil when it is not one.
    static func time(iso text: String) -> Date? {
        let characters = Array(text.utf8.prefix(64))
        guard characters.count >= 19, let day = DayDate(string: String(decoding: characters[0..<10], as: UTF8.self)),
            characters[10] == UInt8(ascii: "T") || characters[10] == UInt8(ascii: " ")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            Int(String(decoding: characters[range], as: UTF8.self))
        }
        guard let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < characters.count, characters[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < characters.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[index]) {
                fraction += Double(characters[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if index < characters.count, characters[index] == UInt8(ascii: "+") || characters[index] == UInt8(ascii: "-") {
            guard characters.count >= index + 6, let hours = number(index + 1..<index + 3),
                let minutes = number(index + 4..<index + 6)
            else { return nil }
            offset = (hours * 60 + minutes) * 60 * (characters[index] == UInt8(ascii: "-") ? -1 : 1)
        }
        let seconds = Double(day.ordinal * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return Date(timeIntervalSince1970: (seconds * 1000).rounded() / 1000)
    }
}
