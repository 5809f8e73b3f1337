// The random streams an arm draws from while it runs, owned together so an arm starts with one assignment.

/// The per-device streams of one arm (docs/determinism.md): each purpose its own, so a draw
/// for one never moves another. The streams of a key that is not set are not even seeded (a
/// mechanism that is off costs nothing), and are never drawn from.
///
/// The chain's own four streams are held here; the mechanisms' (the registry's) are held out of line
/// (``MechanismStreamValues``), only while a mechanism that draws from one is on.
struct ArmStreams: ~Copyable {
    /// When the user clears a notification.
    var user = RandomStream(seed: 0)
    /// The latency of a stored push sent when its device comes back online.
    var redelivery = RandomStream(seed: 0)
    /// Re-requests: their latency, their errors, the re-sends' latency.
    var requests = RandomStream(seed: 0)
    /// Re-sent copies: loss and latency at APNs, the extension's processing.
    var resends = RandomStream(seed: 0)
    /// The mechanisms' streams; none while none is seeded (they then read as unseeded).
    private var mechanismValues = OutOfLine<MechanismStreamValues>()

    init() {}

    /// Seeds the streams of one arm of a device afresh: the chain's four, and of the
    /// mechanisms' those in `streams` (the others stay unseeded: a stream nobody draws from
    /// costs nothing and moves nothing). The mechanisms' streams reuse this world's block from
    /// arm to arm; with none to seed, the block is given back.
    mutating func seed(_ seed: UInt64, device: Int, streams: MechanismStreamSet) {
        user = RandomStream(seed: seed, device: device, purpose: .user)
        redelivery = RandomStream(seed: seed, device: device, purpose: .redelivery)
        requests = RandomStream(seed: seed, device: device, purpose: .requests)
        resends = RandomStream(seed: seed, device: device, purpose: .resends)
        guard !streams.isEmpty else {
            mechanismValues.release()
            return
        }
        mechanismValues[orFresh: unseededMechanismStreams] = MechanismStreamValues(seed: seed, device: device, streams: streams)
    }

    /// Whether the mechanisms' streams are held (some mechanism that draws is on).
    var holdsMechanismStreams: Bool { mechanismValues.exists }

    /// The mechanisms' streams (`armState.streams.mechanismStreams.kills`), drawn from in place.
    /// A stream nobody seeded is never drawn from, but if it were, it would draw what an
    /// unseeded stream draws.
    var mechanismStreams: MechanismStreamValues {
        @inline(__always) _read { yield mechanismValues[orFresh: unseededMechanismStreams] }
        @inline(__always) _modify { yield &mechanismValues[orFresh: unseededMechanismStreams] }
    }
}

/// Unseeded mechanism streams, read by every arm that seeded none.
private let unseededMechanismStreams = Immortal<MechanismStreamValues>(MechanismStreamValues())
