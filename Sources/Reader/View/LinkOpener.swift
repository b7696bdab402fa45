internal import Foundation

/// Opens a link out of the book in the system's browser or mail program, never fetching it
/// itself: `xdg-open` in a graphical session, else nothing (the reader shows the address).
enum LinkOpener {
    /// The schemes handed on: the web and mail. Anything else (`javascript:`, `file:`, …) is not.
    static let schemes: Set<String> = ["http", "https", "mailto"]

    /// Whether an address is one the reader offers to open.
    static func canOpen(_ address: String) -> Bool {
        guard let colon = address.firstIndex(of: ":") else { return false }
        return schemes.contains(address[..<colon].lowercased())
    }

    /// Hands `address` to `xdg-open`, detached, with its output thrown away; false when there is
    /// no graphical session or no `xdg-open` (the caller shows the address instead).
    static func open(_ address: String) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        guard canOpen(address), environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil,
            let tool = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
                .map({ String($0) + "/xdg-open" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [address]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        return true
    }
}
