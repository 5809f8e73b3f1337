// The world's side of APNs' legacy binary interface: pushes joining the connection, what became of each write, the buffer check, the feedback delay.

/// What a world has for its partition's connection at the end of an instant.
enum BinaryOutboxItem: Equatable {
    /// A push joins the connection's write queue.
    case write(CopyIndex)
    /// XIVA has heard of the error that discarded this copy: is it still in the resend buffer?
    case check(CopyIndex)
}

/// A write that reached a closed connection, waiting for its buffer check.
struct BinaryDiscard {
    var copy: CopyIndex
    var write: BinaryWrite
}

/// The binary interface's state in one arm of one world (docs/model.md §11).
struct BinaryLinkState: ~Copyable {
    /// Writes and buffer checks of the current instant, in the order they came up; the
    /// partition's ``BinaryConnectionServer`` takes them when the world stops. An owned array
    /// (no copy-on-write check per push; the server reads it in place). Every world reads it at
    /// every send; until an arm with the interface on starts (`reset`), it holds no room, so a
    /// world of a shared partition that never writes to the interface pays nothing for it.
    var outbox = OwnedArray<BinaryOutboxItem>(capacity: 0)
    /// Discarded writes waiting for their check, in the order their checks come: an error can
    /// only happen on an open connection, so the errors' instants never go back, and writes
    /// are decided in the order they were written.
    var discards: [BinaryDiscard] = []
    /// In 32 bits (the discards of one instant are far fewer), so that a world's flag fills the
    /// state's tail padding.
    var discardsChecked: Int32 = 0

    /// A fresh arm, keeping the arrays' memory.
    mutating func reset() {
        outbox.reserve(4)
        outbox.removeAll()
        discards.removeAll(keepingCapacity: true)
        discardsChecked = 0
    }

    /// The discarded write of `copy`, the next to be checked.
    mutating func takeDiscard(of copy: CopyIndex) -> BinaryWrite? {
        let checked = Int(discardsChecked)
        guard checked < discards.count, discards[checked].copy == copy else { return nil }
        defer {
            discardsChecked += 1
            if checked + 1 == discards.count { discards.removeAll(keepingCapacity: true); discardsChecked = 0 }
        }
        return discards[checked].write
    }
}

/// Who decides a world's writes and buffer checks: the partition's connection, or, while the
/// world runs ahead of its partition, a forecast or the record of earlier decisions
/// (BinarySpeculation.swift). ``BinaryConnection`` is the one that decides for real.
protocol BinaryDecider {
    /// A notification joins at `join`; `malformed` is its draw; `errorDelay` draws the error's
    /// round trip and is called only when the write is rejected.
    mutating func write(joiningAt join: Int64, malformed: Bool, errorDelay: () -> Int64) -> BinaryWriteOutcome
    /// Whether the discarded `write` is still in the resend buffer at its error's instant.
    mutating func isStillBuffered(_ write: BinaryWrite) -> Bool
}

extension BinaryConnection: BinaryDecider {}

/// A device's draws for its writes, from its stream `binaryErrors`: the world's, and those of
/// the connection decided ahead for it (ConnectionDecidedAhead.swift), which must draw alike.
enum BinaryDraws {
    /// Whether a notification being written is rejected: its payload is over the binary limit,
    /// or it is malformed (one draw per write, in the device's write order).
    @inline(__always) static func writeIsBad(_ stream: inout RandomStream, _ parameters: ChainParameters, payloadTooLarge: Bool) -> Bool {
        let malformed = stream.chance(parameters.malformed)
        return malformed || payloadTooLarge
    }

    /// The round trip of an error packet, drawn when a write is rejected.
    @inline(__always) static func errorDelay(_ stream: inout RandomStream, _ parameters: ChainParameters) -> Int64 {
        parameters.errorDelay.sample(&stream)
    }
}

extension DeviceWorld {
    /// The instant's writes and buffer checks, in the order they came up, each decided by
    /// `decider`: every draw is this world's, in its own order, and each outcome is scheduled
    /// in its future. The outbox is read in place and emptied once; read through the world at
    /// each item, never held in a local (a local reference lives across the `inout` world, and
    /// the compiler would retain and release it at every push).
    mutating func settleBinaryOutbox<Decider: BinaryDecider>(at now: Int64, with decider: inout Decider) {
        let count = mechanisms.binaryLink.outbox.count
        guard count > 0 else { return }
        for k in 0..<count {
            switch mechanisms.binaryLink.outbox[k] {
            case .write(let c):
                writeOnConnection(c, at: now, with: &decider)
            case .check(let c):
                // Every write that reached the closed connection ended before now: the count is final.
                if let discarded = mechanisms.binaryLink.takeDiscard(of: c), decider.isStillBuffered(discarded) {
                    writeOnConnection(binaryRewrite(copy: c, at: now), at: now, with: &decider)
                } else {
                    binaryDiscardLost(copy: c, at: now)
                }
            }
        }
        mechanisms.binaryLink.outbox.removeAll()
    }

    /// Copy `c` is written: its draw, the decision, its events.
    private mutating func writeOnConnection<Decider: BinaryDecider>(_ c: CopyIndex, at now: Int64, with decider: inout Decider) {
        let bad = binaryWriteIsBad(c)
        let outcome = decider.write(joiningAt: now, malformed: bad) { binaryErrorDelay() }
        binaryWritten(copy: c, outcome)
    }

    /// The binary interface's three steps.
    enum BinaryStep { case join, rejected, check }

    /// One of the binary interface's steps; out of line, so the hot dispatch in `handle` gains
    /// one rare call rather than three bodies.
    @inline(never) mutating func binaryStep(_ step: BinaryStep, copy c: CopyIndex, at now: Int64) {
        switch step {
        case .join: binaryJoins(copy: c, at: now)
        case .rejected: binaryRejected(copy: c, at: now)
        case .check: binaryChecks(copy: c, at: now)
        }
    }

    /// A push reaches XIVA's end of the connection (its send plus `xiva.latency`, or a re-send's
    /// arrival): it waits in the outbox until the instant's other steps are done.
    mutating func binaryJoins(copy c: CopyIndex, at now: Int64) {
        mechanisms.binaryLink.outbox.append(.write(c))
        note(.xiva, copies[c].letter.offset, .joinedConnection, at: now)
    }

    /// Whether the notification of `c`, being written now, is rejected: its payload is over
    /// the binary limit, or it is malformed (one draw per write, in this device's write order).
    mutating func binaryWriteIsBad(_ c: CopyIndex) -> Bool {
        BinaryDraws.writeIsBad(&armState.streams.mechanismStreams.binaryErrors, parameters,
                               payloadTooLarge: draws.letters[copies[c].letter.offset].payloadTooLarge)
    }

    /// The round trip of an error packet, from the rejected notification's own stream.
    mutating func binaryErrorDelay() -> Int64 {
        BinaryDraws.errorDelay(&armState.streams.mechanismStreams.binaryErrors, parameters)
    }

    /// The connection has decided copy `c`'s write (docs/model.md §11, rules 1–3): it reaches
    /// APNs, is rejected there, or reaches a closed connection and waits for its buffer check.
    /// Each is scheduled in this world's future; counted by the copy's letter, when the write
    /// ends (and the error or the discard happens) before the end of the run, as every count
    /// of the run counts what happened in it.
    mutating func binaryWritten(copy c: CopyIndex, _ outcome: BinaryWriteOutcome) {
        let letter = copies[c].letter.offset
        let arrival: Int64
        switch outcome {
        case .accepted(let at), .rejected(let at, _), .discarded(let at, _, _): arrival = at
        }
        let counts = arrival < parameters.runEnd ? counted(letter) : 0
        ledger.binary.written += counts
        switch outcome {
        case .accepted:
            clock.queue.schedule(at: arrival, .apnsArrival(c))
        case .rejected(_, let heard):
            ledger.binary.errors += counts
            clock.queue.schedule(at: arrival, .binaryRejected(c))
            note(.apns, letter, .errorPacket(heardIn: SimTime(microseconds: heard - arrival)), at: arrival)
        case .discarded(_, let checkAt, let write):
            ledger.binary.discarded += counts
            mechanisms.binaryLink.discards.append(BinaryDiscard(copy: c, write: write))
            clock.queue.schedule(at: checkAt, .binaryCheck(c))
            note(.apns, letter, .discardedByClosedConnection(checkIn: SimTime(microseconds: checkAt - arrival)), at: arrival)
        }
    }

    /// APNs rejects the notification with an error packet: the copy is lost, as `payload_too_large`
    /// when its payload is over the limit, else as `rejected`. Nothing writes it again.
    mutating func binaryRejected(copy c: CopyIndex, at now: Int64) {
        let cause: LossCause = draws.letters[copies[c].letter.offset].payloadTooLarge ? .payloadTooLarge : .rejected
        copyLost(c, cause, at: now)
    }

    /// XIVA hears of the error that discarded copy `c`: its buffer check waits in the outbox.
    mutating func binaryChecks(copy c: CopyIndex, at now: Int64) {
        mechanisms.binaryLink.outbox.append(.check(c))
    }

    /// The buffer check found copy `c` among the last `resend_buffer` writes: XIVA writes it
    /// again now, as a copy of its own. Returns the new copy.
    mutating func binaryRewrite(copy c: CopyIndex, at now: Int64) -> CopyIndex {
        let copy = copies[c]
        consoleStatus(of: c, lostWith: .connectionDiscard)  // the discarded write; the rewrite is a push of its own
        let again: CopyIndex = copies.nextIndex()
        copies.append(PushCopy(letter: copy.letter, isResend: copy.isResend, isSecondCopy: copy.isSecondCopy, expiry: 0))
        ledger.binary.rewritten += counted(copy.letter.offset)
        noteLoad(.pushesSent, letter: copy.letter.offset, at: now)
        note(.xiva, copy.letter.offset, .rewrittenAfterError, at: now)
        return again
    }

    /// The buffer check did not find copy `c`: it is lost as `connection_discard` (a copy's fate,
    /// like `network_loss`: the queue arm may still find the gap).
    mutating func binaryDiscardLost(copy c: CopyIndex, at now: Int64) {
        copyLost(c, .connectionDiscard, at: now)
    }

}
