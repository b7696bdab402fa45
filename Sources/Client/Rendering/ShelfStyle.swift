import Shelf
import Terminal

/// Colours of shelf badges: green days, yellow for three or fewer, red on the last day, dim when ended.
enum ShelfStyle {
    /// The badge in its colour; `padded` lines loan badges up in a column (`loans`).
    static func paint(_ badge: Badge, theme: Theme, padded: Bool = true) -> String {
        let text = padded ? DisplayWidth.pad(badge.text, to: 7) : badge.text
        switch badge {
        case .daysLeft: return theme.green(text)
        case .fewDaysLeft: return theme.yellow(text)
        case .lastDay: return theme.red(text)
        case .ended: return theme.dim(text)
        case .sample: return theme.paint(text, .color(.cyan))
        case .queued: return theme.yellow(badge.text)
        case .ready: return theme.paint(badge.text, TextStyle(foreground: .green, bold: true))
        }
    }
}
