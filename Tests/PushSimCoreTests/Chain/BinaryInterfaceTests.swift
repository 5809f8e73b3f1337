// The binary interface's rules on hand-built devices: an error packet closes the connection, later writes are discarded, the resend buffer, the feedback delay (docs/model.md §11).
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct BinaryInterfaceTests {
    @Test func anErrorDiscardsEveryWriteUntilItsRoundTripAndWithoutABufferTheyAreLost() {
        var device = ScriptedWorld(binaryScenario(), letters: sixBinaryLetters)
        let ledger = device.run(.off)
        expectEqual(device.fate(0), .delivered(latency: 100 * ms + 100 * ms + 200 * ms), "\(device.traceText)")
        expectEqual(device.fate(1), .lost(.payloadTooLarge))
        for k in 2..<6 { expectEqual(device.fate(k), .lost(.connectionDiscard), "letter \(k)\n\(device.traceText)") }
        expectEqual(ledger.binary.written, 6)
        expectEqual(ledger.binary.errors, 1)
        expectEqual(ledger.binary.discarded, 4)
        expectEqual(ledger.binary.rewritten, 0)
        expectEqual(ledger.causes[LossCause.connectionDiscard.rawValue], 4)
    }

    @Test func aBufferAsLargeAsTheDiscardsWritesThemAllAgainAtTheErrorsInstant() {
        var device = ScriptedWorld(binaryScenario(buffer: 4), letters: sixBinaryLetters)
        let ledger = device.run(.off)
        let heard = 1 * hour + 200 * ms + 1 * sec
        for k in 2..<6 {
            // Written again from e in their order, one write each, then APNs, then the extension.
            let written = heard + Int64(k - 1) * 100 * ms
            #expect(device.fate(k) == .delivered(latency: written + 100 * ms + 200 * ms - sixBinaryLetters[k].time),
                    "letter \(k)\n\(device.traceText)")
        }
        expectEqual(ledger.binary.written, 10)
        expectEqual(ledger.binary.discarded, 4)
        expectEqual(ledger.binary.rewritten, 4)
        expectEqual(ledger.duplicates, 0)
    }

    @Test func aSmallerBufferKeepsOnlyTheLatestWrites() {
        var device = ScriptedWorld(binaryScenario(buffer: 2), letters: sixBinaryLetters)
        let ledger = device.run(.off)
        // Letters 2 and 3 had two or more written after them before e: out of the buffer.
        expectEqual(device.fate(2), .lost(.connectionDiscard), "\(device.traceText)")
        expectEqual(device.fate(3), .lost(.connectionDiscard), "\(device.traceText)")
        #expect(device.fates()[4...].allSatisfy { if case .delivered = $0 { return true } else { return false } })
        expectEqual(ledger.binary.rewritten, 2)
    }

    @Test func aWriteEndingAtTheErrorsInstantGoesOnTheNewConnection() {
        // Error heard 400 ms after the bad arrival: writes ending at +300, +400, +500 are
        // discarded; the one ending at +600 = e is written on the new connection.
        var device = ScriptedWorld(binaryScenario { $0.apns.errorDelay = constant(400 * ms) }, letters: sixBinaryLetters)
        let ledger = device.run(.off)
        expectEqual(ledger.binary.discarded, 3, "\(device.traceText)")
        if case .delivered = device.fate(5) {} else { Issue.record("letter 5: \(device.fate(5))\n\(device.traceText)") }
    }

    @Test func aReSentOversizedNotificationClosesTheConnectionAgain() {
        // The queue arm: a later letter reveals the gap 2…6 (letters 1–5) and XIVA re-sends it
        // over the connection, oversized letter 1 first: it is rejected again, and its
        // neighbours in the re-send batch are discarded again. Without a buffer they stay lost;
        // with one they are written again at once, and only letter 1 makes a gap (its re-send
        // is rejected once more, alone on the connection).
        var letters = sixBinaryLetters
        letters.append(ScriptedLetter(time: 2 * hour, xivaLatency: 0))
        var bare = ScriptedWorld(binaryScenario { $0.extension.deadline = span(30 * sec) }, letters: letters)
        let ledger = bare.run(.on)
        expectEqual(ledger.reRequests, 1, "\(bare.traceText)")
        expectEqual(ledger.binary.errors, 2, "\(bare.traceText)")
        expectEqual(ledger.binary.discarded, 8, "\(bare.traceText)")
        for k in 2..<6 { expectEqual(bare.fate(k), .lost(.connectionDiscard), "letter \(k)") }
        var buffered = ScriptedWorld(binaryScenario(buffer: 4) { $0.extension.deadline = span(30 * sec) }, letters: letters)
        let withBuffer = buffered.run(.on)
        expectEqual(withBuffer.binary.errors, 2, "\(buffered.traceText)")
        expectEqual(withBuffer.binary.discarded, 4, "\(buffered.traceText)")
        expectEqual(withBuffer.binary.rewritten, 4, "\(buffered.traceText)")
        for k in 2..<6 { if case .delivered = buffered.fate(k) {} else { Issue.record("letter \(k): \(buffered.fate(k))") } }
    }

    @Test func aWriteEndingAfterTheRunIsUnfinishedAndNotCounted() {
        // One write a day: letter 0's ends at 1h + 1d, inside the 2-day run; letter 1 waits for
        // it and ends at 1h + 2d, after the end.
        let s = binaryScenario { $0.apns.connectionRatePerMicrosecond = 1 / Double(day) }
        var device = ScriptedWorld(s, letters: [ScriptedLetter(time: 1 * hour, xivaLatency: 0),
                                                ScriptedLetter(time: 2 * hour, xivaLatency: 0)])
        let ledger = device.run(.off)
        expectEqual(device.fate(0), .delivered(latency: 1 * day + 100 * ms + 200 * ms), "\(device.traceText)")
        expectEqual(device.fate(1), .lost(.unfinished))
        expectEqual(ledger.binary.written, 1)
    }

    @Test func afterAnUninstallXivaWritesUntilTheFeedbackListAndThoseLettersAreUndeliverable() {
        // Letters every 10 min from 1h; the app goes at 2h; XIVA reads the feedback list at 3h.
        let letters = (0..<18).map { k in ScriptedLetter(time: 1 * hour + Int64(k) * 10 * minute, xivaLatency: 0) }
        var device = ScriptedWorld(binaryScenario(), letters: letters)
        device.world.clock.end = 2 * hour
        device.world.clock.horizon = 3 * hour
        let ledger = device.run(.off)
        for k in 0..<6 { if case .delivered = device.fate(k) {} else { Issue.record("letter \(k): \(device.fate(k))") } }
        for k in 6..<18 { expectEqual(device.fate(k), .undeliverable, "letter \(k)") }
        // Written: the six before 2h and the six of [2h, 3h); none after the feedback list.
        expectEqual(ledger.binary.written, 12, "\(device.traceText)")
        expectEqual(ledger.letters, 6)
        expectEqual(ledger.uninstall.undeliverable, 12)
    }
}
