import Foundation

/// A new, empty folder to be a test's `HOME` (and its XDG folders below it); the test removes it.
func temporaryHome() throws -> URL {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-home-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    return home
}
