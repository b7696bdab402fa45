import Foundation

/// Where bok keeps its files, after the XDG base directories.
struct Paths: Sendable {
    /// `$XDG_CONFIG_HOME/bok` (default `~/.config/bok`): the config file, remembered credentials.
    let config: URL
    /// `$XDG_DATA_HOME/bok` (default `~/.local/share/bok`): history, the database, books.
    let data: URL
    /// `$XDG_CACHE_HOME/bok` (default `~/.cache/bok`).
    let cache: URL
    /// `$XDG_STATE_HOME/bok` (default `~/.local/state/bok`): the built-in mock library's state.
    let state: URL

    init(environment: [String: String]) {
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        func base(_ variable: String, _ fallback: String) -> URL {
            // The spec says relative paths in these variables are invalid and must be ignored.
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            return home.appendingPathComponent(fallback)
        }
        config = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("bok")
        data = base("XDG_DATA_HOME", ".local/share").appendingPathComponent("bok")
        cache = base("XDG_CACHE_HOME", ".cache").appendingPathComponent("bok")
        state = base("XDG_STATE_HOME", ".local/state").appendingPathComponent("bok")
    }

    /// The state of the built-in mock library of `seed` and `size`, shared by every `bok --mock`.
    func mockState(seed: UInt64, size: Int) -> URL {
        state.appendingPathComponent("mock-library-seed\(seed)-\(size).sqlite")
    }

    /// The REPL's command history.
    var historyFile: URL { data.appendingPathComponent("history") }
    /// The remembered card and PIN (`login --remember`), mode 0600.
    var credentialsFile: URL { config.appendingPathComponent("credentials") }
    /// The library configuration.
    var configFile: URL { config.appendingPathComponent("config") }
}
