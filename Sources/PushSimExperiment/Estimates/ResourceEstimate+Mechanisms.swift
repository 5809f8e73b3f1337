// The estimate's share of each mechanism of the chain (Sources/PushSimCore/Chain): its events and the memory it holds.
import Foundation
import PushSimCore

extension ResourceEstimate {
    /// One mechanism's part of an estimate, so that a refusal can say which key makes a run too
    /// big and what to change. `events` counts the whole run (every device and arm), `bytes`
    /// what it adds to the peak memory.
    package struct Mechanism: Sendable, Equatable {
        /// The keys that turn it on, as a user writes them (`device.doze`, `xiva.retry`).
        package var key: String
        package var events: Double
        package var bytes: Double
        /// What to change to make it smaller.
        package var fix: String
    }

    /// Kernel events an extra send (a retry, a second copy, a re-write over the binary
    /// interface) causes at most: its arrival at APNs, its delivery, its extension's processed
    /// and deadline events.
    package static let eventsPerExtraSend = 4.0
    /// Bytes one extra copy occupies (a `PushCopy` and its events), with room for doubling.
    package static let bytesPerExtraCopy = 64.0
    /// Bytes one laid-out interval (a window, a doze window, an outage) occupies in a world: the
    /// interval in the merged list, its copy while sorting, and the flips it makes.
    package static let bytesPerInterval = 64.0
    /// A world's record while it runs ahead of the binary connection (`BinarySpeculation`:
    /// its counters, its arrays' headers and the allocator's).
    package static let bytesPerSpeculationRecord = 160.0
    /// A step of work that is no kernel event, in events: scanning one doze interval for a
    /// stored message (`fcmDozing`), a reinstall or id change passed in a loop. A contiguous
    /// compare costs about a nanosecond against 100 ns for an event at 10 M events/s; the
    /// loops' steps draw a random number, so they count as a tenth.
    package static let eventsPerScanStep = 1.0 / 32
    /// A step of a binary search among a device's laid-out windows (Focus): a compare and a
    /// branch no predictor guesses, about twice a contiguous scan's step.
    package static let eventsPerSearchStep = 1.0 / 16
    package static let eventsPerLoopStep = 0.1
    /// Drawing one flip of a process that takes no event per flip (`device.sleep`'s awake and
    /// asleep periods): a sample (a logarithm) and an append, about a quarter of an event.
    package static let eventsPerDrawnFlip = 0.5
    /// What every device costs with no letter and no flip: preparing it (its streams, empty
    /// letters and timeline) and each arm's reset and account. 10^12 devices with mail rate 0
    /// take about 8 days of CPU, 0.7 µs or 7 events' worth each (2 × 10^5 take 2.4 s in a debug
    /// build); 4 + 2 per arm is 8 with both arms.
    package static let eventsPerDevice = 4.0
    package static let eventsPerDeviceAndArm = 2.0
    /// Making and merging one ledger (zeroing and adding its latency histogram), in events.
    package static let eventsPerLedger = Double(LatencyHistogram.bucketCount) / 64

    /// The repetitions of `windows` inside [0, end): each every-window's count of periods, two
    /// more for the ends (and one for a spread), or 1 for a single window; the second figure is
    /// the steps to lay them out (from the first repetition that can reach time 0).
    static func repetitions(_ windows: [OfflineWindow], end: Double) -> (intervals: Double, steps: Double) {
        var intervals = 0.0, steps = 0.0
        for window in windows {
            let start = Double(window.start.microseconds), stop = Double(window.end.microseconds)
            if window.length == nil && stop <= start { continue }
            if let every = window.every, !every.isForever, every.microseconds > 0 {
                let period = Double(every.microseconds)
                if window.length == nil && stop - start >= period {
                    intervals += 1; steps += 1
                } else {
                    let shift = window.spread == .zero ? 0.0 : 1.0
                    intervals += end / period + 2 + shift
                    steps += (max(stop, start) + Double(window.spread.microseconds) + end) / period + 2 + shift
                }
            } else {
                intervals += 1; steps += 1
            }
        }
        return (finite(intervals), finite(steps))
    }

    /// The doze windows' intervals of a resolved scenario: FCM at normal priority holds
    /// messages while the device dozes, so they are offline windows for it; 0 otherwise.
    static func dozeIntervals(_ s: Scenario, end: Double) -> Double {
        guard s.channel == .fcm && s.fcm.priority == .normal && !s.device.doze.isEmpty else { return 0 }
        return repetitions(s.device.doze, end: end).intervals
    }

    /// Occurrences of XIVA's outages laid out over the run (each world lays them out again):
    /// counted from the periods, without laying them out.
    static func outageOccurrences(_ outages: [XivaOutage], end: Double) -> Double {
        finite(outages.reduce(0.0) { sum, outage in
            guard let every = outage.every, every.microseconds > 0 else { return sum + 1 }
            let span = Double(outage.end.microseconds) - Double(outage.start.microseconds)
            return sum + (end + max(0, span)) / Double(every.microseconds) + 2
        })
    }

    /// The mean of an alternating process's flips over [0, end) (the renewal rate, with the
    /// truncated means keeping heavy tails honest), two more for the ends.
    static func alternatingFlips(_ first: Distribution, _ second: Distribution, end: Double) -> Double {
        let cycle = truncatedMean(first, at: end) + truncatedMean(second, at: end)
        // A cycle shorter than a microsecond still advances the clock by at least one
        // microsecond every other period at most; never divide by (almost) nothing.
        return finite(2 * end / max(cycle, 1) + 2)
    }

    /// The events and bytes, per device, of each mechanism of one population beyond its letters
    /// and connectivity (those are `Population.letters` and `.flips`). `arms`: the arms that run;
    /// per-arm figures are multiplied by the arms the mechanism runs in.
    struct MechanismLoad {
        var key: String
        /// Events of one device over the run, all arms.
        var eventsPerDevice: Double
        /// Steps of one world's construction (laid-out intervals), once per world made.
        var stepsPerWorld: Double = 0
        /// Bytes of the busiest device, held once per thread (or per world on the coupled path).
        var bytesPerDevice: Double
        /// Bytes of one world's layout (held by every world at once on the coupled path).
        var bytesPerWorld: Double = 0
        var fix: String
    }

    /// Laying out a device's own windows: a step per repetition, then the intervals sorted and
    /// merged (n log n comparisons, each a comparison and a move: two scan steps): many short
    /// windows a day over a long run cost the sort more than the steps (17 000 windows a day for
    /// 30 days: measured 2.3 times the steps' share alone per event of an ordinary run).
    static func layoutEvents(_ windows: (intervals: Double, steps: Double)) -> Double {
        finite(windows.steps * eventsPerLoopStep + windows.intervals * log2(max(2, windows.intervals)) * 2 * eventsPerScanStep)
    }

    /// Every mechanism of `part` that costs anything; a mechanism not listed costs no event
    /// and no memory beyond its letters' (early kills end runs sooner; PushKit has no store).
    static func loads(of part: Population, arms: [Arm], scenario s: Scenario, end: Double) -> [MechanismLoad] {
        let armCount = Double(arms.count)
        let queueArm = arms.contains(.on) ? 1.0 : 0.0
        let L = part.letters, peakL = part.peakLetters
        var out: [MechanismLoad] = []

        // FCM's doze windows (normal priority): for the channel, offline windows of every device.
        if dozeIntervals(s, end: end) > 0 {
            let doze = repetitions(s.device.doze, end: end)
            let flips = 2 * doze.intervals
            // Flips drawn and taken in each arm (a store flush each), and each stored message's
            // scan of the doze list.
            let events = flips + armCount * (1.5 * flips + L * doze.intervals * eventsPerScanStep)
            out.append(MechanismLoad(key: "device.doze", eventsPerDevice: events, stepsPerWorld: 2 * doze.steps,
                                     bytesPerDevice: bytesPerFlip * (flips + 2), bytesPerWorld: bytesPerInterval * doze.intervals,
                                     fix: "lengthen device.doze's every (or end − start), use fcm.priority: high, or shorten the duration"))
        }
        // FCM's store: a stored message is sent again at the next connection (its own event).
        if s.channel == .fcm {
            out.append(MechanismLoad(key: "channel: fcm", eventsPerDevice: armCount * (2 * L + part.processFlips),
                                     bytesPerDevice: 2 * peakL + 64 * 100,
                                     fix: "lower mail.rate, or lengthen the online/offline periods"))
        }
        // A sleeping device (priority 5 meets device.sleep): its asleep intervals, drawn once
        // per device and taking no event, and a wake event only for a sleep that holds a push
        // (at most one a letter).
        if let sleep = s.device.sleep, s.apns.lowPriorityShare > 0 {
            let flips = alternatingFlips(sleep.awake, sleep.asleep, end: end)
            out.append(MechanismLoad(key: "device.sleep", eventsPerDevice: flips * eventsPerDrawnFlip + armCount * min(flips / 2, L),
                                     bytesPerDevice: 16 * (peak(flips) + 2),
                                     fix: "lengthen device.sleep's awake and asleep periods"))
        }
        // The client catch-up, or a version-2 client's app: the user's openings of the app, in
        // the queue arm, one event each (the app's requests are counted as the client's answers).
        if s.recovery == .catchUp || (s.recovery == .queue && s.queue.userClient?.stateful != nil), let open = s.device.appOpen {
            let opens = finite(end / max(truncatedMean(open, at: end), 1) + 2)
            out.append(MechanismLoad(key: "device.app_open", eventsPerDevice: queueArm * opens, bytesPerDevice: 0,
                                     fix: "lengthen device.app_open"))
        }
        // Background-push sync (docs/model.md §7): no event, but the queue arm draws and keeps
        // every launch of the app (its instant and whether the user force-quits it after) and
        // plans each letter's silent push, worked out once when the arm ends.
        if s.recovery == .backgroundSync {
            let opens = s.device.appOpen.map { finite(end / max(truncatedMean($0, at: end), 1) + 2) } ?? 0
            out.append(MechanismLoad(key: "device.app_open", eventsPerDevice: queueArm * (opens + L) * eventsPerLoopStep * 2,
                                     bytesPerDevice: 9 * peak(opens) + 32 * peakL,
                                     fix: "lengthen device.app_open, or lower mail.rate"))
        }
        // Low Power Mode (docs/model.md §10): a Low Power phone's windows, laid out once per
        // device and kept for both arms, and at most one release event per window that holds a
        // push. The busiest device is a Low Power phone whenever the share is above 0.
        if let lowPower = s.device.lowPower, lowPower.share > 0 {
            let windows = lowPower.windows.isEmpty ? (intervals: 1.0, steps: 1.0) : repetitions(lowPower.windows, end: end)
            out.append(MechanismLoad(key: "device.low_power",
                                     eventsPerDevice: lowPower.share * (layoutEvents(windows) + armCount * min(windows.intervals, L)),
                                     bytesPerDevice: bytesPerInterval * windows.intervals,
                                     fix: "lengthen device.low_power's windows (their every), or shorten the duration"))
        }
        // Focus (docs/model.md §10): a Focus user's windows, laid out once per device to a day
        // past the end, and searched (binary search, twice) for each delivered letter at the
        // arm's end; no event.
        if let focus = s.device.focus, focus.share > 0 {
            let windows = repetitions(focus.windows, end: end + Double(SimTime.day))
            let search = 2 * log2(max(2, windows.intervals)) * eventsPerSearchStep
            out.append(MechanismLoad(key: "device.focus",
                                     eventsPerDevice: focus.share * (layoutEvents(windows) + armCount * L * search),
                                     bytesPerDevice: bytesPerInterval * windows.intervals,
                                     fix: "lengthen device.focus's windows (their every), or shorten the duration"))
        }
        // The scheduled summary (docs/model.md §10): at the arm's end, each delivered letter of
        // a summary user looks for its next time among the summary's times of the day, in
        // order: half of them on average.
        if let summary = s.device.notificationSummary, summary.share > 0, !summary.times.isEmpty {
            let times = Double(summary.times.count)
            out.append(MechanismLoad(key: "device.notification_summary",
                                     eventsPerDevice: summary.share * armCount * L * times / 2 * eventsPerScanStep,
                                     bytesPerDevice: 8 * times,
                                     fix: "give device.notification_summary fewer times, or lower mail.rate"))
        }
        // XIVA's retries: each refused or unanswered send is sent again, up to attempts − 1 times.
        if let retry = s.xiva.retry, retry.attempts > 1 {
            let p = min(1, s.apns.loss + s.apns.serverError + s.apns.answerLoss + (s.apns.tokenLimit == nil ? 0 : 1)
                           + (s.apns.outages.isEmpty ? 0 : 1) + (s.apns.tokenRefresh == nil ? 0 : 1))
            var extra = 0.0, power = 1.0
            for _ in 1..<retry.attempts { power *= p; extra += power }
            out.append(MechanismLoad(key: "xiva.retry", eventsPerDevice: armCount * eventsPerExtraSend * L * extra,
                                     bytesPerDevice: bytesPerExtraCopy * peakL * extra,
                                     fix: "lower xiva.retry.attempts, or the refusals (apns.loss, apns.server_error, apns.answer_loss, apns.token_limit)"))
        }
        // APNs' second copies.
        if s.apns.duplicate > 0 {
            out.append(MechanismLoad(key: "apns.duplicate", eventsPerDevice: armCount * eventsPerExtraSend * L * s.apns.duplicate,
                                     bytesPerDevice: bytesPerExtraCopy * peakL * s.apns.duplicate, fix: "lower apns.duplicate"))
        }
        // App reinstalls: each is passed in a loop (two draws) and keeps its first position.
        if s.device.reinstallRatePerMicrosecond > 0 {
            let reinstalls = finite(s.device.reinstallRatePerMicrosecond * end)
            out.append(MechanismLoad(key: "device.reinstall", eventsPerDevice: armCount * (reinstalls + 1) * eventsPerLoopStep * 2,
                                     bytesPerDevice: 8 * peak(reinstalls + 1),
                                     fix: "lower device.reinstall"))
        }
        // Device id changes: passed in a loop by the queue arm's extension runs.
        if s.device.idChangeRatePerMicrosecond > 0 && s.recovery == .queue {
            let changes = finite(s.device.idChangeRatePerMicrosecond * end)
            out.append(MechanismLoad(key: "device.id_change", eventsPerDevice: queueArm * (changes + 1) * eventsPerLoopStep,
                                     bytesPerDevice: 0, fix: "lower device.id_change"))
        }
        // Media attachments: a size per letter, drawn and kept; a download draw per run.
        if let media = s.extension.media {
            out.append(MechanismLoad(key: "extension.media", eventsPerDevice: L * eventsPerLoopStep * (1 + armCount * media.share),
                                     bytesPerDevice: 8 * peakL, fix: "lower extension.media.share or mail.rate"))
        }
        // The binary interface: every send joins the connection as an event, and may be
        // rejected, checked and written again; the connection keeps one entry per error.
        // Worlds running ahead of it (SpeculativeStepper.swift) hold a day's writes as sweep
        // entries, twice (the window and its sort's scratch, 24 bytes each), and a record each.
        if s.apns.interface == .binary {
            let malformed = min(1, s.apns.malformed + (s.mail.payloadSize == nil ? 0 : 1))
            let writesInAWindow = L * min(1, Double(SimTime.day) / max(1, end))
            out.append(MechanismLoad(key: "apns.interface: binary",
                                     eventsPerDevice: armCount * L * (2 + eventsPerExtraSend * 2 * malformed),
                                     bytesPerDevice: bytesPerExtraCopy * peakL * (1 + 2 * malformed),
                                     bytesPerWorld: bytesPerSpeculationRecord + 2 * 24 * writesInAWindow,
                                     fix: "lower apns.malformed or mail.rate, or use apns.interface: http2"))
        }
        // XIVA's outages: every world lays them out and keeps them; a held letter's send moves.
        if !s.xiva.outages.isEmpty {
            let occurrences = outageOccurrences(s.xiva.outages, end: end)
            out.append(MechanismLoad(key: "xiva.outages", eventsPerDevice: armCount * L, stepsPerWorld: 2 * occurrences,
                                     bytesPerDevice: 0, bytesPerWorld: bytesPerInterval * occurrences,
                                     fix: "lengthen xiva.outages' every"))
        }
        // APNs' outages: every world lays them out and keeps them (with the outage of each);
        // every arrival at APNs is an event while they are set (the sends they refuse again are
        // `xiva.retry`'s).
        if !s.apns.outages.isEmpty && s.channel != .fcm {
            let occurrences = outageOccurrences(s.apns.outages.map(\.window), end: end)
            out.append(MechanismLoad(key: "apns.outages", eventsPerDevice: armCount * L, stepsPerWorld: 2 * occurrences,
                                     bytesPerDevice: 0, bytesPerWorld: bytesPerInterval * occurrences,
                                     fix: "lengthen apns.outages' every"))
        }
        // XIVA's provider token: every world lays out the run's refreshes (a step each) and keeps
        // up to two stretches per refresh; every arrival at APNs is an event while it is set (the
        // sends it refuses again are `xiva.retry`'s).
        if let refresh = s.apns.tokenRefresh, s.channel != .fcm {
            let refreshes = min(Double(APNsTokenRefresh.refreshLimit), finite(end / max(1, refresh.every.mean)) + 1)
            out.append(MechanismLoad(key: "apns.token_refresh", eventsPerDevice: armCount * L, stepsPerWorld: refreshes,
                                     bytesPerDevice: 0, bytesPerWorld: bytesPerInterval * 2 * refreshes,
                                     fix: "lengthen apns.token_refresh's every"))
        }
        // APNs' store of more than one slot: each stored copy kept, and sent again at the reconnection.
        if s.channel == .apns && !s.apns.store.isOneSlot {
            let held = min(Double(s.apns.store.slots ?? Int.max), peakL)
            out.append(MechanismLoad(key: "apns.store", eventsPerDevice: armCount * L, bytesPerDevice: 8 * held,
                                     fix: "lower apns.store.slots"))
        }
        // The capacity queue: each re-request joins the partition's server and is answered from it.
        if s.xiva.capacityPerMicrosecond != nil && s.recovery == .queue {
            out.append(MechanismLoad(key: "xiva.capacity", eventsPerDevice: queueArm * 2 * L,
                                     bytesPerDevice: 64 * peakL, fix: "raise xiva.capacity or xiva.partitions, or lower mail.rate"))
        }
        return out
    }
}
