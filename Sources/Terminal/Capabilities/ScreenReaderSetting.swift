/// `screen-reader = on|off|auto` in the config file: whether output is written for a screen
/// reader. `auto`, the default, turns it on when ``ScreenReaderDetection`` finds one at work;
/// `--screen-reader` turns it on whatever the file says.
public enum ScreenReaderSetting: String, Sendable, Hashable, CaseIterable {
    case on, off, auto

    /// The values as the config file takes them: `on|off|auto`.
    public static var choices: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// `on`, `off` or `auto` as written in a config file (also `yes`/`no`, `true`/`false`, `1`/`0`).
    public init?(configValue: String) {
        switch configValue.lowercased() {
        case "on", "yes", "true", "1": self = .on
        case "off", "no", "false", "0": self = .off
        case "auto": self = .auto
        default: return nil
        }
    }

    /// Whether the screen-reader mode is on: `on`, or `auto` and a screen reader found.
    /// - Parameter detect: looks for a screen reader; asked only for `auto`.
    public func isOn(detect: () -> ScreenReaderDetection = { .detect() }) -> Bool {
        switch self {
        case .on: true
        case .off: false
        case .auto: detect().found
        }
    }
}
