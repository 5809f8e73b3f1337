// What a world of a shared partition holds in memory: its draws at their size, an arm's arrays only while the arm runs.
//
// On the coupled path (docs/model.md §6) every world of a partition is alive at once, so what
// one world holds is multiplied by the partition's phones. None of this changes what a world
// does: it only gives memory back that nothing reads again (docs/performance.md, Memory of the
// coupled path).

/// How many elements a world's growable arrays hold room for, array by array: what its memory
/// grows with (tests count these rather than the process's resident memory).
package struct WorldMemoryFootprint: Equatable, Sendable {
    /// The letter script (``LetterDraws``), the arm's letter states (``LetterState``) and
    /// copies of pushes (`PushCopy`): what grows letter by letter.
    package var letters = 0, letterStates = 0, copies = 0
    /// Extension runs, their re-requests, and XIVA's position → letter table.
    package var runs = 0, requests = 0, positions = 0
    /// The event heap, the load log and the connectivity timeline's flips.
    package var events = 0, loadEntries = 0, flips = 0

    /// Bytes of those arrays' storage (element strides times room).
    package var bytes: Int {
        letters * MemoryLayout<LetterDraws>.stride + letterStates * MemoryLayout<LetterState>.stride
            + copies * MemoryLayout<PushCopy>.stride + runs * MemoryLayout<ExtensionRun>.stride
            + requests * MemoryLayout<ReRequest>.stride + positions * MemoryLayout<LetterIndex>.stride
            + events * MemoryLayout<ScheduledEvent<ChainEvent>>.stride + loadEntries * MemoryLayout<Int64>.stride
            + flips * MemoryLayout<Int64>.stride
    }
}

/// Buffers that drawing a device's timeline, and a script drawn whole, reuse, lent to each
/// world of a partition in turn as it is prepared (a lonely world keeps its own from device to
/// device). Each world then keeps only its flips and letters, copied at their size.
package final class DrawScratch {
    var intervals: [Range<Int64>] = []
    var deviceWindows: [Range<Int64>] = []
    var flips: [Int64] = []
    var letters: [LetterDraws] = []
    package init() {}
}

extension DeviceWorld {
    /// ``prepare(device:lettersOnDemand:)`` and ``fitDrawsToSize()`` for a world that lives
    /// beside the others of its partition, drawing in `scratch`'s buffers: each world grew its
    /// own from empty, a dozen allocations and copies a phone (docs/performance.md).
    /// With `keepingEveryLetter` (a partition whose every arm is stepped, as over the binary
    /// interface), the script is drawn whole: its first arm keeps every letter anyway, and
    /// ``makeRoomForTheWholeArm()`` needs to know how many.
    package mutating func prepareBesidePartition(device: Int, scratch: DrawScratch, keepingEveryLetter: Bool = false) {
        draws.scratch = scratch
        swap(&draws.timeline.flips, &scratch.flips)
        if keepingEveryLetter { swap(&draws.letters.letters, &scratch.letters) }
        prepare(device: device, lettersOnDemand: !keepingEveryLetter)
        // The grown flips and letters go back to the scratch once `fitDrawsToSize` has given the
        // world its copy at their size (fitting them here as well copied them twice).
        scratch.flips = draws.timeline.flips
        if keepingEveryLetter { scratch.letters = draws.letters.letters }
        fitDrawsToSize()
    }

    /// Room held by the world's growable arrays (see ``WorldMemoryFootprint``).
    package var memoryFootprint: WorldMemoryFootprint {
        WorldMemoryFootprint(letters: draws.letters.letters.capacity, letterStates: letterStates.capacity,
                             copies: copies.capacity, runs: ext.runs.capacity, requests: ext.requests.capacity,
                             positions: xiva.letterAtPosition.capacity, events: clock.queue.capacity,
                             loadEntries: loadLog.entries.capacity, flips: draws.timeline.flips.capacity)
    }

    /// After `prepare`, for a world that lives beside the others of its partition: the draws
    /// kept at exactly their size (arrays grown by doubling hold up to twice that), the buffers
    /// that only the drawing reuses from device to device given back, the heap and the load log
    /// started small. No value is touched.
    package mutating func fitDrawsToSize() {
        if !draws.letters.onDemand {
            draws.letters.letters = Self.fitted(draws.letters.letters)
            draws.letters.instants = []
            draws.letters.burstScratch = []
        }
        // Flips every device shares stay the one array of the parameters.
        if parameters.sharedTimeline == nil { draws.timeline.flips = Self.fitted(draws.timeline.flips) }
        draws.scratch = nil
        // A world's heap and load log start with room for a chunk's busiest device; beside its
        // partition's other worlds each starts small and grows as it needs (the same order:
        // room is not order).
        if clock.queue.isEmpty { clock.queue.releaseMemory() }
        if loadLog.entries.isEmpty { loadLog.entries.releaseMemory() }
        // So do the arm's arrays: a world settling its letters in flight holds a handful in each.
        copies.releaseMemory()
        letterStates.releaseMemory()
        ext.runs.releaseMemory()
        ext.requests.releaseMemory()
        xiva.letterAtPosition.releaseMemory()
    }

    /// At the start of an arm in which this world keeps every letter beside its partition's
    /// other worlds (it does not settle them in flight): room made at once for what grows
    /// letter by letter — a state, about a copy, a run and a position per letter of its script,
    /// and the events one letter's steps hold at once. Grown a step at a time instead, the
    /// partition's thousands of interleaved worlds made a dozen allocations each per array and
    /// arm, and the allocator's free lists grew long and cold (docs/performance.md, The binary
    /// rung's worlds make their room at once). Room is not order: nothing a world does changes.
    package mutating func makeRoomForTheWholeArm() {
        guard armState.settled == nil else { return }
        let letters = draws.letters.count
        letterStates.reserve(letters)
        copies.reserve(letters + letters / 8)
        ext.runs.reserve(letters)
        xiva.letterAtPosition.reserve(letters + 1)
        clock.queue.reserve(DeviceWorld.eventsHeldWhileKeepingEveryLetter)
    }

    /// The heap's room for a world that keeps every letter, when its arm begins: grown by
    /// halves from one event, a world of the bench's binary chain reached a few dozen in about
    /// eight steps an arm (callgrind's count of the heap's growths, docs/performance.md); a
    /// busier world grows on from there.
    static let eventsHeldWhileKeepingEveryLetter = 32

    /// After an arm that another arm follows, once its accounts are closed and read: the arm's
    /// arrays given back (each next arm starts them afresh in `resetArm`, which needs no room
    /// kept). The draws stay for the next arm, whole: only a world's first arm draws its
    /// letters on demand.
    package mutating func releaseArmMemory() {
        releaseArrays(keepingRoom: true)
        // The arm's close drew the rest of a script drawn on demand: the next arm reads it
        // whole rather than drawing it again, kept at its size.
        if draws.letters.onDemand && !draws.letters.isDrawing { draws.letters.letters = Self.fitted(draws.letters.letters) }
    }

    /// The arm's arrays given back; the heap keeps room for a few events when the world runs
    /// again (`keepingRoom`), none when it never will.
    private mutating func releaseArrays(keepingRoom: Bool) {
        copies.releaseMemory()
        letterStates.releaseMemory()
        ext.runs.releaseMemory()
        ext.requests.releaseMemory()
        ext.pendingSaves = []
        xiva.letterAtPosition.releaseMemory()
        loadLog.entries.releaseMemory()
        clock.agenda.removeAll()
        clock.queue.releaseMemory(keepingRoom: keepingRoom)
        mechanisms.removeJoining(givingBackRoom: true)
    }

    /// After the world's last arm, once its accounts are closed and read: everything it grew
    /// given back, the draws too. The world must not run or be read again.
    package mutating func releaseMemory() {
        // Not `releaseArmMemory()`: that keeps a heap's room and fits the script to its size,
        // an allocation and a copy per world for memory given back at once (docs/performance.md).
        releaseArrays(keepingRoom: false)
        draws.letters = LetterScript()
        draws.timeline = ConnectivityTimeline()
        draws.removeMechanismDraws()
        extensionLog = nil
    }

    /// Whether this scenario's letters can be drawn on demand with the same result: nothing is
    /// drawn per letter for all letters at once beyond the first-send draws (the traffic's
    /// payload sizes and priorities, and whatever a mechanism declares), and no recovery design
    /// but the queue's, which never looks at letters ahead of the clock.
    var allowsLettersOnDemand: Bool {
        scenario.recovery == .queue && scenario.mail.payloadSize == nil && scenario.apns.lowPriorityShare == 0
            && parameters.mechanismsPermitLettersOnDemand
    }

    /// Letter i has reached XIVA and is the last drawn so far: the next ones are drawn, each
    /// with a fresh state, and the next follows in the first stream as it would have.
    @inline(never) mutating func followLetterDrawnOnDemand(after i: Int) {
        drawMoreLetters()
        if i + 1 < draws.letters.count {
            clock.agenda.followInFirstStream(time: draws.letters[i + 1].time, index: i + 1)
        }
    }

    /// Draws letters on demand until one is at or after `time` or the script is whole (the
    /// warm-up's first counted letter; every letter when the arm's accounts close).
    @inline(never) mutating func drawLetters(until time: Int64) {
        while draws.letters.isDrawing && (draws.letters.count == 0 || draws.letters[draws.letters.count - 1].time < time) {
            drawMoreLetters()
        }
    }

    /// The next few letters drawn, each with a fresh state in this arm.
    mutating func drawMoreLetters() {
        let before = draws.letters.count
        draws.letters.drawMore(parameters.letterLaws)
        letterStates.append(repeating: LetterState(), count: draws.letters.count - before)
    }

    /// `array`'s elements in an array of exactly their room, or of room for `room` when more.
    static func fitted<Element>(_ array: [Element], room: Int = 0) -> [Element] {
        let kept = max(array.count, room)
        guard array.capacity > kept else { return array }
        var fitted: [Element] = []
        fitted.reserveCapacity(kept)
        fitted.append(contentsOf: array)
        return fitted
    }
}
