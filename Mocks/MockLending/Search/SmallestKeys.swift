/// The `k` smallest of many keys, in order, without sorting them all.
///
/// A search for "a*" over 200 000 books may match most of them while the page shows twenty;
/// a bounded max-heap finds those twenty in one pass (n log k) instead of a full sort (n log n).
enum SmallestKeys {
    static func select(_ keys: [UInt64], count k: Int) -> [UInt64] {
        guard k > 0, !keys.isEmpty else { return [] }
        if k * 4 >= keys.count { return Array(keys.sorted().prefix(k)) }
        var heap: [UInt64] = []
        heap.reserveCapacity(k)
        for key in keys {
            if heap.count < k {
                heap.append(key)
                siftUp(&heap, heap.count - 1)
            } else if key < heap[0] {
                heap[0] = key
                siftDown(&heap, 0)
            }
        }
        return heap.sorted()
    }

    /// Max-heap: a parent is not smaller than its children.
    private static func siftUp(_ heap: inout [UInt64], _ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            if heap[parent] >= heap[child] { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private static func siftDown(_ heap: inout [UInt64], _ start: Int) {
        var parent = start
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { return }
            let right = left + 1
            let larger = right < count && heap[right] > heap[left] ? right : left
            if heap[parent] >= heap[larger] { return }
            heap.swapAt(parent, larger)
            parent = larger
        }
    }
}
