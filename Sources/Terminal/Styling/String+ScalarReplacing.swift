extension String {
    /// Replaces every occurrence of `target` (compared as scalars, not graphemes) with `replacement`.
    ///
    /// Escape codes are matched scalar by scalar: `String.replacingOccurrences` compares
    /// Characters and could miss an ESC whose neighbour forms a cluster with it.
    func replacingAll(_ target: String, with replacement: String) -> String {
        let scalars = Array(unicodeScalars)
        let needle = Array(target.unicodeScalars)
        guard !needle.isEmpty, scalars.count >= needle.count else { return self }
        var result = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if i + needle.count <= scalars.count, scalars[i..<(i + needle.count)].elementsEqual(needle) {
                result.append(contentsOf: replacement.unicodeScalars)
                i += needle.count
            } else {
                result.append(scalars[i])
                i += 1
            }
        }
        return String(result)
    }
}
