// Room that the worlds of a shared partition borrow, one after another, for an arm they run alone.
//
// On the coupled path an arm without a shared server (the off arm beside a queue arm with a
// finite XIVA capacity) runs world after world, each to its end. Rather than each world growing
// its arrays from empty (WorldMemory.swift) and giving them back, these worlds share one room,
// as a lonely world keeps its room from device to device (docs/performance.md, Room borrowed
// for an arm run alone).

/// The arrays an arm grows, with the room the largest world so far needed; lent to one world
/// at a time (one thread runs a partition).
package final class ArmRoom {
    var copies = OwnedArray<PushCopy>(capacity: 0)
    var letterStates = OwnedArray<LetterState>(capacity: 0)
    var runs = OwnedArray<ExtensionRun>(capacity: 0)
    var requests = OwnedArray<ReRequest>(capacity: 0)
    var positions = OwnedArray<LetterIndex>(capacity: 0)
    var loadEntries = OwnedArray<Int64>(capacity: 0)
    var events = EventQueue<ChainEvent>(capacity: 16)
    /// A script drawn on demand grows here, and the world keeps an exact copy of it.
    var letters: [LetterDraws] = []
    package init() {}
}

extension DeviceWorld {
    /// Before an arm the world runs alone to its end: its arrays traded for the room's (the
    /// arm starts each afresh, so what either held before does not matter), and a script
    /// drawn on demand moved into the room's and drawn to its end there at once (the arm reads
    /// every letter, so there is nothing to gain by drawing them as the arm reaches them).
    package mutating func borrowRoom(_ room: ArmRoom) {
        tradeArrays(with: room)
        guard draws.letters.onDemand else { return }
        room.letters.removeAll(keepingCapacity: true)
        room.letters.append(contentsOf: draws.letters.letters)
        swap(&draws.letters.letters, &room.letters)
        draws.letters.drawRest(parameters.letterLaws)
    }

    /// After that arm, once its accounts are read: the room given back with what the arm
    /// left in it, and the world's script an exact copy of the one grown there when another
    /// arm follows (`keepingScript`); after the last arm the world is given back whole, and
    /// no copy is made.
    package mutating func giveRoomBack(_ room: ArmRoom, keepingScript: Bool = true) {
        tradeArrays(with: room)
        guard draws.letters.onDemand else { return }
        swap(&draws.letters.letters, &room.letters)
        if keepingScript { draws.letters.letters = Self.fitted(room.letters) }
    }

    private mutating func tradeArrays(with room: ArmRoom) {
        copies.swapStorage(with: &room.copies)
        letterStates.swapStorage(with: &room.letterStates)
        ext.runs.swapStorage(with: &room.runs)
        ext.requests.swapStorage(with: &room.requests)
        xiva.letterAtPosition.swapStorage(with: &room.positions)
        loadLog.entries.swapStorage(with: &room.loadEntries)
        clock.queue.swapStorage(with: &room.events)
    }
}
