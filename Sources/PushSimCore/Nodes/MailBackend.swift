// The mail backend: Poisson letters for one device, with the draws of their first send.

/// One letter and every random draw of its first send.
package struct LetterDraws: Equatable, Sendable {
    /// When the backend hands it to XIVA.
    package var time: Int64
    package var xivaLatency: Int64
    package var apnsLatency: Int64
    /// The extension's processing time for the first copy.
    package var processing: Int64
    /// XIVA drops it (unknown subscription).
    package var dropped: Bool
    /// The network loses the first copy on its way to APNs.
    package var lostBeforeAPNs: Bool
    /// Its payload is over APNs' limit: 4096 bytes, 2048 over the binary interface (docs/model.md §9, §11). A Bool in
    /// the struct's padding: the size itself matters only against the limit.
    package var payloadTooLarge = false
    /// It goes at priority 5 (docs/model.md §10); another Bool in the padding.
    package var lowPriority = false

    package init(time: Int64, xivaLatency: Int64, apnsLatency: Int64, processing: Int64,
                dropped: Bool, lostBeforeAPNs: Bool) {
        self.time = time
        self.xivaLatency = xivaLatency
        self.apnsLatency = apnsLatency
        self.processing = processing
        self.dropped = dropped
        self.lostBeforeAPNs = lostBeforeAPNs
    }
}

/// The letters of one device and every random draw of their first send, made once and shared
/// by both arms: this is what "common random numbers" means here. One array of structs, so a
/// letter is one append and one cache line.
package struct LetterScript: RandomAccessCollection {
    var letters: [LetterDraws] = []

    package init() {}
    package init(_ letters: [LetterDraws]) { self.letters = letters }

    package var startIndex: Int { 0 }
    package var endIndex: Int { letters.count }
    @inline(__always) package subscript(i: Int) -> LetterDraws { letters[i] }

    /// The instants of version 2's traffic (profile, bursts, trace), before their draws.
    var instants: [Int64] = []
    var burstScratch: [BurstLetter] = []

    /// Draws the letters in [0, duration) of one device.
    mutating func generate(_ scenario: Scenario, device: Int) {
        letters.removeAll(keepingCapacity: true)
        let mail = scenario.mail
        // Version 2's traffic (profile, bursts, trace) is laid out first; the Poisson letters
        // of version 1 are drawn as the loop goes. Either way the first-send draws follow in
        // letter order from the same streams.
        let laidOut = mail.trace != nil || mail.dailyProfile != nil || mail.bursts != nil
        if laidOut {
            MailTraffic.instants(scenario, device: device, into: &instants, scratch: &burstScratch)
        } else if !(mail.ratePerMicrosecond > 0) {
            return
        }
        var arrivals = RandomStream(seed: scenario.seed, device: device, purpose: .letters)
        var xiva = RandomStream(seed: scenario.seed, device: device, purpose: .xiva)
        var apns = RandomStream(seed: scenario.seed, device: device, purpose: .apns)
        var ext = RandomStream(seed: scenario.seed, device: device, purpose: .extensionRun)
        let xivaLatency = scenario.xiva.latency.sampler, apnsLatency = scenario.apns.latency.sampler
        let processing = scenario.extension.processing.sampler
        let drop = scenario.xiva.drop, loss = scenario.apns.loss
        let duration = scenario.duration.microseconds
        let horizon = Double(duration)
        let meanGap = 1 / mail.ratePerMicrosecond
        let exponential = ZigguratTable.exponential
        var clock = 0.0
        var next = 0
        while true {
            let instant: Int64
            if laidOut {
                guard next < instants.count else { break }
                instant = instants[next]
                next += 1
            } else {
                // Exact real-valued Poisson arrivals; only the instant reported is rounded.
                clock += meanGap * arrivals.nextExponential(exponential)
                instant = SimTime.rounding(clock).microseconds
                if !(clock < horizon) || instant >= duration { break }
            }
            // Each stream's draws in the order they have always been made (drop, then XIVA
            // latency; loss, then APNs latency), so a seed keeps its results.
            let dropped = xiva.chance(drop)
            let xivaDelay = xivaLatency.sample(&xiva)
            let lost = apns.chance(loss)
            let apnsDelay = apnsLatency.sample(&apns)
            letters.append(LetterDraws(time: instant, xivaLatency: xivaDelay, apnsLatency: apnsDelay,
                                       processing: processing.sample(&ext),
                                       dropped: dropped, lostBeforeAPNs: lost))
        }
        if _slowPath(mail.payloadSize != nil || scenario.apns.lowPriorityShare > 0) { drawProviderKeys(scenario, device: device) }
    }

    /// Each letter's payload size and priority (docs/model.md §9, §10), each from a stream of
    /// its own, in letter order: a pass of its own, so the loop above is as it was without them.
    mutating func drawProviderKeys(_ scenario: Scenario, device: Int) {
        if let sizes = scenario.mail.payloadSize?.sampler {
            var rng = RandomStream(seed: scenario.seed, device: device, purpose: .payloadSizes)
            let limit = DeviceWorld.payloadLimit(scenario.apns.interface)
            for i in letters.indices { letters[i].payloadTooLarge = sizes.sample(&rng) > limit }
        }
        // All at 5 needs no draw (`chance(1)` draws nothing); a share draws once per letter.
        let share = scenario.apns.lowPriorityShare
        if share > 0 {
            var rng = RandomStream(seed: scenario.seed, device: device, purpose: .priorities)
            for i in letters.indices { letters[i].lowPriority = rng.chance(share) }
        }
    }
}
