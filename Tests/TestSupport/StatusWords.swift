import Foundation

/// Whether `text` shows the HTTP status `code` as a number of its own: not inside a longer number
/// and not as a port (`127.0.0.1:40123`), which a server on a random port may well have.
public func showsStatus(_ text: String, _ code: Int) -> Bool {
    text.range(of: "(?<![0-9:])\(code)(?![0-9])", options: .regularExpression) != nil
}
