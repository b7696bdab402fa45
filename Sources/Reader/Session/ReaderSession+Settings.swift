import Localization

extension ReaderSession {
    /// Changes the settings, saves them for this book and as the default for new books, and
    /// lays the book out again if needed, keeping the same sentence on screen.
    public mutating func updatePreferences(_ change: (inout ReaderPreferences) -> Void) {
        var updated = preferences
        change(&updated)
        updated.brightness = min(
            ReaderPreferences.brightnessRange.upperBound,
            max(ReaderPreferences.brightnessRange.lowerBound, updated.brightness))
        updated.margin = max(0, min(updated.margin, 40))
        guard updated != preferences else { return }
        preferences = updated
        relayout()
        let store = store
        let id = bookID
        persist(tr("Could not save the settings.")) {
            try store.saveSettings(updated, bookID: id)
            try store.saveDefaultSettings(updated)
        }
    }

    /// Takes a new screen size (the page area, without the status line), keeping the same sentence.
    public mutating func resize(columns: Int, rows: Int) {
        self.columns = max(10, columns)
        self.rows = max(1, rows)
        relayout()
    }

    /// Lays the book out at the current settings and size if they changed, then shows the page
    /// holding the anchor. The anchor itself stays, so several changes in a row do not drift.
    private mutating func relayout() {
        let settings = Self.layoutSettings(preferences, columns: columns, rows: rows, drawsImages: drawsImages)
        if !layout.isLaidOut(at: settings) {
            layout = layout.with(settings: settings)
        }
        position = viewPosition(for: anchor)
    }
}
