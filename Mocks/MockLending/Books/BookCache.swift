import Catalog
import Foundation
import Synchronization

/// The EPUBs served lately, so a download resumed with `Range` or repeated does not generate
/// the book again (generating one takes tens of milliseconds).
///
/// Bounded: past `capacity` books the one used longest ago is dropped. Two requests that miss
/// at once both generate the book; the result is the same, so the second just overwrites it.
final class BookCache: Sendable {
    /// A book and whether it is the sample.
    struct Key: Hashable, Sendable {
        var productIndex: Int
        var sample: Bool
    }

    private struct Storage {
        var books: [Key: Data] = [:]
        /// Keys from used longest ago to used last.
        var order: [Key] = []
    }

    let capacity: Int
    private let storage = Mutex(Storage())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The book for `key`, made with `make` (outside the lock) when it is not cached.
    func book(_ key: Key, make: () -> Data) -> Data {
        if let cached = storage.withLock({ storage -> Data? in
            guard let data = storage.books[key] else { return nil }
            storage.order.removeAll { $0 == key }
            storage.order.append(key)
            return data
        }) {
            return cached
        }
        let data = make()
        storage.withLock { storage in
            if storage.books.updateValue(data, forKey: key) == nil {
                storage.order.append(key)
                while storage.order.count > capacity { storage.books[storage.order.removeFirst()] = nil }
            }
        }
        return data
    }

    /// How many books are cached.
    var count: Int { storage.withLock { $0.books.count } }
}
