// The extension killed early (extension.early_kill): the system ends a run before it did anything.

extension DeviceWorld {
    /// One draw per extension run, before it starts: with probability `early_kill` the system
    /// kills it at start-up or for memory (24 MB), without the expiry callback. The original
    /// content is shown at once; the run neither checks nor saves the position, nor sends a
    /// re-request, nor logs the push (docs/model.md §8, Early kill). Returns whether it was killed.
    /// Out of line: inlined, it would grow the world's loop for runs that never kill.
    @inline(never) mutating func extensionKilledEarly(letter: Int, at now: Int64) -> Bool {
        guard armState.streams.mechanismStreams.kills.chance(parameters.earlyKill) else { return false }
        ledger.earlyKill.kills += counted(letter)
        note(.device, letter, .extensionKilledEarly, at: now)
        present(letter: letter, at: now)
        return true
    }
}
