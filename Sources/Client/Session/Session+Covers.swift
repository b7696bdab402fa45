import Catalog
import Foundation
import Reader
import Shelf

/// The covers of the shelf's books (`shelf --covers`): where each is, recorded when a book came
/// onto the shelf from a list, and the pictures as far as they are at hand.
extension Session {
    /// The most covers one `shelf --covers` fetches from the library; the rest come next time.
    static let shelfCoverFetches = 40

    /// Keeps where `product`'s cover is, for `shelf --covers`; nothing when it has none. A shelf
    /// that cannot be written loses only this.
    func keepCoverAddress(of product: Product?) {
        guard let product, let url = CoverArt.address(of: product.coverImage, session: self) else { return }
        try? shelfStore().recordCoverURL(productID: product.id, url: url.absoluteString)
    }

    /// The covers of `items` at hand now (drawn this session or kept in the cache: nil for a book
    /// whose cover is not known), and the ones to fetch, each once.
    func shelfCovers(_ items: [ShelfItem]) -> (covers: [String: RasterImage?], missing: [(id: String, url: URL)]) {
        let ids = items.map(\.entry.productID)
        let addresses = (try? shelfStore().coverURLs(productIDs: ids)) ?? [:]
        var covers: [String: RasterImage?] = [:]
        var missing: [(id: String, url: URL)] = []
        for id in ids where covers[id] == nil {
            if let known = coverCache[id] {
                covers[id] = .some(known)
            } else if let address = addresses[id], let url = URL(string: address) {
                if let kept = CoverArt.kept(at: url, session: self) {
                    coverCache[id] = .some(kept)
                    covers[id] = .some(kept)
                } else {
                    covers[id] = .some(nil)
                    if !missing.contains(where: { $0.id == id }) { missing.append((id, url)) }
                }
            } else {
                covers[id] = .some(nil)
            }
        }
        return (covers, Array(missing.prefix(Self.shelfCoverFetches)))
    }

    /// Fetches `missing` after the shelf is shown, four at a time, into the cache: the shelf
    /// never waits for them. A one-shot `bok shelf --covers` waits for them before it ends.
    func fetchShelfCovers(_ missing: [(id: String, url: URL)]) {
        guard !missing.isEmpty else { return }
        let before = coverFetch
        coverFetch = Task { @MainActor in
            await before?.value
            for start in stride(from: 0, to: missing.count, by: 4) {
                let batch = missing[start..<min(missing.count, start + 4)]
                let fetches = batch.map { one in
                    Task { @MainActor in await CoverArt.cover(at: one.url, session: self) }
                }
                for (one, fetch) in zip(batch, fetches) {
                    if let picture = await fetch.value { coverCache[one.id] = .some(picture) }
                }
            }
        }
    }
}
