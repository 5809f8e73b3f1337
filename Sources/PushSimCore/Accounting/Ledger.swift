// The Ledger: the fate of every letter, with its cause, and the counts of what the chain did.

/// Everything one arm of a run counted. Ledgers of disjoint sets of devices add up
/// (`merge`), which is how shards and threads combine into exactly one run's result.
package struct Ledger: Equatable, Sendable {
    package var letters = 0
    package var delivered = 0
    package var summarized = 0
    package var lost = 0
    package var causes = [Int](repeating: 0, count: LossCause.allCases.count)
    package var duplicates = 0
    package var latency = LatencyHistogram()
    package var events = 0

    // What the queue did.
    package var reRequests = 0
    package var resent = 0
    package var summaries = 0
    package var extensionTimeouts = 0

    // What XIVA's re-request server did (docs/model.md §6): re-requests served, answered with an
    // error without service (an outage, a queue time-out), the longest queue, the longest wait.
    package var xivaServed = 0
    package var xivaErrors = 0
    package var xivaMaxQueue = 0
    package var xivaMaxWaitMicroseconds = 0
    /// The most re-requests waiting in one partition, minute by minute (finite capacity only).
    package var xivaQueue = XivaQueueSeries()
    /// XIVA's load bin by bin: letters in, pushes sent, re-requests, re-sends, summaries (docs/model.md §14).
    package var load = LoadSeries()
    /// Each mechanism's counters (Mechanisms/MechanismRegistry.swift), reached as the ledger's
    /// own: `ledger.sleep` is `ledger.mechanismCounts.sleep`, an accessor declared there.
    package var mechanismCounts = MechanismCounts()

    /// PushKit (docs/model.md §12): VoIP pushes the app failed to report to CallKit, and devices
    /// the system then stopped launching for VoIP pushes.
    package var callKitFailures = 0
    package var devicesCutOff = 0

    // What the extension's own logging would have seen (the telemetry view).
    package var pushesSeenByExtensions = 0
    package var gapsDetected = 0
    package var missedInGaps = 0
    /// Letters on devices whose extension ran at least once (the devices telemetry can see).
    package var lettersOnVisibleDevices = 0
    /// The highest position each device's extension saw, summed: the letters telemetry knows of.
    package var positionsKnownToTelemetry = 0
    /// Letters XIVA held in a delay-mode outage and sent at its end (docs/model.md §6): their
    /// pushes can arrive out of order, which the logs read as gaps (the telemetry's caveat).
    package var heldInOutage = 0

    package init() {}

    /// Records the end state of one letter. Called exactly once per letter.
    package mutating func record(_ fate: LetterFate) {
        record(letters: 0..<1) { _ in fate }
    }

    /// Records the end states of the letters `letters`, `fate(i)` each: the same as `record`
    /// for each, with the ledger's arrays opened once instead of checked for sharing per letter.
    @inline(__always) package mutating func record(letters: Range<Int>, _ fate: (Int) -> LetterFate) {
        var deliveredNow = 0, summarizedNow = 0, lostNow = 0, undeliverableNow = 0
        // Taken out of the ledger for the while and opened once, in place: not checked for
        // sharing per letter.
        var causeArray: [Int] = []
        swap(&causeArray, &causes)
        do {
            var causeCounts = causeArray.mutableSpan
            latency.recording { recordLatency in
                for i in letters {
                    switch fate(i) {
                    case .delivered(let latencyMicroseconds):
                        deliveredNow += 1
                        recordLatency(latencyMicroseconds)
                    case .summarized:
                        summarizedNow += 1
                    case .undeliverable:
                        undeliverableNow += 1
                    case .lost(let cause):
                        lostNow += 1
                        causeCounts[cause.rawValue] += 1
                    }
                }
            }
        }
        causes = causeArray
        self.letters += letters.count - undeliverableNow
        uninstall.undeliverable += undeliverableNow
        delivered += deliveredNow
        summarized += summarizedNow
        lost += lostNow
    }

    package func count(of cause: LossCause) -> Int { causes[cause.rawValue] }

    package var lossRate: Double { letters == 0 ? 0 : Double(lost) / Double(letters) }
    package var duplicateRate: Double { letters == 0 ? 0 : Double(duplicates) / Double(letters) }

    package mutating func merge(_ other: Ledger) {
        letters += other.letters
        delivered += other.delivered
        summarized += other.summarized
        lost += other.lost
        for i in causes.indices { causes[i] += other.causes[i] }
        duplicates += other.duplicates
        latency.merge(other.latency)
        events += other.events
        reRequests += other.reRequests
        resent += other.resent
        summaries += other.summaries
        extensionTimeouts += other.extensionTimeouts
        xivaServed += other.xivaServed
        xivaErrors += other.xivaErrors
        // Maxima are of one partition at one instant: disjoint devices take the larger.
        xivaMaxQueue = max(xivaMaxQueue, other.xivaMaxQueue)
        xivaMaxWaitMicroseconds = max(xivaMaxWaitMicroseconds, other.xivaMaxWaitMicroseconds)
        if !other.xivaQueue.isEmpty { xivaQueue.merge(other.xivaQueue) }
        if !other.load.isEmpty { load.merge(other.load) }
        callKitFailures += other.callKitFailures
        devicesCutOff += other.devicesCutOff
        pushesSeenByExtensions += other.pushesSeenByExtensions
        gapsDetected += other.gapsDetected
        missedInGaps += other.missedInGaps
        lettersOnVisibleDevices += other.lettersOnVisibleDevices
        positionsKnownToTelemetry += other.positionsKnownToTelemetry
        heldInOutage += other.heldInOutage
        MechanismCounts.merge(into: &self, from: other)
    }

    /// The accounting identities of the contract: every letter in exactly one state,
    /// causes adding up to the lost.
    package var identitiesHold: Bool {
        delivered + summarized + lost == letters && causes.reduce(0, +) == lost
            && Int(latency.total) == delivered
            && mechanismCounts.identitiesHold(delivered: delivered)
    }
}
