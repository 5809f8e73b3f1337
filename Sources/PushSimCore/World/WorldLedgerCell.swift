// Where a world's counts go: a ledger held by reference, the world's own or its part's.
//
// On the coupled path every world of a partition is alive at once, and a ledger held in each
// world was 816 of its bytes (issue 26, item 1). A run that adds its devices' counts up (every
// run but `check`'s, which keeps each device's own) lets the worlds of one part count into one
// ledger instead (WorldSettlement.swift): the same sums, one ledger per part.

/// A ledger that one or more worlds count into, one at a time (one thread steps a partition).
package final class LedgerCell {
    /// Written in place through the world's `ledger` (no exclusivity check on a path that counts
    /// at nearly every step; the cell is never shared across threads).
    @exclusivity(unchecked) package var ledger: Ledger

    /// A cell holding `ledger`; by default the placeholder, whose buffers every world shares
    /// until it records a letter (so a world waiting its turn holds no histogram).
    package init(_ ledger: Ledger = DeviceWorld.placeholderLedger) { self.ledger = ledger }
}
