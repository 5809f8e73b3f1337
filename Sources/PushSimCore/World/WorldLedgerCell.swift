// Where a world's counts go: a ledger held by reference, the world's own or its part's.
//
// On the coupled path every world of a partition is alive at once, so a ledger is not held in
// each world: a run that adds its devices' counts up (every run but `check`'s, which keeps each
// device's own) lets the worlds of one part count into one ledger instead
// (WorldSettlement.swift): the same sums, one ledger per part.

/// A ledger that one or more worlds count into, one at a time (one thread steps a partition).
package final class LedgerCell {
    /// The ledger, in a slab of one: read and written in place through the world's `ledger`
    /// on a path that counts at nearly every step, with no copy. The cell is never shared
    /// across threads, and one world counts into it at a time.
    private let slot: Slab<Ledger>

    /// A cell holding `ledger`; by default the placeholder, whose buffers every world shares
    /// until it records a letter (so a world waiting its turn holds no histogram).
    package init(_ ledger: Ledger = DeviceWorld.placeholderLedger) { slot = Slab(count: 1) { _ in ledger } }

    /// The ledger, in place.
    package var ledger: Ledger {
        @inline(__always) _read { yield slot[0] }
        @inline(__always) _modify { yield &slot[0] }
    }

    /// The events counted so far, read in place in the slot.
    var events: Int { slot[0].events }
}
