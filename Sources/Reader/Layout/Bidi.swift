internal import CFriBidi

/// One paragraph's text under the Unicode Bidirectional Algorithm (GNU FriBidi): its base
/// direction, and the display order of each of its lines.
///
/// Lines are broken on the logical text; each line is then reordered on its own (rules L1–L2),
/// so offsets, selection and search never see display order. The algorithm runs on grapheme
/// clusters' first scalars: a combining mark stays with its letter and a cluster is never split.
struct BidiParagraph {
    /// A stretch of the text to order: a grapheme cluster, with the direction its markup declares.
    struct Cluster {
        /// Offset into the text, UTF-16.
        var offset: Int
        /// Length, UTF-16.
        var length: Int
        /// `dir` on the element the cluster is in, when it differs from the paragraph's own it
        /// is an isolate (HTML's `unicode-bidi: isolate` for `dir`).
        var direction: TextDirection?
        /// Whether `direction` overrides the letters' own (`<bdo>`): every letter is set in it.
        var overrides = false
        /// Whether the cluster is in a `<bdi>` without `dir`: an isolate whose direction its own
        /// first strong letter decides.
        var isolatesByContent = false
    }

    /// How a stretch of clusters is set apart from the paragraph: an isolate in a direction, or
    /// in its first strong letter's (`direction` nil), its letters overridden or not.
    private struct Isolation: Equatable {
        var direction: TextDirection?
        var overrides: Bool
    }

    /// Whether the paragraph reads right to left.
    let isRightToLeft: Bool
    /// Per cluster: its bidi type, its resolved embedding level, and whether it is a formatting
    /// character (LRM, RLE, PDI, …) that orders the text but is not drawn.
    private let types: [FriBidiCharType]
    private let levels: [FriBidiLevel]
    private let hidden: [Bool]
    /// Per cluster whose letters join (Arabic, Syriac, N'Ko…): its text with each letter in the
    /// form its neighbours ask for (initial, medial, final, isolated), as Unicode's presentation
    /// forms; nil for the rest. Terminals draw each character on its own, so without this an
    /// Arabic word showed as a row of separate letters.
    private let shaped: [Int: String]

    /// Languages written right to left (primary subtags): a paragraph without strong letters
    /// (only numbers) in a book in one of them reads right to left.
    static let rightToLeftLanguages: Set<String> = ["ar", "he", "iw", "fa", "ur", "yi", "ps", "sd", "ug", "dv", "ckb"]

    /// Whether a BCP 47 tag names a language written right to left.
    static func isRightToLeft(language: String?) -> Bool {
        guard let language else { return false }
        let primary = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first
        return primary.map { rightToLeftLanguages.contains(String($0)) } ?? false
    }

    /// Whether a paragraph may need reordering, decided without copying its text: it is declared
    /// right to left, has a letter or number written right to left or a bidi control
    /// (``mayOrderRightToLeft(_:)``), or has no `dir` in a right-to-left language. Every other
    /// paragraph is left to right throughout. (A passage with its own `dir` keeps the older, wider
    /// test, any scalar from U+0590 up, as its isolate may order even neutral text.)
    static func mayReorder(_ runs: [TextRun], declared: TextDirection?, language: () -> String?) -> Bool {
        if declared == .rightToLeft { return true }
        if runs.contains(where: { $0.style.contains(.directionOverride) }) { return true }
        let isolates = runs.contains { $0.style.declaredDirection.map { $0 != declared } ?? false }
        if runs.contains(where: { run in
            run.text.utf16.contains { isolates ? $0 >= 0x0590 : mayOrderRightToLeft($0) }
        }) {
            return true
        }
        return declared == nil && isRightToLeft(language: language())
    }

    /// Whether a UTF-16 code unit is, or may begin, a scalar that gives a left-to-right paragraph
    /// anything to reorder: a letter written right to left (bidi type R or AL), an Arabic number
    /// (AN), or a bidi control (LRM, RLM, ALM, embeddings, overrides, isolates). Each such scalar
    /// lies in one of these blocks (Unicode's DerivedBidiClass; a test checks every scalar against
    /// FriBidi's table), so the typographic quotes, dashes and CJK of a left-to-right book do not
    /// send every paragraph through FriBidi, which the huge-chapter benchmark showed to be half of
    /// laying out a chapter.
    static func mayOrderRightToLeft(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x0590...0x08FF, 0x200E...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFB1D...0xFDFF, 0xFE70...0xFEFF:
            return true
        // High surrogates of U+10800–U+10FFF and U+1E800–U+1EFFF (Cypriot to Old Uyghur; Mende Kikakui, Adlam…).
        case 0xD802...0xD803, 0xD83A...0xD83B:
            return true
        default:
            return false
        }
    }

    /// Whether FriBidi's own table gives a scalar a type that orders a left-to-right paragraph
    /// (for the test of ``mayOrderRightToLeft(_:)``).
    static func fribidiOrdersRightToLeft(_ scalar: UInt32) -> Bool {
        let type = fribidi_get_bidi_type(scalar).rawValue
        let masks: UInt32 = 0x0000_0001 | 0x0000_0002 | 0x0000_1000 | 0x0000_8000  // RTL, ARABIC, EXPLICIT, ISOLATE
        return type & masks != 0 || isFormatting(scalar)
    }

    /// Orders a paragraph, or nil when it is left to right throughout (nothing to reorder: the
    /// common case, decided without calling FriBidi when the text has no scalar from U+0590 up).
    ///
    /// - Parameters:
    ///   - units: the paragraph's text, UTF-16.
    ///   - declared: the direction its markup declares; else its first strong letter decides
    ///     (rules P2–P3), else `language`.
    init?(units: [UInt16], clusters: [Cluster], declared: TextDirection?, language: String?) {
        let fallbackRightToLeft = declared == nil && Self.isRightToLeft(language: language)
        if declared != .rightToLeft, !fallbackRightToLeft, !units.contains(where: { $0 >= 0x0590 }),
            !clusters.contains(where: \.overrides)
        {
            return nil
        }
        // The scalars FriBidi sees, with an isolate (LRI/RLI … PDI) around each stretch whose
        // declared direction is not the paragraph's, and an override (LRO/RLO … PDF) inside the
        // isolate of a `<bdo>`; and where each cluster's first scalar is.
        var scalars: [FriBidiChar] = []
        scalars.reserveCapacity(units.count + 4)
        var firstScalar: [Int] = []
        var clusterEnd: [Int] = []
        firstScalar.reserveCapacity(clusters.count)
        clusterEnd.reserveCapacity(clusters.count)
        var isolated: Isolation?
        for cluster in clusters {
            var wanted: Isolation?
            if let direction = cluster.direction, cluster.overrides || direction != declared {
                wanted = Isolation(direction: direction, overrides: cluster.overrides)
            } else if cluster.direction == nil, cluster.isolatesByContent {
                wanted = Isolation(direction: nil, overrides: false)
            }
            if wanted != isolated {
                if let isolated {
                    if isolated.overrides { scalars.append(0x202C) }
                    scalars.append(0x2069)
                }
                if let wanted {
                    switch wanted.direction {
                    case .rightToLeft?: scalars.append(0x2067)
                    case .leftToRight?: scalars.append(0x2066)
                    case nil: scalars.append(0x2068)  // FSI
                    }
                    if wanted.overrides { scalars.append(wanted.direction == .rightToLeft ? 0x202E : 0x202D) }
                }
                isolated = wanted
            }
            firstScalar.append(scalars.count)
            let slice = units[cluster.offset..<min(units.count, cluster.offset + cluster.length)]
            for scalar in String(decoding: slice, as: UTF16.self).unicodeScalars { scalars.append(scalar.value) }
            clusterEnd.append(scalars.count)
        }
        if let isolated {
            if isolated.overrides { scalars.append(0x202C) }
            scalars.append(0x2069)
        }

        let count = FriBidiStrIndex(scalars.count)
        var allTypes = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: scalars.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: scalars.count)
        var allLevels = [FriBidiLevel](repeating: 0, count: scalars.count)
        fribidi_get_bidi_types(scalars, count, &allTypes)
        fribidi_get_bracket_types(scalars, count, allTypes, &brackets)
        var base: FriBidiParType
        switch declared {
        case .rightToLeft: base = FRIBIDI_PAR_RTL
        case .leftToRight: base = FRIBIDI_PAR_LTR
        case nil:
            base = fribidi_get_par_direction(allTypes, count)
            if base != FRIBIDI_PAR_RTL, base != FRIBIDI_PAR_LTR {
                base = fallbackRightToLeft ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR
            }
        }
        let rightToLeft = base == FRIBIDI_PAR_RTL
        guard fribidi_get_par_embedding_levels_ex(allTypes, brackets, count, &base, &allLevels) > 0 else { return nil }
        var types: [FriBidiCharType] = []
        var levels: [FriBidiLevel] = []
        var hidden: [Bool] = []
        types.reserveCapacity(clusters.count)
        levels.reserveCapacity(clusters.count)
        hidden.reserveCapacity(clusters.count)
        for index in firstScalar {
            types.append(allTypes[index])
            levels.append(allLevels[index])
            hidden.append(Self.isFormatting(scalars[index]))
        }
        if !rightToLeft, !levels.contains(where: { $0 != 0 }), !hidden.contains(true) { return nil }
        self.shaped = Self.shape(scalars, types: allTypes, levels: allLevels, clusters: zip(firstScalar, clusterEnd))
        self.isRightToLeft = rightToLeft
        self.types = types
        self.levels = levels
        self.hidden = hidden
    }

    /// Joins the letters of `scalars` that join (FriBidi's Arabic shaping, to presentation forms,
    /// without ligatures: a lam-alef ligature would take one cell for two clusters).
    private static func shape(
        _ scalars: [FriBidiChar], types: [FriBidiCharType], levels: [FriBidiLevel],
        clusters: Zip2Sequence<[Int], [Int]>
    ) -> [Int: String] {
        let count = FriBidiStrIndex(scalars.count)
        var joining = [FriBidiJoiningType](repeating: 0, count: scalars.count)
        fribidi_get_joining_types(scalars, count, &joining)
        // U (non-joining) is 0; a paragraph without a joining letter needs nothing more.
        guard joining.contains(where: { $0 != 0 }) else { return [:] }
        var properties: [FriBidiArabicProp] = joining
        fribidi_join_arabic(types, count, levels, &properties)
        var forms = scalars
        fribidi_shape_arabic(FriBidiFlags(FRIBIDI_FLAG_SHAPE_ARAB_PRES), levels, count, &properties, &forms)
        var shaped: [Int: String] = [:]
        for (index, (first, end)) in clusters.enumerated() where forms[first..<end] != scalars[first..<end] {
            var view = String.UnicodeScalarView()
            for value in forms[first..<end] { view.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
            shaped[index] = String(view)
        }
        return shaped
    }

    /// Cluster `index` as drawn: its letters in their joined forms, when it has letters that join.
    func shapedText(_ index: Int) -> String? { shaped[index] }

    /// The clusters `range` of one line in display order, left to right, formatting characters
    /// left out; each with whether it reads right to left (its brackets are mirrored).
    func displayOrder(_ range: Range<Int>) -> [(index: Int, rightToLeft: Bool)] {
        guard !range.isEmpty else { return [] }
        var lineLevels = Array(levels[range])
        let lineTypes = Array(types[range])
        var map = (Int32(range.lowerBound)..<Int32(range.upperBound)).map { FriBidiStrIndex($0) }
        let base = isRightToLeft ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR
        // `lineLevels` comes back with the line's trailing white space at the paragraph's level (L1).
        _ = fribidi_reorder_line(
            FriBidiFlags(FRIBIDI_FLAG_REORDER_NSM), lineTypes, FriBidiStrIndex(range.count), 0, base, &lineLevels, nil,
            &map)
        return map.compactMap { logical in
            let index = Int(logical)
            guard !hidden[index] else { return nil }
            return (index, lineLevels[index - range.lowerBound] % 2 == 1)
        }
    }

    /// The scalar drawn for `scalar` in right-to-left text: its mirror image when it has one
    /// (`(` for `)`, `«` for `»`), as FriBidi's mirroring table says.
    static func mirrored(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        var mirror: FriBidiChar = 0
        guard fribidi_get_mirror_char(scalar.value, &mirror) != 0, let result = Unicode.Scalar(mirror) else {
            return scalar
        }
        return result
    }

    /// One line of text (a title, a list marker) in display order, for drawing among bok's own
    /// words: its direction `direction`, else from its first strong letter, else `language`'s;
    /// nothing of it moves outside it.
    static func displayLine(_ text: String, direction: TextDirection? = nil, language: String? = nil) -> String {
        guard mayReorder([TextRun(text: text)], declared: direction, language: { language }) else { return text }
        let units = Array(text.utf16)
        var clusters: [Cluster] = []
        var offset = 0
        for character in text {
            let length = character.utf16.count
            clusters.append(Cluster(offset: offset, length: length, direction: nil))
            offset += length
        }
        guard let paragraph = BidiParagraph(units: units, clusters: clusters, declared: direction, language: language)
        else { return text }
        let characters = Array(text)
        var result = ""
        for (index, rightToLeft) in paragraph.displayOrder(0..<clusters.count) {
            if let shaped = paragraph.shapedText(index) {
                result += shaped
            } else {
                result += rightToLeft ? mirroredCluster(characters[index]) : String(characters[index])
            }
        }
        return result
    }

    /// A cluster as drawn right to left: its first scalar mirrored.
    static func mirroredCluster(_ character: Character) -> String {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return String(character) }
        let mirror = mirrored(first)
        if mirror == first { return String(character) }
        var view = String.UnicodeScalarView()
        view.append(mirror)
        view.append(contentsOf: scalars.dropFirst())
        return String(view)
    }

    /// Bidi formatting characters: they order the text and take no cell.
    private static func isFormatting(_ scalar: FriBidiChar) -> Bool {
        scalar == 0x200E || scalar == 0x200F || scalar == 0x061C || (0x202A...0x202E).contains(scalar)
            || (0x2066...0x2069).contains(scalar)
    }
}
