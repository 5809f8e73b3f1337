// Checks of the heap property, for tests.

extension EventQueue {
    /// True when every parent precedes its children: the heap is well formed.
    package var satisfiesHeapInvariant: Bool {
        let heap = self.heap
        for index in 1..<max(heap.count, 1) where heap[index].precedes(heap[(index - 1) >> 1]) {
            return false
        }
        return true
    }
}
