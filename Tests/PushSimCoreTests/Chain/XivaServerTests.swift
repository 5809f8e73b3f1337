// XIVA's partition server and partition ranges on hand-built re-requests with known answers.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct XivaServerTests {
    private let second: Int64 = 1_000_000

    private func server(perSecond capacity: Double, timeout: SimTime = .forever, end: Int64 = Int64.max) -> XivaServer {
        XivaServer(capacityPerMicrosecond: capacity / 1e6, timeout: timeout, end: end)
    }

    /// N re-requests sent at one instant: the k-th starts (k − 1)/capacity later; the longest
    /// wait is (N − 1)/capacity and N − 1 wait behind the first.
    @Test func aBurstIsServedOneServiceApart() {
        var s = server(perSecond: 50)
        expectEqual(s.service, 20_000)
        let n = 200
        let sent: Int64 = 7 * second
        for k in 1...n {
            let outcome = s.join(sentAt: sent)
            let start = sent + Int64(k - 1) * 20_000
            expectEqual(outcome, .served(start: start, finish: start + 20_000))
        }
        expectEqual(s.served, n)
        expectEqual(s.errors, 0)
        expectEqual(s.maxWait, Int64(n - 1) * 20_000)
        expectEqual(s.maxQueue, n - 1)
    }

    /// With a queue time-out T a burst is served while its wait is at most T: floor(T·capacity) + 1
    /// of them, about capacity × T; the rest are given up at sent + T.
    @Test func aTimeoutServesAboutCapacityTimesT() {
        for (capacity, timeoutSeconds) in [(50.0, 3.0), (7.0, 10.0), (1000.0, 0.5)] {
            let timeout = Int64(timeoutSeconds * 1e6)
            var s = server(perSecond: capacity, timeout: SimTime(microseconds: timeout))
            let n = Int(capacity * timeoutSeconds) * 3
            var timedOut = 0
            for _ in 0..<n {
                if case .timedOut(let at) = s.join(sentAt: second) {
                    expectEqual(at, second + timeout)
                    timedOut += 1
                }
            }
            let expected = Int(timeout / s.service) + 1
            expectEqual(s.served, expected)
            #expect(abs(Double(s.served) - capacity * timeoutSeconds) <= 1)
            expectEqual(timedOut, n - expected)
            expectEqual(s.errors, timedOut)
            #expect(s.maxWait <= timeout && s.maxWait > timeout - s.service)
        }
    }

    /// A re-request sent after the queue has drained starts at once; those that left (served or
    /// given up) before it was sent no longer count as waiting.
    @Test func aDrainedQueueServesAtOnce() {
        var s = server(perSecond: 1, timeout: SimTime(microseconds: 2 * second))
        expectEqual(s.join(sentAt: 0), .served(start: 0, finish: second))
        expectEqual(s.join(sentAt: 0), .served(start: second, finish: 2 * second))
        expectEqual(s.join(sentAt: 0), .served(start: 2 * second, finish: 3 * second))
        expectEqual(s.join(sentAt: 0), .timedOut(givenUpAt: 2 * second))
        expectEqual(s.maxQueue, 3)
        // At 2 s the third starts and the fourth gives up: neither waits any more.
        expectEqual(s.join(sentAt: 2 * second), .served(start: 3 * second, finish: 4 * second))
        expectEqual(s.waiting, 1)
        expectEqual(s.join(sentAt: 10 * second), .served(start: 10 * second, finish: 11 * second))
        expectEqual(s.waiting, 0)
        expectEqual(s.served, 5)
        expectEqual(s.errors, 1)
        expectEqual(s.maxWait, 2 * second)
    }

    /// A service that starts at or after the end of the run is not counted as served.
    @Test func servicesFromTheEndOnAreNotServed() {
        var s = server(perSecond: 1, end: 2 * second)
        for _ in 0..<4 { _ = s.join(sentAt: 0) }
        expectEqual(s.served, 2)
        expectEqual(s.maxWait, second)
    }

    /// Service is 1/capacity rounded half up to a microsecond.
    @Test func serviceIsRoundedToAMicrosecond() {
        expectEqual(XivaServer(capacityPerMicrosecond: 0.25, timeout: .forever, end: 0).service, 4)
        expectEqual(XivaServer(capacityPerMicrosecond: 1.0 / 3, timeout: .forever, end: 0).service, 3)
        expectEqual(XivaServer(capacityPerMicrosecond: 3e6 / 1e6, timeout: .forever, end: 0).service, 0)
        expectEqual(XivaServer(capacityPerMicrosecond: 1.0 / 2.5, timeout: .forever, end: 0).service, 3)
    }

    /// Partition p of N holds [floor(devices·p/N), floor(devices·(p+1)/N)): checked against the
    /// products for every small case, and the partitions tile the devices.
    @Test func partitionsFollowTheFloorFormula() {
        for devices in 1...40 {
            for count in 1...devices {
                var next = 0
                for p in 0..<count {
                    let range = xivaPartitionDevices(p, of: count, devices: devices)
                    expectEqual(range, (devices * p / count)..<(devices * (p + 1) / count))
                    #expect(range.lowerBound == next && !range.isEmpty)
                    next = range.upperBound
                }
                expectEqual(next, devices)
            }
        }
        // No overflow for the largest counts.
        let huge = xivaPartitionDevices(3, of: 7, devices: Int.max)
        #expect(huge.lowerBound > 0 && huge.upperBound > huge.lowerBound)
    }
}
