import Foundation
import Hummingbird
import NIOCore

/// What the `Hostile` fault puts into the library's answers: the words a hostile or broken server
/// could send, each a valid JSON string, to check that a client never lets them act on the
/// patron's terminal (window title, clipboard, screen, mouse, keyboard, text direction).
///
/// Each field keeps its real text, so lists stay readable, and gains one kind of attack.
public enum HostileText {
    /// Titles: OSC 0 (window title), OSC 52 (write the clipboard), CSI 2J (clear the screen).
    public static let title = "\u{1B}]0;PWNED\u{07}\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J"
    /// First names: SGR 5, blinking text that would run on into bok's own words.
    public static let firstName = "\u{1B}[5m"
    /// Last names: the alternate screen and mouse reporting switched on, and a DEL.
    public static let lastName = "\u{1B}[?1049h\u{1B}[?1000h\u{7F}"
    /// Categories: a DCS request and a NUL.
    public static let category = "\u{1B}P+q544e\u{1B}\\\u{0}"
    /// Descriptions and messages: an OSC 8 hyperlink, the 8-bit CSI U+009B, and a right-to-left override.
    public static let description = "\u{1B}]8;;http://evil.invalid/\u{07}click\u{1B}]8;;\u{07} \u{9B}31m\u{202E}"
    /// Names and places (the library's name is in the prompt): a left-to-right isolate never closed.
    public static let name = "\u{2066}"

    /// Every control sequence above that must never reach a terminal as it is.
    public static let sequences = [
        "\u{1B}]0;", "\u{1B}]52;", "\u{1B}[2J", "\u{1B}[5m", "\u{1B}[?1049h", "\u{1B}[?1000h",
        "\u{1B}P", "\u{1B}]8;", "\u{9B}",
    ]

    /// The JSON answer with hostile text added to every human-readable string in it, or nil
    /// when the body is not a JSON object or array (then it goes out unchanged).
    static func infect(_ body: Data) -> Data? {
        guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            json is [String: Any] || json is [Any]
        else { return nil }
        return try? JSONSerialization.data(withJSONObject: infect(json, key: nil), options: [.withoutEscapingSlashes])
    }

    private static func infect(_ value: Any, key: String?) -> Any {
        switch value {
        case let object as [String: Any]:
            return Dictionary(uniqueKeysWithValues: object.map { ($0.key, infect($0.value, key: $0.key)) })
        case let array as [Any]:
            return array.map { infect($0, key: key) }
        case let text as String:
            switch key {
            case "Title"?, "OriginalTitle"?: return text + title
            case "FirstName"?: return firstName + text
            case "LastName"?, "FullName"?: return text + lastName
            case "Categories"?, "Keywords"?: return text + category
            case "Description"?, "Message"?, "Reason"?: return description + text
            case "Name"?, "Place"?, "Publisher"?: return text + name
            default: return text
            }
        default:
            return value
        }
    }
}

/// Collects a response body so that a middleware can rewrite it.
struct CollectingBodyWriter: ResponseBodyWriter {
    final class Storage { var buffer = ByteBuffer() }
    let storage = Storage()

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        storage.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
