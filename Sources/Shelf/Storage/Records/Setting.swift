public import GRDB

/// One application setting, a key and its text value.
public struct Setting: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    /// The key.
    public var key: String
    /// The value.
    public var value: String

    public static let databaseTableName = "setting"

    /// Creates a setting.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
