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
    init(frozen identity: UInt64) { self.identity = identity }

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
    package static let uninstalls = StreamPurpose(frozen: 20)      // when the app is uninstalled (device.uninstall)
    package static let priorities = StreamPurpose(frozen: 23)      // whether a letter goes at priority 5 (apns.priority as a share)
    package static let appRequests = StreamPurpose(named: "appRequests") // per arm: a version-2 client's app's re-requests: latency, error, re-send latency

    /// Every purpose by its name: the chain's below, each mechanism's in the registry
    /// (``mechanismPurposes``, declared in its folder). A purpose added with `init(named:)` joins
    /// one of these lists under the same name; the uniqueness test reads them.
    package static let registry: [(name: String, purpose: StreamPurpose)] = chainPurposes + mechanismPurposes
    static let chainPurposes: [(name: String, purpose: StreamPurpose)] = [
        ("letters", letters), ("xiva", xiva), ("apns", apns), ("connectivity", connectivity),
        ("device", device), ("extensionRun", extensionRun), ("user", user), ("redelivery", redelivery),
        ("requests", requests), ("resends", resends), ("bursts", bursts), ("windows", windows),
        ("apnsStore", apnsStore), ("duplicates", duplicates), ("uninstalls", uninstalls),
        ("priorities", priorities), ("appRequests", appRequests),
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
