internal import Foundation
internal import Synchronization

/// A value worked out on a thread of its own from the moment it is made, and waited for when
/// first asked for: work the first page can do without, done beside it on the other core.
///
/// A thread, not a Dispatch queue or a task: whoever waits may be on Swift's cooperative pool,
/// which must never wait on itself.
public final class BackgroundResult<Value: Sendable>: Sendable {
    private let state = Mutex<Value?>(nil)
    private let finished = NSCondition()

    /// Starts `work` at once on a new thread.
    public init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let value = work()
            finished.lock()
            state.withLock { $0 = value }
            finished.broadcast()
            finished.unlock()
        }
        thread.start()
    }

    /// The value, once worked out.
    public var value: Value {
        if let done = state.withLock({ $0 }) { return done }
        finished.lock()
        defer { finished.unlock() }
        while true {
            if let done = state.withLock({ $0 }) { return done }
            finished.wait()
        }
    }

    /// The value if it is ready, without waiting.
    public var valueIfReady: Value? { state.withLock { $0 } }
}
