import GRDB

extension ShelfStore {
    // MARK: Covers of shelf books
    //
    // The loans and reservations a sync brings do not say where their covers are; the product a
    // command borrowed, reserved or kept from a list did. `shelf --covers` draws them.

    /// The longest cover address kept: a longer one is not a cover's.
    public static let maxCoverURLLength = 2048

    /// Keeps where `productID`'s cover is: an absolute `http`/`https` address, else nothing.
    public func recordCoverURL(productID: String, url: String) throws {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), url.utf8.count <= Self.maxCoverURLLength,
            !url.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
        else { return }
        try write { db in
            try db.execute(
                sql: "INSERT INTO coverURL (productID, url) VALUES (?, ?) "
                    + "ON CONFLICT(productID) DO UPDATE SET url = excluded.url",
                arguments: [productID, url])
        }
    }

    /// The kept cover addresses of `productIDs`, by product.
    public func coverURLs(productIDs: [String]) throws -> [String: String] {
        guard !productIDs.isEmpty else { return [:] }
        return try writer.read { db in
            var found: [String: String] = [:]
            // In chunks: SQLite takes at most 32 766 arguments in one statement.
            for start in stride(from: 0, to: productIDs.count, by: 500) {
                let chunk = Array(productIDs[start..<min(productIDs.count, start + 500)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let rows = try Row.fetchAll(
                    db, sql: "SELECT productID, url FROM coverURL WHERE productID IN (\(marks))",
                    arguments: StatementArguments(chunk))
                for row in rows { found[row["productID"]] = row["url"] }
            }
            return found
        }
    }
}
