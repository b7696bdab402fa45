import Foundation
import Synchronization

/// Products encoded as JSON lately, by catalogue index and the origin their links were made
/// absolute with: a page of search results is mostly products some page showed before.
///
/// Bounded: when `capacity` entries are held, they are all dropped and the cache fills again
/// (cheaper than keeping a least-recently-used order per hit, and a full refill costs what a
/// few hundred searches would have cost without it). Two requests that miss at once both encode
/// the product; the bytes are the same.
final class ProductJSONCache: Sendable {
    struct Key: Hashable, Sendable {
        var index: Int
        var origin: String
    }

    let capacity: Int
    private let entries = Mutex<[Key: Data]>([:])

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The bytes for `key`, made with `make` (outside the lock) when they are not cached.
    func value(for key: Key, make: () -> Data) -> Data {
        if let cached = entries.withLock({ $0[key] }) { return cached }
        let data = make()
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = data
        }
        return data
    }
}
