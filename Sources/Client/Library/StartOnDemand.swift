internal import Synchronization

/// Work that starts the first time it is awaited (or asked to ``start()``), and runs once.
///
/// The built-in mock library is a real HTTP server with a generated catalogue: starting it took
/// some 30 ms of CPU and 20 MB, which `bok read FILE` and `bok help` paid for nothing, on a fresh
/// account (no library configured, so the mock is the library). At the prompt it is started at
/// once, while the banner is on screen; a one-shot command starts it only if it asks the library.
final class StartOnDemand<Value: Sendable>: Sendable {
    private let work: @Sendable () async throws -> Value
    private let task = Mutex<Task<Value, any Error>?>(nil)

    init(_ work: @escaping @Sendable () async throws -> Value) { self.work = work }

    /// The work, started now if it was not yet.
    @discardableResult
    func start() -> Task<Value, any Error> {
        task.withLock { task in
            if let task { return task }
            let started = Task { [work] in try await work() }
            task = started
            return started
        }
    }

    /// The work's result, starting it if need be.
    var value: Value {
        get async throws { try await start().value }
    }

    /// The result, when the work was started; nil (without starting it) when it never was.
    func valueIfStarted() async -> Value? {
        guard let started = task.withLock({ $0 }) else { return nil }
        return try? await started.value
    }
}
