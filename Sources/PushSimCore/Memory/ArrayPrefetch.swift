// The memory layer: hints that bring a Swift array's memory into the processor's caches ahead of use.

import PushSimPrefetch

/// Prefetch hints for the standard library's arrays (an extension, not a type of the layer): each asks the processor to bring some of
/// an array's memory into its caches, and reads and changes nothing, so a wrong guess costs
/// lines fetched for nothing, never a result. (The world's own containers have their own:
/// ``OwnedArray/prefetchElements(maxBytes:)``, ``Slab/prefetch(_:)``.)
extension Array {
    /// The line holding the array's header (just before its elements): the count that a later
    /// fetch of its elements reads, fetched a step earlier so that the later one does not wait.
    @inline(__always) func prefetchHeader() {
        unsafe withUnsafeBufferPointer { elements in
            guard let first = elements.baseAddress else { return }
            unsafe pushsim_prefetch(UnsafeRawPointer(first) - 32)
        }
    }

    /// `bytes` bytes of the array's elements from element `index` (those the array has).
    @inline(__always) func prefetchElements(from index: Int, bytes: Int) {
        unsafe withUnsafeBufferPointer { elements in
            guard let first = elements.baseAddress, index >= 0, index < elements.count else { return }
            let held = (elements.count - index) &* MemoryLayout<Element>.stride
            unsafe pushsim_prefetch_range(first + index, Swift.min(bytes, held))
        }
    }

}
