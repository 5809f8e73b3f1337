// A one-device world whose letters, connectivity and display are written by the test, not drawn.
@testable import PushSimCore
@testable import PushSimExperiment

/// Time units in microseconds, short enough to read in a scenario written by hand.
let us: Int64 = 1
let ms: Int64 = SimTime.millisecond
let sec: Int64 = SimTime.second
let minute: Int64 = SimTime.minute
let hour: Int64 = SimTime.hour
let day: Int64 = SimTime.day

func span(_ microseconds: Int64) -> SimTime { SimTime(microseconds: microseconds) }
func constant(_ microseconds: Int64) -> Distribution { .constant(SimTime(microseconds: microseconds)) }

/// One letter of a scripted device and the draws of its first send. A nil latency or
/// processing time takes the scenario's (constant) distribution.
struct ScriptedLetter {
    var time: Int64
    var dropped = false
    var lost = false
    var xivaLatency: Int64? = nil
    var apnsLatency: Int64? = nil
    var processing: Int64? = nil
    /// Its payload is over APNs' limit (docs/model.md §9).
    var payloadTooLarge = false
    /// It goes at priority 5 (docs/model.md §10).
    var lowPriority = false
}

/// A small scenario with the defaults of the contract: one device, letters written by hand.
func tinyScenario(duration: Int64 = 1 * day, drain: Int64 = 1 * day) -> Scenario {
    var s = Scenario(name: "scripted", duration: span(duration), devices: 1)
    s.drain = span(drain)
    return s
}

/// `tinyScenario()` on another push channel (docs/model.md §9), adjusted by `configure`.
func tinyScenario(on channel: PushChannel, _ configure: (inout Scenario) -> Void = { _ in }) -> Scenario {
    var s = tinyScenario()
    s.channel = channel
    configure(&s)
    return s
}

/// A device world with a hand-written letter script and timeline. Runs of either arm start from
/// a fresh ledger, so what a test reads is exactly that arm's account of these letters.
struct ScriptedWorld: ~Copyable {
    var world: DeviceWorld
    var trace: [TraceEntry] = []

    init(_ scenario: Scenario, letters: [ScriptedLetter], offline: [Range<Int64>] = [],
         alertsOff: Bool = false) {
        var s = scenario
        s.mail.ratePerMicrosecond = 0
        s.connectivity = Scenario.Connectivity()
        world = DeviceWorld(scenario: s)
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
    }

    /// Runs one arm and returns its ledger; `fate(i)` and `firstDelivery(i)` then describe it.
    @discardableResult
    mutating func run(_ arm: Arm) -> Ledger {
        world.ledger = Ledger()
        let log = TraceLog()
        world.tracer = { log.entries.append($0) }
        world.run(arm)
        world.tracer = nil
        trace = log.entries
        return world.ledger
    }

    func fate(_ i: Int) -> LetterFate { world.fate(of: i) }
    func fates() -> [LetterFate] { (0..<world.draws.letters.count).map { world.fate(of: $0) } }

    /// When letter i was first presented with its own content (only meaningful if delivered).
    func firstDelivery(_ i: Int) -> Int64 { world.letterStates[i].firstDelivery }

    /// The trace as text, for failure messages.
    var traceText: String {
        trace.map { "\(SimTime(microseconds: $0.time)) [\($0.lane)] \($0.letter.map { "#\($0) " } ?? "")\($0.text)" }
            .joined(separator: "\n")
    }
}
