import Foundation
import Terminal

extension Pager {
    /// The pager answers taller than the window go through, chosen as git chooses its own:
    /// `BOK_PAGER`, else the config file's `pager =`, else `PAGER`, else less. Nil when paging is
    /// turned off: `cat` or an empty value (`PAGER=` or `pager =`).
    static func chosen(environment: [String: String], configured: String?) -> Pager? {
        let command = environment["BOK_PAGER"] ?? configured ?? environment["PAGER"] ?? Pager.standard.command
        let trimmed = command.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed != "cat" else { return nil }
        return Pager(command: trimmed)
    }
}
