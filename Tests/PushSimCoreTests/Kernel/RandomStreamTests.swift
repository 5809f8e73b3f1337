// Our PRNG: reproducible, independent per (device, purpose), uniform.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct RandomStreamTests {
    @Test func sameSeedGivesTheSameSequence() {
        var a = RandomStream(seed: 42), b = RandomStream(seed: 42)
        #expect((0..<1_000).allSatisfy { _ in a.next() == b.next() })
        var c = RandomStream(seed: 7, device: 3, purpose: .apns)
        var d = RandomStream(seed: 7, device: 3, purpose: .apns)
        #expect((0..<1_000).allSatisfy { _ in c.next() == d.next() })
    }

    @Test func copiesAreIndependentValues() {
        var a = RandomStream(seed: 5)
        _ = a.next()
        var b = a
        let fromA = (0..<10).map { _ in a.next() }
        let fromB = (0..<10).map { _ in b.next() }
        expectEqual(fromA, fromB)
    }

    @Test func differentDevicesAndPurposesGetDifferentStreams() {
        var firsts: [[UInt64]] = []
        for device in 0..<20 {
            for (_, purpose) in StreamPurpose.registry {
                var rng = RandomStream(seed: 1, device: device, purpose: purpose)
                firsts.append((0..<4).map { _ in rng.next() })
            }
        }
        expectEqual(Set(firsts.map { $0.description }).count, firsts.count)
        // A different scenario seed moves every stream.
        var a = RandomStream(seed: 1, device: 0, purpose: .letters)
        var b = RandomStream(seed: 2, device: 0, purpose: .letters)
        #expect(a.next() != b.next())
    }

    /// Stable identities: no two purposes share one, names are unique, today's purposes keep the
    /// numbers committed results were made with, and a named purpose's identity is its name's
    /// hash (so it does not depend on where, or on which branch, it was declared).
    @Test func streamIdentitiesAreStableAndUnique() {
        let registry = StreamPurpose.registry
        expectEqual(Set(registry.map(\.purpose.identity)).count, registry.count)
        expectEqual(Set(registry.map(\.name)).count, registry.count)
        expectEqual(StreamPurpose.letters.identity, 1)
        expectEqual(StreamPurpose.mediaDownloads.identity, 29)
        expectEqual(StreamPurpose.reinstalls.identity, 30)
        expectEqual(StreamPurpose.binaryErrors.identity, 40)
        expectEqual(StreamPurpose(named: "lowPowerMode").identity, FNV1a.hash("lowPowerMode".utf8))
        expectEqual(StreamPurpose(named: "lowPowerMode"), StreamPurpose(named: "lowPowerMode"))
        // A hashed identity never lands on a frozen number (they are all below 2^16).
        let named: Set<String> = ["lowPower", "lowPowerRelease", "notificationHolding", "timeSensitive", "backgroundPushes", "forceQuit", "syncDelays", "apnsOutages", "tokenRefresh", "appRequests"]
        #expect(registry.filter { !named.contains($0.name) }.allSatisfy { $0.purpose.identity < 1 << 16 })
        #expect(registry.filter { named.contains($0.name) }.allSatisfy { $0.purpose.identity >= 1 << 16 })
        #expect(StreamPurpose(named: "lowPowerMode").identity >= 1 << 16)
        // Pinned: the first draw of a frozen purpose's stream, as committed results were made.
        var letters = RandomStream(seed: 1, device: 0, purpose: .letters)
        var again = RandomStream(seed: 1, device: 0, purpose: StreamPurpose.registry[0].purpose)
        expectEqual(letters.next(), again.next())
    }

    @Test func neighbouringStreamsAreUncorrelated() {
        // Sample correlation of two neighbouring devices' uniforms: ~N(0, 1/n).
        let n = 50_000
        var a = RandomStream(seed: 1, device: 0, purpose: .letters)
        var b = RandomStream(seed: 1, device: 1, purpose: .letters)
        var sum = 0.0
        for _ in 0..<n { sum += (a.nextUnit() - 0.5) * (b.nextUnit() - 0.5) }
        let correlation = sum / Double(n) * 12
        #expect(abs(correlation) < 4 / Double(n).squareRoot())
    }

    @Test func nextUnitIsInTheHalfOpenUnitInterval() {
        var rng = RandomStream(seed: 3)
        var inRange = true
        for _ in 0..<100_000 {
            let u = rng.nextUnit(), v = rng.nextOpenUnit()
            inRange = inRange && u >= 0 && u < 1 && v > 0 && v <= 1
        }
        #expect(inRange)
    }

    /// Mean 1/2 (variance of the mean 1/(12n)) and variance 1/12 (variance of the estimate ≈ 1/(180n)).
    @Test func uniformMeanAndVarianceWithinFourStandardErrors() {
        let n = 200_000
        var rng = RandomStream(seed: 11, device: 5, purpose: .user)
        var sum = 0.0, squares = 0.0
        for _ in 0..<n {
            let u = rng.nextUnit()
            sum += u
            squares += (u - 0.5) * (u - 0.5)
        }
        let mean = sum / Double(n)
        #expect(abs(mean - 0.5) < 4 * (1.0 / 12 / Double(n)).squareRoot())
        let variance = squares / Double(n)
        #expect(abs(variance - 1.0 / 12) < 4 * (1.0 / 180 / Double(n)).squareRoot())
    }

    @Test func chanceHasTheGivenProbability() {
        let n = 100_000
        var rng = RandomStream(seed: 13)
        let hits = (0..<n).filter { _ in rng.chance(0.3) }.count
        #expect(within(Double(hits) / Double(n), 0.3, se: binomialStandardError(0.3, n)))
        #expect(!(0..<1_000).contains { _ in rng.chance(0) })
        #expect((0..<1_000).allSatisfy { _ in rng.chance(1) })
    }

    @Test func gaussianHasMeanZeroAndUnitVariance() {
        let n = 100_000
        var rng = RandomStream(seed: 17)
        var xs: [Double] = []
        for _ in 0..<n { xs.append(rng.nextGaussian()) }
        let (mean, se) = meanAndStandardError(xs)
        #expect(abs(mean) < 4 * se)
        let variance = xs.reduce(0) { $0 + $1 * $1 } / Double(n)
        // Var of x² for a standard normal is 2.
        #expect(abs(variance - 1) < 4 * (2.0 / Double(n)).squareRoot())
    }
}
