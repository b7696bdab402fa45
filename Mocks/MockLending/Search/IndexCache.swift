import Catalog
internal import Foundation
internal import SafeOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The search index, sort ranks and licences of a large generated catalogue, kept on disk under
/// `$XDG_CACHE_HOME/bok/` so that the next start with the same seed and size reads them instead
/// of generating a million books again.
///
/// One file per (format version, seed, size): a 64-byte header (a magic number, the version, the
/// seed, the size, a fingerprint of the generator and the collation, the payload's length and
/// checksum), then flat arrays, each as its count and its bytes. The file is written beside its
/// place and renamed into it (`OutputFile`), so a reader never sees half of one; a file that is
/// short, from another version or another catalogue, or whose checksum does not match is not
/// used, and the catalogue is generated (and the file written) again. Every index read from a
/// file is checked to lie inside the catalogue before it is used.
enum IndexCache {
    /// Changes whenever what the file holds, or how, changes.
    static let formatVersion: UInt32 = 1
    /// `bokmidx` and a zero: a bok mock index.
    static let magic: UInt64 = 0x0078_6469_6D6B_6F62
    static let headerSize = 64

    /// The file for `generator`'s catalogue in `directory`.
    static func file(in directory: URL, for generator: CatalogGenerator) -> URL {
        directory.appendingPathComponent("mock-index-v\(formatVersion)-seed\(generator.seed)-\(generator.size).bin")
    }

    /// The catalogue of `generator` with its index: read from `directory`'s file when that holds
    /// it, else generated; a generated one is written there by `write` (the caller's choice of thread).
    static func catalog(
        _ generator: CatalogGenerator, collation: Collation, directory: URL
    ) -> (catalog: GeneratedCatalog, fromCache: Bool) {
        let path = file(in: directory, for: generator).path
        if let catalog = load(path, generator: generator, collation: collation) { return (catalog, true) }
        return (generator.generate(indexingIn: collation), false)
    }

    /// What ties a file to the code that wrote it: a few books and licences as generated, the
    /// collation's alphabet and a key it writes. A change to the generator or the collation that
    /// the version number missed then still makes old files unusable.
    static func fingerprint(
        _ generator: CatalogGenerator, plans: [CatalogGenerator.Plan], collation: Collation
    ) -> UInt64 {
        var text = "\(collation.alphabet) \(collation.key("Åsa Öberg-Ängel, The Étude 1"))"
        let size = generator.size
        for index in Set([0, size / 3, size / 2, 2 * size / 3, size - 1]).sorted() where index >= 0 && index < size {
            let (product, licence) = generator.book(
                index, plan: plans[index], referenceOrdinal: generator.referenceDay.ordinal)
            text += "\n\(product)\n\(licence)"
        }
        var hash = FastHash()
        Array(text.utf8).withUnsafeBytes { hash.add($0) }
        return hash.value
    }

    // MARK: Writing

    /// Writes `catalog` (generated with `collation`) to its file in `directory`, creating the
    /// folder; the file appears whole or not at all.
    static func write(_ catalog: GeneratedCatalog, collation: Collation, directory: URL) throws {
        guard let search = catalog.search else { return }
        let generator = catalog.products.generator
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = try OutputFile(path: file(in: directory, for: generator).path, name: "", replace: true)
        var writer = Writer(output: output)
        try writer.skipHeader()
        let count = catalog.products.count
        var licences: [Int32] = []
        licences.reserveCapacity(4 * count)
        for licence in catalog.licences {
            let model = Int32(Licence.Model.allCases.firstIndex(of: licence.model)!)
            licences += [model, Int32(licence.copies), Int32(licence.onLoan), Int32(licence.waiting)]
        }
        try writer.array(licences)
        licences = []
        try writer.array(catalog.products.activeDays.flatMap { [$0.from, $0.until] })
        let adjusted = catalog.products.adjusted.sorted { $0.key < $1.key }.flatMap { entry in
            [
                Int64(entry.key), entry.value.popularity.map(Int64.init) ?? .min,
                entry.value.publishedDate.map { Int64($0.ordinal) } ?? .min,
            ]
        }
        try writer.array(adjusted)
        try writer.array(catalog.topByPopularity.map(Int64.init))
        try writer.array(catalog.products.aringThrillers.sorted().map(Int64.init))
        let index = search.index
        try writer.strings(index.words)
        try writer.array(index.sortedWordIDs)
        for lists in index.postings {
            try writer.array(lists.map { UInt32($0.count) })
            try writer.arrays(lists)
        }
        try writer.array(index.isbns)
        try writer.array(index.isbnProducts)
        for members in index.members {
            let keys = members.keys.sorted()
            try writer.strings(keys)
            try writer.array(keys.map { UInt32(members[$0]!.count) })
            try writer.arrays(keys.map { members[$0]! })
        }
        try writer.strings(index.categoryNames.sorted())
        let ranks = search.ranks
        try writer.array(ranks.tie)
        try writer.array(ranks.byTie)
        for primary in ranks.primary { try writer.array(primary) }
        try writer.array(ranks.maxPrimary)
        try writer.finish(
            Header(
                alphabet: collation.alphabet == .swedish ? 1 : 0, seed: generator.seed, size: UInt64(count),
                fingerprint: fingerprint(generator, plans: catalog.products.plans, collation: collation),
                payloadLength: 0, checksum: 0))
    }

    struct Header: Equatable {
        var alphabet: UInt32
        var seed: UInt64
        var size: UInt64
        var fingerprint: UInt64
        var payloadLength: UInt64
        var checksum: UInt64

        /// The 64 bytes: magic, version, alphabet, seed, size, fingerprint, length, checksum, zero.
        var bytes: [UInt8] {
            let words: [UInt64] = [
                IndexCache.magic, UInt64(IndexCache.formatVersion) | UInt64(alphabet) << 32, seed, size, fingerprint,
                payloadLength, checksum, 0,
            ]
            return words.withUnsafeBytes { Array($0) }
        }

        init(alphabet: UInt32, seed: UInt64, size: UInt64, fingerprint: UInt64, payloadLength: UInt64, checksum: UInt64)
        {
            self.alphabet = alphabet
            self.seed = seed
            self.size = size
            self.fingerprint = fingerprint
            self.payloadLength = payloadLength
            self.checksum = checksum
        }

        /// The header in `raw` (64 bytes), if it is one of this version's.
        init?(_ raw: UnsafeRawBufferPointer) {
            guard raw.count >= IndexCache.headerSize else { return nil }
            func word(_ n: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: 8 * n, as: UInt64.self) }
            guard word(0) == IndexCache.magic, UInt32(truncatingIfNeeded: word(1)) == IndexCache.formatVersion,
                word(7) == 0
            else { return nil }
            self.init(
                alphabet: UInt32(truncatingIfNeeded: word(1) >> 32), seed: word(2), size: word(3),
                fingerprint: word(4), payloadLength: word(5), checksum: word(6))
        }
    }

    /// Appends sections to the file, each its count (8 bytes) and its bytes padded to 8, and
    /// checksums them as it goes.
    struct Writer {
        let output: OutputFile
        var hash = FastHash()
        var length: UInt64 = 0

        mutating func skipHeader() throws {
            try [UInt8](repeating: 0, count: IndexCache.headerSize).withUnsafeBytes { try output.append($0) }
        }

        private mutating func raw(_ bytes: UnsafeRawBufferPointer) throws {
            hash.add(bytes)
            try output.append(bytes)
            length += UInt64(bytes.count)
            let padding = (8 - bytes.count % 8) % 8
            if padding > 0 {
                let zeros: UInt64 = 0
                try withUnsafeBytes(of: zeros) {
                    try output.append(UnsafeRawBufferPointer(rebasing: $0.prefix(padding)))
                }
                length += UInt64(padding)
            }
        }

        mutating func array<T: BitwiseCopyable>(_ values: [T]) throws {
            try withUnsafeBytes(of: UInt64(values.count)) { try raw($0) }
            try values.withUnsafeBytes { try raw($0) }
        }

        /// Lists one after another as one section (their lengths are a section of their own),
        /// checksummed list by list.
        mutating func arrays(_ lists: [[Int32]]) throws {
            let total = lists.reduce(0) { $0 + $1.count }
            try withUnsafeBytes(of: UInt64(total)) { try raw($0) }
            var written = 0
            for list in lists where !list.isEmpty {
                try list.withUnsafeBytes { bytes in
                    hash.add(bytes)
                    try output.append(bytes)
                }
                written += list.count * 4
            }
            length += UInt64(written)
            if written % 8 != 0 {
                let zeros: UInt32 = 0
                try withUnsafeBytes(of: zeros) { try output.append($0) }
                length += 4
            }
        }

        /// Texts as their UTF-8 lengths, then their bytes.
        mutating func strings(_ texts: [String]) throws {
            try array(texts.map { UInt32($0.utf8.count) })
            var bytes: [UInt8] = []
            for text in texts { bytes += text.utf8 }
            try array(bytes)
        }

        /// Fills in the header with the payload's length and checksum, and puts the file in place.
        mutating func finish(_ header: Header) throws {
            var header = header
            header.payloadLength = length
            header.checksum = hash.value
            try header.bytes.withUnsafeBytes { try output.write($0, at: 0) }
            try output.commit()
        }
    }

    // MARK: Reading

    /// The catalogue in the file at `path`, if it is whole and is `generator`'s with `collation`.
    static func load(_ path: String, generator: CatalogGenerator, collation: Collation) -> GeneratedCatalog? {
        guard let mapped = MappedFile(path) else { return nil }
        defer { mapped.unmap() }
        let raw = mapped.bytes
        guard let header = Header(raw), header.seed == generator.seed, header.size == UInt64(generator.size),
            header.alphabet == (collation.alphabet == .swedish ? 1 : 0),
            header.payloadLength == UInt64(raw.count - headerSize)
        else { return nil }
        let plans = generator.makePlans()
        guard header.fingerprint == fingerprint(generator, plans: plans, collation: collation) else { return nil }
        var reader = Reader(raw: UnsafeRawBufferPointer(rebasing: raw[headerSize...]))
        return reader.catalog(generator: generator, plans: plans, checksum: header.checksum)
    }

    /// Reads the sections `write` wrote, checking every bound; nil at the first that fails.
    struct Reader {
        let raw: UnsafeRawBufferPointer
        var offset = 0
        var hash = FastHash()

        init(raw: UnsafeRawBufferPointer) { self.raw = raw }

        private mutating func take(_ count: Int, hashing: Bool = true) -> UnsafeRawBufferPointer? {
            guard count >= 0, count <= raw.count - offset else { return nil }
            let bytes = UnsafeRawBufferPointer(rebasing: raw[offset..<offset + count])
            if hashing { hash.add(bytes) }
            offset += count
            let padding = (8 - count % 8) % 8
            guard padding <= raw.count - offset else { return nil }
            offset += padding
            return bytes
        }

        /// The next section as a buffer over the file's bytes (valid while it is mapped).
        mutating func buffer<T: BitwiseCopyable>(_: T.Type, hashing: Bool = true) -> UnsafeBufferPointer<T>? {
            guard let counted = take(8) else { return nil }
            let count = counted.loadUnaligned(as: UInt64.self)
            guard count <= UInt64(raw.count / MemoryLayout<T>.stride),
                let bytes = take(Int(count) * MemoryLayout<T>.stride, hashing: hashing)
            else { return nil }
            // Sections start at multiples of 8 in a page-aligned mapping.
            return bytes.isEmpty ? UnsafeBufferPointer(start: nil, count: 0) : bytes.assumingMemoryBound(to: T.self)
        }

        mutating func array<T: BitwiseCopyable>(_ type: T.Type) -> [T]? { buffer(type).map(Array.init) }

        mutating func strings() -> [String]? {
            guard let lengths = buffer(UInt32.self), let bytes = buffer(UInt8.self),
                lengths.reduce(0, { $0 + Int($1) }) == bytes.count
            else { return nil }
            var texts: [String] = []
            texts.reserveCapacity(lengths.count)
            var start = 0
            for length in lengths {
                texts.append(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + Int(length)]), as: UTF8.self))
                start += Int(length)
            }
            return texts
        }

        /// Lists of product indices: their lengths, then their elements, each below `count`.
        mutating func lists(count: Int) -> [[Int32]]? {
            guard let lengths = buffer(UInt32.self), let elements = buffer(Int32.self, hashing: false),
                lengths.reduce(0, { $0 + Int($1) }) == elements.count, IndexCache.allBelow(elements, count)
            else { return nil }
            var lists: [[Int32]] = []
            lists.reserveCapacity(lengths.count)
            var start = 0
            for length in lengths {
                let end = start + Int(length)
                if length == 0 {
                    lists.append([])
                } else {
                    let list = UnsafeBufferPointer(rebasing: elements[start..<end])
                    hash.add(UnsafeRawBufferPointer(list))
                    lists.append(Array(list))
                }
                start = end
            }
            return lists
        }

        mutating func catalog(
            generator: CatalogGenerator, plans: [CatalogGenerator.Plan], checksum: UInt64
        )
            -> GeneratedCatalog?
        {
            let count = generator.size
            guard let licenceWords = buffer(Int32.self), licenceWords.count == 4 * count,
                let dayWords = buffer(Int32.self), dayWords.count == 2 * count,
                let adjustedWords = buffer(Int64.self), adjustedWords.count % 3 == 0,
                let top = array(Int64.self), let aring = array(Int64.self),
                IndexCache.allBelow(top, count), IndexCache.allBelow(aring, count)
            else { return nil }
            let models = Licence.Model.allCases
            var licences: [Licence] = []
            licences.reserveCapacity(count)
            for i in 0..<count {
                let model = Int(licenceWords[4 * i])
                guard model >= 0, model < models.count else { return nil }
                licences.append(
                    Licence(
                        model: models[model], copies: Int(licenceWords[4 * i + 1]),
                        onLoan: Int(licenceWords[4 * i + 2]), waiting: Int(licenceWords[4 * i + 3])))
            }
            let activeDays = (0..<count).map {
                ProductTable.ActiveDays(from: dayWords[2 * $0], until: dayWords[2 * $0 + 1])
            }
            var adjusted: [Int: ProductTable.Adjustment] = [:]
            for entry in stride(from: 0, to: adjustedWords.count, by: 3) {
                let index = adjustedWords[entry]
                guard index >= 0, index < count else { return nil }
                let popularity = adjustedWords[entry + 1]
                let date = adjustedWords[entry + 2]
                guard date == .min || abs(date) < 10_000_000 else { return nil }
                adjusted[Int(index)] = ProductTable.Adjustment(
                    popularity: popularity == .min ? nil : Int(popularity),
                    publishedDate: date == .min ? nil : DayDate(ordinal: Int(date)))
            }
            guard let words = strings(), let sortedWordIDs = array(Int32.self),
                sortedWordIDs.count == words.count, IndexCache.allBelow(sortedWordIDs, words.count)
            else { return nil }
            var postings: [[[Int32]]] = []
            for _ in SearchIndex.Field.allCases {
                guard let lists = lists(count: count), lists.count == words.count else { return nil }
                postings.append(lists)
            }
            guard let isbns = array(UInt64.self), let isbnProducts = array(Int32.self),
                isbns.count == isbnProducts.count, IndexCache.allBelow(isbnProducts, count)
            else { return nil }
            var members: [[String: [Int32]]] = []
            for _ in 0..<4 {
                guard let keys = strings(), let lists = lists(count: count), keys.count == lists.count,
                    Set(keys).count == keys.count
                else { return nil }
                members.append(Dictionary(uniqueKeysWithValues: zip(keys, lists)))
            }
            guard let categoryNames = strings(), let tie = array(UInt32.self), let byTie = array(Int32.self),
                tie.count == count, byTie.count == count, IndexCache.allBelow(tie, count),
                IndexCache.allBelow(byTie, count)
            else { return nil }
            var primary: [[UInt32]] = []
            for _ in 0..<SortRanks.slotCount {
                guard let ranks = array(UInt32.self), ranks.count == count else { return nil }
                primary.append(ranks)
            }
            guard let maxPrimary = array(UInt32.self), maxPrimary.count == primary.count,
                zip(primary, maxPrimary).allSatisfy({ IndexCache.allBelow($0.0, Int($0.1)) }),
                offset == raw.count, hash.value == checksum
            else { return nil }
            let products = ProductTable(
                generator: generator, plans: plans, adjusted: adjusted, aringThrillers: Set(aring.map(Int.init)),
                activeDays: activeDays)
            let index = SearchIndex(
                count: count, words: words, sortedWordIDs: sortedWordIDs, postings: postings, isbns: isbns,
                isbnProducts: isbnProducts, members: members, categoryNames: Set(categoryNames))
            let search = CatalogSearch(
                products: products, index: index,
                ranks: SortRanks(tie: tie, byTie: byTie, primary: primary, maxPrimary: maxPrimary))
            return GeneratedCatalog(
                seed: generator.seed, products: products, licences: licences, referenceDay: generator.referenceDay,
                topByPopularity: top.map(Int.init), search: search)
        }
    }

    /// True when every value is in `0..<bound`.
    static func allBelow<C: Collection>(_ values: C, _ bound: Int) -> Bool where C.Element: BinaryInteger {
        var worst: Int64 = -1
        var negative = false
        for value in values {
            let wide = Int64(value)
            if wide > worst { worst = wide }
            if wide < 0 { negative = true }
        }
        return !negative && worst < Int64(bound)
    }
}

/// A file mapped read-only into memory.
struct MappedFile {
    let bytes: UnsafeRawBufferPointer

    init?(_ path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        // Non-blocking: should a FIFO take the file's place meanwhile, opening it must not wait.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // The size of the file opened (another process may have renamed a new one into place).
        let size = Int(lseek(descriptor, 0, SEEK_END))
        guard size > 0, let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED
        else {
            return nil
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    func unmap() { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
}

/// A 64-bit checksum for telling a damaged file from a whole one (not against tampering): four
/// lanes of multiply and rotate, so that it keeps up with reading from memory.
struct FastHash {
    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
        0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344, 0xA409_3822_299F_31D0, 0x082E_FA98_EC4E_6C89
    )
    private static let prime: UInt64 = 0x9E37_79B9_7F4A_7C15

    @inline(__always)
    private static func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (lane ^ word) &* prime
        return (mixed << 29) | (mixed >> 35)
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var (a, b, c, d) = lanes
        let blocks = bytes.count / 32
        for block in 0..<blocks {
            let at = block * 32
            a = Self.mix(a, bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            b = Self.mix(b, bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
            c = Self.mix(c, bytes.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self))
            d = Self.mix(d, bytes.loadUnaligned(fromByteOffset: at + 24, as: UInt64.self))
        }
        var at = blocks * 32
        while at + 8 <= bytes.count {
            a = Self.mix(a, bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            at += 8
        }
        var tail: UInt64 = UInt64(bytes.count)
        while at < bytes.count {
            tail = tail << 8 | UInt64(bytes[at])
            at += 1
        }
        b = Self.mix(b, tail)
        lanes = (a, b, c, d)
    }

    var value: UInt64 {
        let (a, b, c, d) = lanes
        return Self.mix(Self.mix(Self.mix(a, b), c), d)
    }
}
