// Device id changes (device.id_change): the app's saved position is forgotten, and the gap it would have revealed with it.

/// Device id changes in one arm.
struct IdChangeState {
    /// When the device id next changes (queue arm with `device.id_change`); Int64.max: never.
    var next = Int64.max
}

extension DeviceWorld {
    /// The first change of the device id in this arm: a Poisson process of rate `id_change`,
    /// drawn one change at a time as extension runs pass them (docs/model.md §8, Device id change).
    @inline(never) mutating func scheduleFirstIdChange() {
        mechanisms.idChange.next = later(0, SimTime.rounding(armState.streams.mechanismStreams.idChanges.nextExponential() / parameters.idChangeRate).microseconds)
    }

    /// An extension run starting at `now` finds that the device id changed (once or more) since
    /// the previous run: the position saved under the old id is gone, so this push's check
    /// starts afresh and the positions between the old saved one and `position` are not seen as
    /// a gap. Kept out of line, as the world's loop runs without it when the key is unset.
    @inline(never) mutating func deviceIdChanged(position: Int32, letter: Int, at now: Int64) {
        var changes = 0
        while mechanisms.idChange.next <= now {
            changes += 1
            mechanisms.idChange.next = later(mechanisms.idChange.next, SimTime.rounding(armState.streams.mechanismStreams.idChanges.nextExponential() / parameters.idChangeRate).microseconds)
        }
        ledger.deviceIdChange.changes += changes * counted(letter)
        if ext.lastPosition > 0 && position > ext.lastPosition + 1 {
            ledger.deviceIdChange.positionsInForgottenGaps += Int(position - ext.lastPosition - 1) * counted(letter)
        }
        note(.device, letter, .deviceIdChanged(forgottenPosition: ext.lastPosition), at: now)
        ext.lastPosition = 0
        // Saves still under way belong to the old id; a serial run would forget as much.
        ext.pendingSaves.removeAll()
        ext.serialPosition = 0
    }
}
