// The binary interface against a closed form: Poisson writes on one connection, errors discarding what arrives during their round trip.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

/// With instant writes (`connection_rate: forever`), writes reach the connection as a Poisson
/// process of rate λ (every device's letters, one partition: XIVA writes whether or not a phone is online), and an error's round
/// trip is a constant d. A write that closes the connection at w discards the writes arriving in
/// (w, w + d): by independent increments their number K is Poisson(λd), whatever came before. A
/// resend buffer of N writes again the last min(K, N) of them, and (K − N)⁺ are lost. The means
/// over the run's errors are checked against E[K] = λd, E[min(K, N)] and E[(K − N)⁺], with a
/// tolerance of four standard errors of a mean over that many errors.
@Suite struct BinaryDiscardClosedFormTests {
    let devices = 200
    let lettersPerHourEach = 36.0        // λ = 200 × 36/h = 2/s
    let roundTripSeconds = 5.0           // d: λd = 10

    private func run(buffer: Int) throws -> Ledger {
        let text = """
        name: poisson-connection
        seed: 31
        duration: 8h
        drain: 1h
        devices: \(devices)
        mail: {rate: \(Int(lettersPerHourEach))/h}
        apns:
          interface: binary
          malformed: 0.5%
          error_delay: \(Int(roundTripSeconds))s
          connection_rate: forever
        xiva: {partitions: 1, resend_buffer: \(buffer)}
        queue: {mode: off}

        """
        let scenario = try ScenarioLoader.parse(text: text, file: "poisson.yaml")
        return Simulator.run(scenario).arms[0].ledger
    }

    /// Moments of a function of K ~ Poisson(mean): E[f(K)] and Var[f(K)].
    private func poissonMoments(mean: Double, _ f: (Int) -> Double) -> (mean: Double, variance: Double) {
        var p = exp(-mean), first = 0.0, second = 0.0
        for k in 0..<200 {
            first += p * f(k)
            second += p * f(k) * f(k)
            p *= mean / Double(k + 1)
        }
        return (first, second - first * first)
    }

    @Test func discardsPerErrorArePoissonOfTheRoundTrip() throws {
        let ledger = try run(buffer: 0)
        let errors = Double(ledger.binary.errors)
        let lambdaD = Double(devices) * lettersPerHourEach / 3600 * roundTripSeconds
        #expect(errors >= 60, "too few errors to test: \(errors)")
        let measured = Double(ledger.binary.discarded) / errors
        let se = (lambdaD / errors).squareRoot()
        report("discards per error", measured: measured, se: se, expected: lambdaD)
        #expect(within(measured, lambdaD, se: se), "\(measured) vs λd = \(lambdaD) ± \(se)")
        // Without a buffer every discarded write is a lost letter.
        expectEqual(ledger.causes[LossCause.connectionDiscard.rawValue], ledger.binary.discarded)
    }

    @Test func aBufferOfNWritesAgainMinKNAndLosesTheRest() throws {
        let n = 8
        let ledger = try run(buffer: n)
        let errors = Double(ledger.binary.errors)
        let lambdaD = Double(devices) * lettersPerHourEach / 3600 * roundTripSeconds
        let rewritten = poissonMoments(mean: lambdaD) { Double(min($0, n)) }
        let lost = poissonMoments(mean: lambdaD) { Double(max(0, $0 - n)) }
        let measuredRewritten = Double(ledger.binary.rewritten) / errors
        let measuredLost = Double(ledger.causes[LossCause.connectionDiscard.rawValue]) / errors
        let seRewritten = (rewritten.variance / errors).squareRoot()
        let seLost = (lost.variance / errors).squareRoot()
        report("rewritten per error", measured: measuredRewritten, se: seRewritten, expected: rewritten.mean)
        report("lost per error", measured: measuredLost, se: seLost, expected: lost.mean)
        #expect(within(measuredRewritten, rewritten.mean, se: seRewritten))
        #expect(within(measuredLost, lost.mean, se: seLost))
        expectEqual(ledger.binary.rewritten + ledger.causes[LossCause.connectionDiscard.rawValue], ledger.binary.discarded)
    }
}
