public import Catalog
public import Foundation

/// The EPUB files the mock library lends (stub; replaced by the generator).
public enum MockBooks {
    /// The EPUB of `product` (its first chapters only when `sample`).
    public static func epub(for product: Product, seed: UInt64, sample: Bool) -> Data {
        Data("stub epub for \(product.id) sample=\(sample)".utf8)
    }
}
