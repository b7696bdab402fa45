import Synchronization

/// Slots that concurrent workers fill by index, read once all have finished.
///
/// A `Mutex` rather than unsafe buffers: each worker takes the lock once, to store a whole chunk.
final class ResultSlots<T: Sendable>: Sendable {
    private let slots: Mutex<[T?]>

    init(count: Int) { slots = Mutex([T?](repeating: nil, count: count)) }

    func set(_ index: Int, _ value: T) {
        slots.withLock { $0[index] = value }
    }

    /// The values in slot order; every slot must have been set.
    func values() -> [T] {
        slots.withLock { $0.map { $0! } }
    }
}
