public import Catalog
public import Foundation
import GRDB

extension ShelfStore {
    /// At most this many watched books are asked about at each sync: a sync stays quick.
    public static let maxWatched = 25

    /// Watches a book for a card; watching it again keeps it once. Returns false when it was watched already.
    @discardableResult
    public func addWatch(profileID: Int64, card: String, product: Product, now: Date) throws -> Bool {
        try write { db in
            let key: [String: any DatabaseValueConvertible] = [
                "libraryProfile": profileID, "card": card, "productID": product.id,
            ]
            guard try WatchRecord.fetchOne(db, key: key) == nil else { return false }
            try WatchRecord(
                libraryProfile: profileID, card: card, productID: product.id, title: product.title,
                authors: Self.authorLine(product), addedAt: now
            ).insert(db)
            return true
        }
    }

    /// Stops watching a book. Returns false when it was not watched.
    @discardableResult
    public func removeWatch(profileID: Int64, card: String, productID: String) throws -> Bool {
        try write { db in
            try WatchRecord.deleteOne(db, key: ["libraryProfile": profileID, "card": card, "productID": productID])
        }
    }

    /// The books a card watches, in the order they were added.
    public func watches(profileID: Int64, card: String) throws -> [WatchRecord] {
        try writer.read { db in
            try WatchRecord.filter(Column("libraryProfile") == profileID && Column("card") == card)
                .order(Column("addedAt"), Column("productID")).fetchAll(db)
        }
    }

    /// Asks the library whether each watched book can be borrowed now (the first ``maxWatched``);
    /// a book it cannot say about is left out.
    static func watchedAvailability(
        from service: some LendingService, card: String, watched: [WatchRecord]
    ) async -> [String: Bool] {
        var available: [String: Bool] = [:]
        for record in watched.prefix(maxWatched) {
            if let answer = try? await service.availability(productID: record.productID, card: card) {
                available[record.productID] = answer.available
            }
        }
        return available
    }
}
