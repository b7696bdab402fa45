import Localization
import Terminal

/// A row of a table of keys: the keys as the `?` panel shows them, what they do, and the keys
/// bound to each action of the row. A key not named in ``keys`` may still be bound there
/// (Ctrl-F, the mouse wheel), beside the keys it goes with.
struct KeyBinding<Action: Hashable & Sendable>: Sendable {
    /// The keys as the `?` panel and the docs show them: `space PgDn → l j`.
    let keys: String
    /// What they do, in English and marked for translation; shown with `tr`.
    let description: String
    /// Each action of the row with the keys bound to it.
    let actions: [(action: Action, keys: [Key])]

    init(_ keys: String, _ description: String, _ actions: [(action: Action, keys: [Key])]) {
        self.keys = keys
        self.description = description
        self.actions = actions
    }
}

/// A table of keys: its rows in the order the `?` panel lists them, and the action of each key.
struct KeyTable<Action: Hashable & Sendable>: Sendable {
    let rows: [KeyBinding<Action>]
    /// Each bound key and its action; the wheel is bound wherever the pointer is.
    private let actionByKey: [Key: Action]

    init(_ rows: [KeyBinding<Action>]) {
        self.rows = rows
        actionByKey = Dictionary(
            rows.flatMap { row in row.actions.flatMap { pair in pair.keys.map { ($0, pair.action) } } },
            uniquingKeysWith: { first, _ in first })
    }

    /// Every bound key with its action, in the table's order (a key twice means a mistake).
    var bound: [(key: Key, action: Action)] {
        rows.flatMap { row in row.actions.flatMap { pair in pair.keys.map { (key: $0, action: pair.action) } } }
    }

    /// What `key` does, if anything.
    func action(for key: Key) -> Action? {
        switch key {
        case .wheelDown: actionByKey[.wheelDown(row: 0, column: 0)]
        case .wheelUp: actionByKey[.wheelUp(row: 0, column: 0)]
        default: actionByKey[key]
        }
    }
}
