// The agenda: the event heap merged with two streams of events that come one after another.

/// The next event of a stream that yields one event after another: in the chain, the backend's
/// letters and the device's connectivity flips. A quarter of all events are letters, so keeping
/// these beside the heap (instead of pushing and popping each through it) saves heap work; each carries the
/// place in the scheduling order it would have had in the heap, so ties resolve exactly as if
/// it were there.
struct NextInStream {
    var time: Int64 = .max
    var sequence: UInt64 = .max
    /// The event's index in its stream; -1 when the stream has nothing more.
    var index: Int32 = -1

    static let exhausted = NextInStream()

    @inline(__always) func precedes(time t: Int64, sequence q: UInt64) -> Bool {
        index >= 0 && (time < t || (time == t && sequence < q))
    }
}

/// What the agenda hands out next: an entry of the first or the second stream (by its index
/// in that stream), or an event from the heap.
enum AgendaItem<Payload> {
    case inFirstStream(Int)
    case inSecondStream(Int)
    case event(Payload)
}

/// Everything that will happen, in (time, scheduling order): the heap of scheduled events and
/// two streams that each hold only their next entry, ordered as if it were in the heap. A
/// world's loop is then `while let (now, item) = agenda.next(before: end) { handle item }`,
/// as in SimPy's `step`; a handler that takes an entry of a stream sets the stream's next one
/// with `follow`, at the point in its work where it would have scheduled it.
struct Agenda<Payload>: ~Copyable {
    var queue: EventQueue<Payload>
    private var first = NextInStream.exhausted
    private var second = NextInStream.exhausted

    init(queue: consuming EventQueue<Payload>) { self.queue = queue }

    /// Forgets both streams and every scheduled event, and restarts the scheduling order.
    mutating func removeAll() {
        queue.removeAll()
        first = .exhausted
        second = .exhausted
    }

    /// The first stream's next entry: `index`, at `time`, taking its place in the scheduling
    /// order now.
    @inline(__always) mutating func followInFirstStream(time: Int64, index: Int) {
        first = NextInStream(time: time, sequence: queue.takeSequence(), index: Int32(index))
    }

    /// The second stream's next entry, as `followInFirstStream`.
    @inline(__always) mutating func followInSecondStream(time: Int64, index: Int) {
        second = NextInStream(time: time, sequence: queue.takeSequence(), index: Int32(index))
    }

    /// The index of the second stream's next entry; nil when it has none.
    var secondStreamIndex: Int? { second.index >= 0 ? Int(second.index) : nil }

    /// The index of the first stream's next entry; nil when it has none.
    var firstStreamIndex: Int? { first.index >= 0 ? Int(first.index) : nil }

    /// Numbers the second stream's next entry `by` lower, its time and place in the order kept:
    /// for a stream whose first entries were taken off its front (a timeline drawn on demand).
    mutating func renumberSecondStream(down by: Int) {
        if second.index >= 0 { second.index -= Int32(by) }
    }

    /// Removes and returns the earliest item if it happens before `end`; nil when nothing does.
    @inline(__always) mutating func next(before end: Int64) -> (time: Int64, item: AgendaItem<Payload>)? {
        let (heapTime, heapSequence) = queue.nextKey
        if first.precedes(time: heapTime, sequence: heapSequence) {
            // The second stream first: with `end` inside the run (a driver stepping one
            // instant), the first stream's entry may lie past it while the second's does not.
            if second.precedes(time: first.time, sequence: first.sequence) { return takeSecond(before: end) }
            guard first.time < end else { return nil }
            let taken = first
            first = .exhausted
            return (taken.time, .inFirstStream(Int(taken.index)))
        }
        if second.precedes(time: heapTime, sequence: heapSequence) { return takeSecond(before: end) }
        guard heapTime < end, !queue.isEmpty else { return nil }
        return (heapTime, .event(queue.popAny().payload))
    }

    /// When the earliest item happens, if before `end`; nil when nothing does. Lets a driver
    /// that steps several agendas pick the one to advance.
    func nextTime(before end: Int64) -> Int64? {
        var earliest = queue.isEmpty ? Int64.max : queue.nextKey.time
        if first.index >= 0 { earliest = min(earliest, first.time) }
        if second.index >= 0 { earliest = min(earliest, second.time) }
        return earliest < end ? earliest : nil
    }

    @inline(__always) private mutating func takeSecond(before end: Int64) -> (time: Int64, item: AgendaItem<Payload>)? {
        guard second.time < end else { return nil }
        let taken = second
        second = .exhausted
        return (taken.time, .inSecondStream(Int(taken.index)))
    }
}
