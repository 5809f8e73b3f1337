// Whether the world may settle steps ahead of the clock instead of scheduling them as events.

/// Some handlers settle what an event would do without scheduling it, each on an argued
/// invariant (docs/model.md): a first copy's arrival at APNs (its loss and latency are drawn
/// with the letter, and nothing in between can change what happens at APNs), and, in the off
/// arm without second copies, a copy due at an online device and its extension run (nothing
/// else can touch the letter meanwhile). `.taken` is what every run uses; `.scheduled` runs
/// every step as an event, in time order, so a test can check that the invariants hold: the
/// ledgers agree but for `events`, and the traces agree.
package enum ShortcutPolicy: Sendable {
    /// Settle those steps at once (the fast path, and every committed result).
    case taken
    /// Schedule every step as an event.
    case scheduled
}

// Each mechanism's own statement about the two shortcuts is `ChainMechanism`, in
// Mechanisms/MechanismRegistry.swift.
