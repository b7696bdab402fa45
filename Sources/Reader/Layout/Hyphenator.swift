internal import CHyphen
internal import Foundation
import Synchronization

/// Where words may be hyphenated, from a language's TeX-style patterns (libhyphen with the
/// pattern files Debian's `hyphen-*` packages install, e.g. `hyphen-sv`, `hyphen-en-us`).
///
/// A language with no pattern file has no hyphenator, and its words are not hyphenated: a
/// break between any two letters ("nourishme-nt") reads worse than a looser line.
final class Hyphenator: Sendable {
    /// Where Debian's pattern packages put their files (`hyph_sv_SE.dic`, `hyph_en_US.dic`).
    static let directory = "/usr/share/hyphen"
    /// Letters kept together at the start and at the end of a word.
    static let minimumBefore = 2, minimumAfter = 3

    /// The loaded dictionary. libhyphen reads it only while hyphenating, but it is a C pointer
    /// (not Sendable), so calls take turns; a call takes microseconds and comes once a line.
    private let dictionary: Mutex<UnsafeMutablePointer<HyphenDict>>
    /// Whether the pattern file is UTF-8 (else ISO 8859-1, as the Swedish one is).
    private let utf8: Bool

    private init?(path: String) {
        guard let loaded = hnj_hyphen_load(path) else { return nil }
        utf8 = loaded.pointee.utf8 != 0
        dictionary = Mutex(loaded)
    }

    private static let cache = Mutex<[String: Hyphenator?]>([:])

    /// The hyphenator for a BCP 47 tag (`sv`, `sv-SE`, `en-GB`), nil when no patterns are installed.
    /// The region's file is preferred (`hyph_en_GB.dic`), then the language's own or any region's.
    static func forLanguage(_ tag: String?) -> Hyphenator? {
        guard let tag, !tag.isEmpty else { return nil }
        let parts = tag.split { $0 == "-" || $0 == "_" }.map(String.init)
        let language = parts[0].lowercased()
        let key = parts.count > 1 ? language + "_" + parts[1].uppercased() : language
        if let known = cache.withLock({ $0[key] }) { return known }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let wanted = ["hyph_\(key).dic", "hyph_\(language).dic"]
        let name =
            wanted.first(where: files.contains)
            ?? files.sorted().first { $0.hasPrefix("hyph_\(language)_") && $0.hasSuffix(".dic") }
        let hyphenator = name.flatMap { Hyphenator(path: directory + "/" + $0) }
        cache.withLock { $0[key] = .some(hyphenator) }
        return hyphenator
    }

    /// The places in `word` (a run of letters) where it may break, as counts of UTF-16 units
    /// before the break, at least ``minimumBefore`` letters from its start and
    /// ``minimumAfter`` from its end. Empty when the word cannot be written in the pattern
    /// file's encoding or has no break.
    func breaks(in word: String) -> [Int] {
        let lower = word.lowercased()
        let scalars = Array(lower.unicodeScalars)
        guard scalars.count == word.unicodeScalars.count, scalars.count >= Self.minimumBefore + Self.minimumAfter else {
            return []
        }
        // The word in the file's encoding, and for each byte the scalar it ends.
        var bytes: [CChar] = []
        var scalarEnding: [Int?] = []
        for (index, scalar) in scalars.enumerated() {
            if utf8 {
                let encoded = Array(String(scalar).utf8)
                bytes += encoded.map { CChar(bitPattern: $0) }
                scalarEnding += Array(repeating: nil, count: encoded.count - 1) + [index]
            } else {
                guard scalar.value < 0x100 else { return [] }
                bytes.append(CChar(bitPattern: UInt8(scalar.value)))
                scalarEnding.append(index)
            }
        }
        let count = bytes.count
        let marks: [CChar]? = dictionary.withLock { dictionary in
            var hyphens = [CChar](repeating: 0, count: count + 5)
            var replacements: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            var positions: UnsafeMutablePointer<Int32>?
            var cuts: UnsafeMutablePointer<Int32>?
            let status = hnj_hyphen_hyphenate3(
                dictionary, bytes, Int32(count), &hyphens, nil, &replacements, &positions, &cuts,
                Int32(Self.minimumBefore), Int32(Self.minimumAfter),
                Int32(Self.minimumBefore), Int32(Self.minimumAfter))
            if let replacements {
                // A break that changes the spelling (non-standard hyphenation) is left alone:
                // only plain breaks, where the word is cut and a hyphen added.
                for index in 0..<count where replacements[index] != nil {
                    hyphens[index] = 0
                    free(replacements[index])
                }
                free(replacements)
            }
            free(positions)
            free(cuts)
            return status == 0 ? Array(hyphens.prefix(count)) : nil
        }
        guard let marks else { return [] }
        // Offsets in UTF-16 units before each scalar.
        var utf16Before = [0]
        for scalar in word.unicodeScalars { utf16Before.append(utf16Before.last! + scalar.utf16.count) }
        var result: [Int] = []
        for (byte, value) in marks.enumerated() where value & 1 == 1 {
            guard let scalar = scalarEnding[byte] else { continue }
            let before = scalar + 1
            guard before >= Self.minimumBefore, scalars.count - before >= Self.minimumAfter else { continue }
            result.append(utf16Before[before])
        }
        return result
    }
}
