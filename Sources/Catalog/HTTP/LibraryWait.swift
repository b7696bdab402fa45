/// Told when bok starts and stops waiting for the library, so a person at a terminal can see that
/// it is waiting (the REPL's spinner).
public protocol LibraryWaitObserver: Sendable {
    /// A request was sent.
    func began()
    /// Its answer came, or it failed or was cancelled.
    func ended()
}

/// Who is told about waits: a task-local, so that only the command a patron is waiting for
/// reports, and never a sync running in the background while they type.
public enum LibraryWait {
    @TaskLocal public static var observer: (any LibraryWaitObserver)?
}
