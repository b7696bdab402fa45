// The reader's places, notes and settings are part of its API (ReaderApp.run takes a
// PositionStore): whoever imports Reader sees them, as before they moved to their own module.
@_exported public import ReadingState
