// A world settling its letters in flight gives back, every so many letters, the room its arrays no longer need.
//
// A growable array keeps the room of the most elements it ever held. A world of a shared
// partition that settles its letters in flight (WorldSettlement.swift) holds a handful of
// letters at a time, but its arrays would keep room for the most it held at any moment of the
// run, and that most grows with the simulated days (docs/performance.md, Room given back as
// letters are settled). So, every ``positionsBetweenTrims`` positions settled, each array keeps
// room only for the most letters held since the last time: a world's room follows what it held
// lately, not ever. Every so many letters rather than at every settlement, so that arrays are
// not grown again to the same size over and over; the most held lately rather than what the
// world holds at that moment, so that a world that holds as much every day keeps its room
// instead of growing it again.

extension DeviceWorld {
    /// Positions settled between two times a world gives back room: 16, about ten hours of a
    /// commuter's mail (40 a day).
    static let positionsBetweenTrims: Int32 = 16

    /// The least room in letters a world keeps: what it holds between two settlements.
    static var leastRoomKept: Int { lettersBetweenSettlements }

    /// Notes the letters the world holds (its states: every letter drawn and not yet settled).
    @inline(__always) mutating func noteLettersHeld() {
        let held = UInt16(clamping: letterStates.count)
        if held > armState.mostHeld { armState.mostHeld = held }
    }

    /// A settlement moved XIVA's first position from `before` to where it is now: when that
    /// crossed a multiple of ``positionsBetweenTrims``, the room above the most letters held
    /// since the last time is given back. Called at rest, once settled letters are dropped:
    /// copies, runs and re-requests are then empty and the heap holds nothing.
    @inline(__always) mutating func trimRoomIfDue(firstPositionBefore before: Int32) {
        guard xiva.firstPosition / Self.positionsBetweenTrims != before / Self.positionsBetweenTrims else { return }
        trimRoom()
    }

    /// Gives back the room above the most letters held lately (at least ``leastRoomKept``),
    /// in every array that grows with the letters in flight. Changes no element, only room.
    @inline(never) mutating func trimRoom() {
        let room = max(Int(armState.mostHeld), Self.leastRoomKept)
        letterStates.trimRoom(toHold: room)
        xiva.letterAtPosition.trimRoom(toHold: room)
        copies.trimRoom(toHold: room)
        ext.runs.trimRoom(toHold: room)
        ext.requests.trimRoom(toHold: room)
        clock.queue.trimRoom(toHold: room)
        loadLog.entries.trimRoom(toHold: room)
        Self.trim(&draws.letters.letters, toHold: room)
        // Re-requests waiting to join the shared queue: none at rest, and seldom any.
        mechanisms.removeJoining(givingBackRoom: true)
        // A timeline kept whole from an earlier arm is read whole: only one drawn on demand drops flips.
        if draws.timeline.onDemand != nil { Self.trim(&draws.timeline.flips, toHold: room) }
        armState.mostHeld = UInt16(clamping: letterStates.count)
    }

    /// ``GrowableStorage/trim(toHold:)`` for a Swift array: a copy at the room kept.
    static func trim<Element>(_ array: inout [Element], toHold room: Int) {
        let kept = max(array.count, room)
        guard array.capacity > kept + max(kept / 4, 1) else { return }
        array = fitted(array, room: kept)
    }
}
