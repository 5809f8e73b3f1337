// Our own seeded PRNG: SplitMix64 seeds xoshiro256**, one independent stream per (device, purpose).

/// What a random stream is used for. Each purpose of each device has its own stream, so that
/// adding draws for one purpose never reshuffles another, and both queue arms see the same world.
package enum StreamPurpose: UInt64, Sendable, CaseIterable {
    case letters = 1        // letter arrival times
    case xiva = 2           // drop decisions and XIVA latency of first sends
    case apns = 3           // network loss and APNs latency of first sends
    case connectivity = 4   // online / offline periods
    case device = 5         // per-device settings (display off)
    case extensionRun = 6   // processing time of the first send's extension run
    case user = 7           // when the user clears a notification
    case redelivery = 8     // fresh APNs latency when the offline store is flushed
    case requests = 9       // re-request latency, errors, re-send latency
    case resends = 10       // network loss, APNs latency and processing of re-sent copies
    case bursts = 11        // burst instants and the offsets of their letters (mail.bursts)
    case windows = 12       // per-device window offsets and lengths (windows with spread or length)
    case apnsStore = 13     // whether the older push stays in the store (apns.keep_older)
    case duplicates = 14    // second copies: the decision, their APNs latency and processing
    case appOpens = 15      // when the user opens the app (recovery: catch_up)
    case extensionKills = 16 // whether the system kills an extension run early (extension.early_kill)
    case deviceIdChanges = 17 // when the device id changes (device.id_change)
    case saveDelays = 18    // when a parallel extension run writes the saved position (extension.save_delay)
    case payloadSizes = 19  // each letter's payload size (mail.payload_size)
    case uninstalls = 20    // when the app is uninstalled (device.uninstall)
    case apnsAnswers = 21   // whether APNs answers 5xx or its answer is lost (apns.server_error, apns.answer_loss)
    case retries = 22       // retried pushes: backoff, network loss and APNs latency (xiva.retry)
    case priorities = 23    // whether a letter goes at priority 5 (apns.priority as a share)
    case sleep = 24         // the device's awake and asleep periods (device.sleep)
    case callKitReports = 25 // whether the app fails to report a VoIP push to CallKit (pushkit.report_failure)
    case fcmCollapseKeys = 26 // each letter's FCM collapse key (fcm.collapse_keys)
    case fcmStore = 27      // which collapse key FCM's store drops past four (fcm.collapse_keys > 4)
    case mediaLetters = 28  // which letters carry an attachment, and its size (extension.media)
    case mediaDownloads = 29 // per extension run: a cache hit, the bandwidth (extension.media)
    // 25–29 are the channels' purposes; this mechanism's start at 30.
    case reinstalls = 30    // when the app is reinstalled, and when XIVA learns its new token (device.reinstall)
    case binaryErrors = 40  // whether a written notification is malformed, its error's round trip (apns.interface: binary)
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
        x = mixed ^ (purpose.rawValue &* 0xD6E8_FEB8_6659_FD93)
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
