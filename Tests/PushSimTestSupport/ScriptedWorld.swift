// A one-device world whose letters, connectivity and display are written by the test, not drawn.
import Testing
@testable import PushSimCore
@testable import PushSimExperiment

/// Time units in microseconds, short enough to read in a scenario written by hand.
package let us: Int64 = 1
package let ms: Int64 = SimTime.millisecond
package let sec: Int64 = SimTime.second
package let minute: Int64 = SimTime.minute
package let hour: Int64 = SimTime.hour
package let day: Int64 = SimTime.day

package func span(_ microseconds: Int64) -> SimTime { SimTime(microseconds: microseconds) }
package func constant(_ microseconds: Int64) -> Distribution { .constant(SimTime(microseconds: microseconds)) }

/// One letter of a scripted device and the draws of its first send. A nil latency or
/// processing time takes the scenario's (constant) distribution.
package struct ScriptedLetter {
    package var time: Int64
    package var dropped = false
    package var lost = false
    package var xivaLatency: Int64? = nil
    package var apnsLatency: Int64? = nil
    package var processing: Int64? = nil
    /// Its payload is over APNs' limit (docs/model.md §9).
    package var payloadTooLarge = false
    /// It goes at priority 5 (docs/model.md §10).
    package var lowPriority = false

    /// The memberwise initializer, spelled out: a package type's synthesized one is internal.
    package init(time: Int64, dropped: Bool = false, lost: Bool = false, xivaLatency: Int64? = nil,
                 apnsLatency: Int64? = nil, processing: Int64? = nil, payloadTooLarge: Bool = false,
                 lowPriority: Bool = false) {
        self.time = time
        self.dropped = dropped
        self.lost = lost
        self.xivaLatency = xivaLatency
        self.apnsLatency = apnsLatency
        self.processing = processing
        self.payloadTooLarge = payloadTooLarge
        self.lowPriority = lowPriority
    }
}

/// A small scenario with the defaults of the contract: one device, letters written by hand.
package func tinyScenario(duration: Int64 = 1 * day, drain: Int64 = 1 * day) -> Scenario {
    var s = Scenario(name: "scripted", duration: span(duration), devices: 1)
    s.drain = span(drain)
    return s
}

/// `tinyScenario()` on another push channel (docs/model.md §9), adjusted by `configure`.
package func tinyScenario(on channel: PushChannel, _ configure: (inout Scenario) -> Void = { _ in }) -> Scenario {
    var s = tinyScenario()
    s.channel = channel
    configure(&s)
    return s
}

/// A device world with a hand-written letter script and timeline. Runs of either arm start from
/// a fresh ledger, so what a test reads is exactly that arm's account of these letters.
@frozen package struct ScriptedWorld: ~Copyable {
    package var world: DeviceWorld
    package var trace: [TraceEntry] = []

    package init(_ scenario: Scenario, letters: [ScriptedLetter], offline: [Range<Int64>] = [],
         alertsOff: Bool = false) {
        world = Self.world(scenario, letters: letters, offline: offline, alertsOff: alertsOff)
    }

    /// The device world a scripted world holds, on its own: for a test that steps it among
    /// others (a partition's ``CoupledWorlds``).
    package static func world(_ scenario: Scenario, letters: [ScriptedLetter], offline: [Range<Int64>] = [],
                              alertsOff: Bool = false) -> DeviceWorld {
        // The world reads its letters in time order, as MailBackend draws them (the load series
        // bins by the last letter's time): a script out of order is a world that cannot happen.
        if zip(letters, letters.dropFirst()).contains(where: { $0.time > $1.time }) {
            Issue.record("a scripted world's letters must be in time order: \(letters.map(\.time))")
        }
        var s = scenario
        s.mail.ratePerMicrosecond = 0
        s.connectivity = Scenario.Connectivity()
        var world = DeviceWorld(scenario: s)
        world.prepare(device: 0)
        var rng = RandomStream(seed: 0)
        world.draws.letters = LetterScript(letters.map { letter in
            var draws = LetterDraws(time: letter.time,
                        xivaLatency: letter.xivaLatency ?? s.xiva.latency.sample(&rng).microseconds,
                        apnsLatency: letter.apnsLatency ?? s.apns.latency.sample(&rng).microseconds,
                        processing: letter.processing ?? s.extension.processing.sample(&rng).microseconds,
                        dropped: letter.dropped, lostBeforeAPNs: letter.lost)
            draws.payloadTooLarge = letter.payloadTooLarge
            draws.lowPriority = letter.lowPriority
            return draws
        })
        var timeline = ConnectivityTimeline()
        let end = s.end.microseconds
        timeline.onlineAtStart = !(offline.first.map { $0.lowerBound <= 0 } ?? false)
        for interval in offline {
            if interval.lowerBound > 0 { timeline.flips.append(interval.lowerBound) }
            if interval.upperBound < end { timeline.flips.append(interval.upperBound) }
        }
        world.draws.timeline = timeline
        world.draws.alertsOff = alertsOff
        return world
    }

    /// Runs one arm and returns its ledger; `fate(i)` and `firstDelivery(i)` then describe it.
    @discardableResult
    package mutating func run(_ arm: Arm) -> Ledger {
        world.ledger = Ledger()
        let log = TraceLog()
        world.tracer = { log.entries.append($0) }
        world.run(arm)
        world.tracer = nil
        trace = log.entries
        return world.ledger
    }

    package func fate(_ i: Int) -> LetterFate { world.fate(of: i) }
    package func fates() -> [LetterFate] { (0..<world.draws.letters.count).map { world.fate(of: $0) } }

    /// When letter i was first presented with its own content (only meaningful if delivered).
    package func firstDelivery(_ i: Int) -> Int64 { world.letterStates[i].firstDelivery }

    /// The trace as text, for failure messages.
    package var traceText: String {
        trace.map { "\(SimTime(microseconds: $0.time)) [\($0.lane)] \($0.letter.map { "#\($0) " } ?? "")\($0.text)" }
            .joined(separator: "\n")
    }
}
