public import Foundation
public import GRDB

/// A book file on disk.
public struct DownloadRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ShelfDates {
    /// What kind of file it is.
    public enum Format: String, Codable, Sendable, Hashable, CaseIterable {
        case epub, pdf, sample
    }

    /// The product.
    public var productID: String
    /// The loan it was downloaded under, if any.
    public var loanID: String?
    /// Where the file is.
    public var path: String
    /// Its size in bytes.
    public var size: Int64
    /// Its SHA-256, in lowercase hex.
    public var sha256: String
    /// Its format.
    public var format: Format
    /// When it was downloaded.
    public var downloadedAt: Date

    public static let databaseTableName = "download"

    /// Creates a record.
    public init(
        productID: String, loanID: String? = nil, path: String, size: Int64, sha256: String,
        format: Format = .epub, downloadedAt: Date
    ) {
        self.productID = productID
        self.loanID = loanID
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.format = format
        self.downloadedAt = downloadedAt
    }
}
