// Our own seeded PRNG: SplitMix64 seeds xoshiro256**, one independent stream per (device, purpose).

/// What a random stream is used for. Each purpose of each device has its own stream, so that
/// adding draws for one purpose never reshuffles another, and both queue arms see the same world.
///
/// A purpose is identified by a stable name, never by its place in a list: a new purpose's
/// identity is the FNV-1a hash of its name (`StreamPurpose(named:)`), so two branches that each
/// add a stream cannot renumber each other's (which once moved committed results at a merge).
/// The purposes that existed before keep the numbers their results were made with (`frozen`);
/// `StreamPurpose.registry` lists every purpose, and a test checks that no two share an identity.
package struct StreamPurpose: Hashable, Sendable {
    /// The number mixed into the stream's seed.
    package let identity: UInt64

    /// A purpose added from now on: its identity derives from its name alone.
    package init(named name: String) { identity = FNV1a.hash(name.utf8) }

    /// A purpose whose stream was numbered before names were: it keeps its number, so its draws
    /// never change.
    private init(frozen identity: UInt64) { self.identity = identity }

    package static let letters = StreamPurpose(frozen: 1)          // letter arrival times
    package static let xiva = StreamPurpose(frozen: 2)             // drop decisions and XIVA latency of first sends
    package static let apns = StreamPurpose(frozen: 3)             // network loss and APNs latency of first sends
    package static let connectivity = StreamPurpose(frozen: 4)     // online / offline periods
    package static let device = StreamPurpose(frozen: 5)           // per-device settings (display off)
    package static let extensionRun = StreamPurpose(frozen: 6)     // processing time of the first send's extension run
    package static let user = StreamPurpose(frozen: 7)             // when the user clears a notification
    package static let redelivery = StreamPurpose(frozen: 8)       // fresh APNs latency when the offline store is flushed
    package static let requests = StreamPurpose(frozen: 9)         // re-request latency, errors, re-send latency
    package static let resends = StreamPurpose(frozen: 10)         // network loss, APNs latency and processing of re-sent copies
    package static let bursts = StreamPurpose(frozen: 11)          // burst instants and the offsets of their letters (mail.bursts)
    package static let windows = StreamPurpose(frozen: 12)         // per-device window offsets and lengths (windows with spread or length)
    package static let apnsStore = StreamPurpose(frozen: 13)       // whether the older push stays in the store (apns.keep_older)
    package static let duplicates = StreamPurpose(frozen: 14)      // second copies: the decision, their APNs latency and processing
    package static let appOpens = StreamPurpose(frozen: 15)        // when the user opens the app (recovery: catch_up)
    package static let extensionKills = StreamPurpose(frozen: 16)  // whether the system kills an extension run early (extension.early_kill)
    package static let deviceIdChanges = StreamPurpose(frozen: 17) // when the device id changes (device.id_change)
    package static let saveDelays = StreamPurpose(frozen: 18)      // when a parallel extension run writes the saved position (extension.save_delay)
    package static let payloadSizes = StreamPurpose(frozen: 19)    // each letter's payload size (mail.payload_size)
    package static let uninstalls = StreamPurpose(frozen: 20)      // when the app is uninstalled (device.uninstall)
    package static let apnsAnswers = StreamPurpose(frozen: 21)     // whether APNs answers 5xx or its answer is lost (apns.server_error, apns.answer_loss)
    package static let retries = StreamPurpose(frozen: 22)         // retried pushes: backoff, network loss and APNs latency (xiva.retry)
    package static let priorities = StreamPurpose(frozen: 23)      // whether a letter goes at priority 5 (apns.priority as a share)
    package static let sleep = StreamPurpose(frozen: 24)           // the device's awake and asleep periods (device.sleep)
    package static let callKitReports = StreamPurpose(frozen: 25)  // whether the app fails to report a VoIP push to CallKit (pushkit.report_failure)
    package static let fcmCollapseKeys = StreamPurpose(frozen: 26) // each letter's FCM collapse key (fcm.collapse_keys)
    package static let fcmStore = StreamPurpose(frozen: 27)        // which collapse key FCM's store drops past four (fcm.collapse_keys > 4)
    package static let mediaLetters = StreamPurpose(frozen: 28)    // which letters carry an attachment, and its size (extension.media)
    package static let mediaDownloads = StreamPurpose(frozen: 29)  // per extension run: a cache hit, the bandwidth (extension.media)
    package static let reinstalls = StreamPurpose(frozen: 30)      // when the app is reinstalled, and when XIVA learns its new token (device.reinstall)
    package static let binaryErrors = StreamPurpose(frozen: 40)    // whether a written notification is malformed, its error's round trip (apns.interface: binary)
    package static let lowPower = StreamPurpose(named: "lowPower")               // whether a phone goes into Low Power Mode (device.low_power)
    package static let lowPowerRelease = StreamPurpose(named: "lowPowerRelease") // per arm: the order of a shuffled release (device.low_power)
    package static let notificationHolding = StreamPurpose(named: "notificationHolding") // whether a user has a summary, Focus windows, time-sensitive off (device.notification_summary, device.focus)
    package static let timeSensitive = StreamPurpose(named: "timeSensitive")     // whether a letter is sent time-sensitive (apns.time_sensitive)
    package static let backgroundPushes = StreamPurpose(named: "backgroundPushes") // per arm: a background push's latencies and loss (recovery: background_sync)
    package static let forceQuit = StreamPurpose(named: "forceQuit")             // per arm: whether the user force-quits the app after a use (recovery: background_sync)
    package static let syncDelays = StreamPurpose(named: "syncDelays")           // per arm: from a sync to the user seeing it (recovery: background_sync)
    package static let apnsOutages = StreamPurpose(named: "apnsOutages")         // whether an APNs outage for a share of phones concerns this one (apns.outages)
    package static let tokenRefresh = StreamPurpose(named: "tokenRefresh")       // per run: XIVA's provider token's refreshes and lockouts (apns.token_refresh)
    package static let appRequests = StreamPurpose(named: "appRequests")         // per arm: a version-2 client's app's re-requests: latency, error, re-send latency

    /// Every purpose by its name. A purpose added with `init(named:)` joins this list under the
    /// same name; the uniqueness test reads it.
    package static let registry: [(name: String, purpose: StreamPurpose)] = [
        ("letters", letters), ("xiva", xiva), ("apns", apns), ("connectivity", connectivity), ("device", device),
        ("extensionRun", extensionRun), ("user", user), ("redelivery", redelivery), ("requests", requests),
        ("resends", resends), ("bursts", bursts), ("windows", windows), ("apnsStore", apnsStore),
        ("duplicates", duplicates), ("appOpens", appOpens), ("extensionKills", extensionKills),
        ("deviceIdChanges", deviceIdChanges), ("saveDelays", saveDelays), ("payloadSizes", payloadSizes),
        ("uninstalls", uninstalls), ("apnsAnswers", apnsAnswers), ("retries", retries), ("priorities", priorities),
        ("sleep", sleep), ("callKitReports", callKitReports), ("fcmCollapseKeys", fcmCollapseKeys),
        ("fcmStore", fcmStore), ("mediaLetters", mediaLetters), ("mediaDownloads", mediaDownloads),
        ("reinstalls", reinstalls), ("binaryErrors", binaryErrors), ("lowPower", lowPower), ("lowPowerRelease", lowPowerRelease),
        ("notificationHolding", notificationHolding), ("timeSensitive", timeSensitive),
        ("backgroundPushes", backgroundPushes), ("forceQuit", forceQuit), ("syncDelays", syncDelays),
        ("apnsOutages", apnsOutages), ("tokenRefresh", tokenRefresh), ("appRequests", appRequests),
    ]
}

/// SplitMix64: used only to expand seeds; its outputs are well mixed even for adjacent inputs.
package func splitMix64(_ state: inout UInt64) -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

/// xoshiro256**: fast, 256 bits of state, passes BigCrush; a value type, so copies are independent.
package struct RandomStream: RandomNumberGenerator, Sendable {
    var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// A stream from a raw 64-bit seed.
    package init(seed: UInt64) {
        var x = seed
        s0 = splitMix64(&x); s1 = splitMix64(&x); s2 = splitMix64(&x); s3 = splitMix64(&x)
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }  // the all-zero state is a fixed point
    }

    /// The stream of one (device, purpose) under a scenario seed. The three numbers are mixed
    /// through SplitMix64 one after another, so neighbouring devices get unrelated streams.
    package init(seed: UInt64, device: Int, purpose: StreamPurpose) {
        var x = seed
        var mixed = splitMix64(&x)
        x = mixed ^ UInt64(truncatingIfNeeded: device)
        mixed = splitMix64(&x)
        x = mixed ^ (purpose.identity &* 0xD6E8_FEB8_6659_FD93)
        self.init(seed: splitMix64(&x))
    }

    @inline(__always) package mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// Uniform in [0, 1), 53 bits.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in (0, 1]: safe to take the logarithm of.
    package mutating func nextOpenUnit() -> Double {
        Double((next() >> 11) + 1) * 0x1.0p-53
    }

    /// True with probability p.
    package mutating func chance(_ p: Double) -> Bool {
        if p <= 0 { return false }
        if p >= 1 { return true }
        return nextUnit() < p
    }
}
