// The memory layer: a fixed number of values that cannot be copied, side by side in one block.

import PushSimPrefetch

/// `count` values that cannot be copied (the worlds of a coupling unit), made once and kept
/// side by side in one block until the slab ends: each is reached in place by its index,
/// bounds-checked, with no copy and no reference count per value.
///
/// A class, so its owner may hand it around while the values stay where they are; the values
/// are read and written in place through the subscript. Invariant (``_checkInvariants()``):
/// exactly `count` values are initialized, from the first slot on.
@safe final class Slab<Element: ~Copyable> {
    let count: Int
    private let base: UnsafeMutablePointer<Element>

    /// `count` values, value i made by `make(i)`.
    init(count: Int, _ make: (Int) -> Element) {
        precondition(count >= 0, "a slab of a negative count")
        self.count = count
        unsafe base = .allocate(capacity: Swift.max(1, count))
        for i in 0..<count { unsafe (base + i).initialize(to: make(i)) }
    }

    deinit {
        unsafe base.deinitialize(count: count)
        unsafe base.deallocate()
    }

    /// Value i, read or updated in place.
    subscript(i: Int) -> Element {
        @inline(__always) unsafeAddress {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "slab index out of range")
            return unsafe UnsafePointer(base + i)
        }
        @inline(__always) unsafeMutableAddress {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "slab index out of range")
            return unsafe base + i
        }
    }

    /// Asks the processor to bring value i's own bytes into its caches: a hint that reads
    /// nothing and changes nothing (an index out of range is ignored).
    @inline(__always) func prefetch(_ i: Int) {
        guard UInt(bitPattern: i) < UInt(bitPattern: count) else { return }
        unsafe pushsim_prefetch_range(UnsafeRawPointer(base + i), MemoryLayout<Element>.size)
    }

    /// Checks the invariant above (tests, and builds with internal checks).
    func _checkInvariants() {
        precondition(count >= 0, "a slab of a negative count")
    }
}
