import HummingbirdCore
import Synchronization

/// Closed when the server starts to stop, so that it accepts no connection while shutting down.
///
/// Hummingbird's connection limit asks the listening socket for more connections each time one
/// closes. While the server stops, every open connection closes, so connections still waiting in
/// the kernel's backlog were accepted after the server had stopped taking them; NIO then dropped
/// their channel writers unfinished and stopped the process ("Deinited NIOAsyncWriter without
/// calling finish()"). Closing the gate first leaves them in the backlog, where the kernel resets them.
final class AcceptGate: Sendable {
    private let open = Atomic<Bool>(true)

    var isOpen: Bool { open.load(ordering: .acquiring) }

    func close() { open.store(false, ordering: .releasing) }
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

    mutating func connectionOpened() { count += 1 }

    mutating func connectionClosed() { count -= 1 }

    func isAcceptingNewConnections() -> Bool { count < maximum && gate.isOpen }
}
