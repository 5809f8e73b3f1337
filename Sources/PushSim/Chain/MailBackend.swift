// The mail backend: Poisson letters for one device, with the draws of their first send.

/// The letters of one device and every random draw of their first send, made once and shared
/// by both arms: this is what "common random numbers" means here.
public struct LetterScript {
    public var time: [Int64] = []
    public var dropped: [Bool] = []
    public var xivaLatency: [Int64] = []
    public var lostBeforeAPNs: [Bool] = []
    public var apnsLatency: [Int64] = []
    public var processing: [Int64] = []

    public init() {}

    public var count: Int { time.count }

    mutating func removeAll() {
        time.removeAll(keepingCapacity: true)
        dropped.removeAll(keepingCapacity: true)
        xivaLatency.removeAll(keepingCapacity: true)
        lostBeforeAPNs.removeAll(keepingCapacity: true)
        apnsLatency.removeAll(keepingCapacity: true)
        processing.removeAll(keepingCapacity: true)
    }

    /// Draws the letters in [0, duration) of one device.
    mutating func generate(_ scenario: Scenario, device: Int) {
        removeAll()
        let rate = scenario.mail.ratePerMicrosecond
        guard rate > 0 else { return }
        var arrivals = RandomStream(seed: scenario.seed, device: device, purpose: .letters)
        var xiva = RandomStream(seed: scenario.seed, device: device, purpose: .xiva)
        var apns = RandomStream(seed: scenario.seed, device: device, purpose: .apns)
        var ext = RandomStream(seed: scenario.seed, device: device, purpose: .extensionRun)
        let xivaLatency = scenario.xiva.latency.sampler, apnsLatency = scenario.apns.latency.sampler
        let processing = scenario.extension.processing.sampler
        let horizon = Double(scenario.duration.microseconds)
        let meanGap = 1 / rate
        var clock = 0.0
        while true {
            // Exact real-valued Poisson arrivals; only the instant reported is rounded.
            clock += -meanGap * PortableMath.log(arrivals.nextOpenUnit())
            let instant = SimTime.rounding(clock).microseconds
            if !(clock < horizon) || instant >= scenario.duration.microseconds { break }
            time.append(instant)
            dropped.append(xiva.chance(scenario.xiva.drop))
            self.xivaLatency.append(xivaLatency.sample(&xiva))
            lostBeforeAPNs.append(apns.chance(scenario.apns.loss))
            self.apnsLatency.append(apnsLatency.sample(&apns))
            self.processing.append(processing.sample(&ext))
        }
    }
}
