internal import Foundation

/// Messages of one compiled catalogue (`.mo`) whose context begins with a prefix, read from the
/// file itself.
///
/// gettext answers in the interface language only, and a word a patron types must work in every
/// language bok speaks (`sök` when bok speaks English too): ``TypedWord`` reads the other
/// languages' catalogues here. The format is GNU gettext's: a header, then two tables of
/// (length, offset) pairs, the English messages and their translations, each string ending in NUL;
/// a message with a context is the context, byte 4, then the message. The English messages are
/// sorted (gettext searches them by halves), so the ones with a context that begins `typed: ` sit
/// together and are found without reading the rest: bok reads this at start-up.
struct MessageCatalogue: Sendable {
    /// Translations by context, then by English message (a plural's first form).
    let translations: [String: [String: String]]

    /// The messages of the catalogue at `path` whose context begins with `prefix`; nil when there
    /// is no such file, or it is not a catalogue.
    init?(path: String, contextPrefix prefix: String) {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_size > 28 else { return nil }
        let size = Int(status.st_size)
        // Mapped, not read: only the pages of the tables and of the messages looked at are touched.
        guard let start = mmap(nil, size, PROT_READ, MAP_PRIVATE, file, 0), start != MAP_FAILED else { return nil }
        defer { munmap(start, size) }
        guard let found = Self.parse(UnsafeRawBufferPointer(start: start, count: size), prefix: Array(prefix.utf8))
        else { return nil }
        translations = found
    }

    /// The messages with a context that begins with `prefix` of a `.mo` file's bytes; nil when they
    /// are not a catalogue.
    static func parse(_ bytes: UnsafeRawBufferPointer, prefix: [UInt8]) -> [String: [String: String]]? {
        let magic = bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
        guard magic == 0x9504_12de || magic == 0xde12_0495 else { return nil }
        func word(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            let value = bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)
            return Int(magic == 0x9504_12de ? value : value.byteSwapped)
        }
        guard let count = word(8), let originals = word(12), let translated = word(16) else { return nil }
        /// The string of table entry `index`, up to its first NUL (a plural's first form).
        func string(_ table: Int, _ index: Int) -> UnsafeRawBufferPointer.SubSequence? {
            guard let length = word(table + 8 * index), let offset = word(table + 8 * index + 4),
                offset + length <= bytes.count
            else { return nil }
            let whole = bytes[offset..<offset + length]
            return whole[..<(whole.firstIndex(of: 0) ?? whole.endIndex)]
        }
        // The first English message not before `prefix`, by halves.
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            guard let original = string(originals, middle) else { return nil }
            if original.lexicographicallyPrecedes(prefix) { low = middle + 1 } else { high = middle }
        }
        var found: [String: [String: String]] = [:]
        for index in low..<count {
            guard let original = string(originals, index), original.starts(with: prefix) else { break }
            guard let separator = original.firstIndex(of: 4), let translation = string(translated, index) else {
                continue
            }
            let context = String(decoding: original[..<separator], as: UTF8.self)
            let message = String(decoding: original[(separator + 1)...], as: UTF8.self)
            found[context, default: [:]][message] = String(decoding: translation, as: UTF8.self)
        }
        return found
    }
}
