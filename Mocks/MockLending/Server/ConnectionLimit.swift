import Dispatch
import HummingbirdCore
import Synchronization

/// Closed when the server starts to stop, so that it accepts no connection while shutting down.
///
/// Hummingbird's connection limit asks the listening socket for more connections each time one
/// closes. While the server stops, every open connection closes, so connections still waiting in
/// the kernel's backlog were accepted after the server had stopped taking them; NIO then dropped
/// their channel writers unfinished and stopped the process ("Deinited NIOAsyncWriter without
/// calling finish()"). Closing the gate first leaves them in the backlog, where the kernel resets them.
///
/// A connection accepted just before the gate closed is still being set up for a moment; stopping
/// then drops it the same way. `closeAndSettle()` therefore waits until no connection has been
/// accepted for `settleTime` (no wait at all in the usual stop, with nothing accepted lately).
final class AcceptGate: Sendable {
    private let open = Atomic<Bool>(true)
    /// When the last connection was accepted (`DispatchTime` nanoseconds; 0: never).
    private let lastAccept = Atomic<UInt64>(0)
    static let settleTime: UInt64 = 100_000_000

    var isOpen: Bool { open.load(ordering: .acquiring) }

    func accepted() { lastAccept.store(DispatchTime.now().uptimeNanoseconds, ordering: .releasing) }

    /// Stops accepting, then waits (at most a second) until connections accepted before are set up.
    func closeAndSettle() async {
        open.store(false, ordering: .releasing)
        for _ in 0..<10 {
            let since = DispatchTime.now().uptimeNanoseconds &- lastAccept.load(ordering: .acquiring)
            guard since < Self.settleTime else { return }
            try? await Task.sleep(nanoseconds: Self.settleTime - since)
        }
    }
}

/// At most `maximum` connections at once (a connection past it waits in the backlog for a slot),
/// and none once the gate is closed.
struct ConnectionLimit: AvailableConnectionsDelegate {
    let maximum: Int
    let gate: AcceptGate
    private var count = 0

    init(maximum: Int, gate: AcceptGate) {
        self.maximum = maximum
        self.gate = gate
    }

    mutating func connectionOpened() {
        count += 1
        gate.accepted()
    }

    mutating func connectionClosed() { count -= 1 }

    func isAcceptingNewConnections() -> Bool { count < maximum && gate.isOpen }
}
