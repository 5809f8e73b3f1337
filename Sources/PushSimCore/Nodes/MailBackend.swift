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

    /// Takes the first `n` letters off: the rest are numbered from 0 (WorldSettlement.swift).
    mutating func removeFirst(_ n: Int) {
        letters.removeFirst(n)
        lacksFirstLetters = true
    }

    /// Gives every letter's memory back: a script to be drawn again (``drawOnDemand``) before
    /// it is read.
    mutating func removeAll() {
        letters = []
        replay = []
        replayNext = 0
        noteWhetherDrawing()
        lacksFirstLetters = true
    }

    /// Where the drawing stands, for a script drawn on demand (``drawOnDemand``): the streams,
    /// the Poisson clock and the next laid-out instant, exactly as the loop left them. The
    /// laws it draws with are the caller's (``LetterLaws``), not kept here.
    var cursor: LetterCursor? = nil
    /// Whether the script is drawn on demand (``drawOnDemand``), so that an arm may start it again.
    private(set) var onDemand = false
    /// Whether letters were taken off its front (``removeFirst(_:)``, ``removeAll()``): the
    /// script must be drawn again before an arm reads it from its first letter. The script's
    /// flags sit together after the cursor, never between two arrays (no padding).
    private(set) var lacksFirstLetters = false

    /// Draws the letters in [0, duration) of one device.
    mutating func generate(_ scenario: Scenario, device: Int) {
        letters.removeAll(keepingCapacity: true)
        lacksFirstLetters = false
        replay = []
        replayNext = 0
        cursor = nil
        noteWhetherDrawing()
        onDemand = false
        let laws = LetterLaws(scenario)
        guard var drawing = LetterCursor(scenario, laws, device: device, instants: &instants, burstScratch: &burstScratch) else { return }
        Self.draw(&drawing, laws, into: &letters, instants: instants, upTo: .max)
        if _slowPath(scenario.mail.payloadSize != nil || scenario.apns.lowPriorityShare > 0) { drawProviderKeys(scenario, device: device) }
    }

    /// Starts the script of one device empty, to be drawn on demand (``drawMore(_:)``): the
    /// letters come out exactly as ``generate(_:device:)`` draws them when every later
    /// ``drawMore(_:)`` is given `laws`, the scenario's (``LetterLaws``).
    mutating func drawOnDemand(_ scenario: Scenario, _ laws: LetterLaws, device: Int) {
        letters = []
        lacksFirstLetters = false
        replay = []
        replayNext = 0
        onDemand = true
        cursor = LetterCursor(scenario, laws, device: device, instants: &instants, burstScratch: &burstScratch)
        noteWhetherDrawing()
        drawMore(laws)
    }

    /// Whether letters remain to be drawn on demand (or handed out from `replay`).
    /// Kept as it changes rather than computed: a world asks each time it reaches the last
    /// letter drawn so far, and the answer must not copy the cursor or read the kept script's
    /// buffer, memory long out of the caches (docs/performance.md).
    private(set) var isDrawing = false

    private mutating func noteWhetherDrawing() {
        if case .none = cursor { isDrawing = !replay.isEmpty } else { isDrawing = true }
    }

    /// A script drawn whole, handed out again a few letters at a time (``replayOnDemand()``),
    /// from `replayNext` on.
    private var replay: [LetterDraws] = []
    private var replayNext = 0

    /// Hands the whole script out again from its first letter, a few at a time as
    /// ``drawMore(_:)`` asks, as if it were drawn on demand: the same letters, none of them
    /// drawn twice.
    mutating func replayOnDemand() {
        replay = letters
        replayNext = 0
        noteWhetherDrawing()
        letters = []
        onDemand = true
        handOutMore()
    }

    /// Fetches the headers of the arrays a world reads its next letters from into the caches
    /// (WorldPrefetch.swift), a step before ``fetchNextLetters(from:)`` reads their counts.
    func fetchHeaders() {
        letters.prefetchHeader()
        replay.prefetchHeader()
    }

    /// Fetches the letters a world reads next into the caches (WorldPrefetch.swift): those
    /// handed out from letter `next` on (where the world stands: the first of a world that
    /// settles its letters, further on in a script kept whole), and while a kept script is
    /// handed out again, the next letters to hand out.
    func fetchNextLetters(from next: Int) {
        letters.prefetchElements(from: next, bytes: HotMemory.bytesPerArray)
        guard replayNext < replay.count else { return }
        replay.prefetchElements(from: replayNext, bytes: LetterCursor.lettersPerDraw * MemoryLayout<LetterDraws>.stride)
    }

    /// The next few letters of `replay`; it is given back once every letter is out.
    private mutating func handOutMore() {
        let next = Swift.min(replay.count, replayNext + LetterCursor.lettersPerDraw)
        letters.append(contentsOf: replay[replayNext..<next])
        replayNext = next
        if replayNext == replay.count {
            replay = []
            replayNext = 0
            noteWhetherDrawing()
        }
    }

    /// Draws the next few letters of a script drawn on demand; none once it is whole.
    mutating func drawMore(_ laws: LetterLaws) {
        if _slowPath(!replay.isEmpty) { handOutMore(); return }
        guard cursor != nil else { return }
        // In place: the cursor (streams and clock) is not copied out and back.
        let limit = letters.count + LetterCursor.lettersPerDraw
        // Room half as much again at a time, as the world's other arrays (GrowableStorage.reserve):
        // the array's own doubling left up to half of every coupled world's script unused.
        if letters.capacity < limit {
            letters.reserveCapacity(Swift.max(limit, letters.capacity + letters.capacity / 2))
        }
        Self.draw(&cursor!, laws, into: &letters, instants: instants, upTo: limit)
        if cursor!.exhausted {
            cursor = nil
            noteWhetherDrawing()
            instants = []
        }
    }

    /// Draws every letter still to come of a script drawn on demand, at once: for an arm that
    /// runs its world alone to the end, which reads them all (WorldRoom.swift). The same
    /// letters as drawing them a few at a time.
    mutating func drawRest(_ laws: LetterLaws) {
        guard replay.isEmpty, var drawing = cursor else { return }
        cursor = nil
        noteWhetherDrawing()
        Self.draw(&drawing, laws, into: &letters, instants: instants, upTo: .max)
        instants = []
    }

    /// Draws letters in order until there are `limit` of them or the duration is over.
    /// Takes no scenario: what it needs is in the cursor and the laws, so a world drawing on
    /// demand copies nothing of its scenario.
    private static func draw(_ drawing: inout LetterCursor, _ laws: LetterLaws, into letters: inout [LetterDraws],
                             instants: [Int64], upTo limit: Int) {
        let xivaLatency = laws.xivaLatency, apnsLatency = laws.apnsLatency, processing = laws.processing
        let drop = laws.drop, loss = laws.loss
        let duration = laws.duration
        let horizon = Double(duration)
        let meanGap = laws.meanGap
        let exponential = laws.exponential
        let laidOut = laws.laidOut
        var clock = drawing.clock
        var next = Int(drawing.next)
        var arrivals = drawing.arrivals, xiva = drawing.xiva, apns = drawing.apns, ext = drawing.ext
        defer {
            drawing.clock = clock
            drawing.next = Int32(next)
            drawing.arrivals = arrivals; drawing.xiva = xiva; drawing.apns = apns; drawing.ext = ext
        }
        while letters.count < limit {
            let instant: Int64
            if laidOut {
                guard next < instants.count else { drawing.exhausted = true; break }
                instant = instants[next]
                next += 1
            } else {
                // Exact real-valued Poisson arrivals; only the instant reported is rounded.
                clock += meanGap * arrivals.nextExponential(exponential)
                instant = SimTime.rounding(clock).microseconds
                if !(clock < horizon) || instant >= duration { drawing.exhausted = true; break }
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

/// What the drawing of a device's letters reads and never changes: the samplers of the
/// first-send draws and the traffic's constants, the same for every device of a scenario.
/// Apart from ``LetterCursor``: a world drawing on demand reads them from its part's shared
/// ``ChainParameters`` instead of holding them.
struct LetterLaws {
    /// Version 2's traffic (profile, bursts, trace): instants laid out first, not drawn.
    let laidOut: Bool
    /// The samplers of the first-send draws, made once rather than per few letters.
    let xivaLatency: DistributionSampler
    let apnsLatency: DistributionSampler
    let processing: DistributionSampler
    let exponential = ZigguratTable.exponential
    let drop: Double
    let loss: Double
    let duration: Int64
    let meanGap: Double

    init(_ scenario: Scenario) {
        let mail = scenario.mail
        laidOut = mail.trace != nil || mail.dailyProfile != nil || mail.bursts != nil
        xivaLatency = scenario.xiva.latency.sampler
        apnsLatency = scenario.apns.latency.sampler
        processing = scenario.extension.processing.sampler
        drop = scenario.xiva.drop
        loss = scenario.apns.loss
        duration = scenario.duration.microseconds
        meanGap = 1 / mail.ratePerMicrosecond
    }
}

/// Where the drawing of one device's letters stands: its four streams, the Poisson clock (or the
/// next laid-out instant), and whether the duration is over.
package struct LetterCursor {
    /// How many letters a script drawn on demand draws at a time: a settling world settles when
    /// it reaches the last letter drawn (WorldSettlement.swift), so its arrays hold that letter
    /// and four more while it is online (the trade of memory against draws is measured in
    /// docs/performance.md, Fewer letters held).
    package static let lettersPerDraw = 4

    var arrivals: RandomStream
    var xiva: RandomStream
    var apns: RandomStream
    var ext: RandomStream
    var clock = 0.0
    /// The next laid-out instant, in 32 bits as the agenda's letter index (a letter's index
    /// already fits one there), so the script's flags fill the cursor's tail.
    var next: Int32 = 0
    var exhausted = false

    /// The cursor before the first letter; nil when the device gets no letter at all. Lays out
    /// version 2's instants (profile, bursts, trace) into `instants` first.
    init?(_ scenario: Scenario, _ laws: LetterLaws, device: Int, instants: inout [Int64], burstScratch: inout [BurstLetter]) {
        // Version 2's traffic (profile, bursts, trace) is laid out first; the Poisson letters
        // of version 1 are drawn as the loop goes. Either way the first-send draws follow in
        // letter order from the same streams.
        if laws.laidOut {
            MailTraffic.instants(scenario, device: device, into: &instants, scratch: &burstScratch)
        } else if !(scenario.mail.ratePerMicrosecond > 0) {
            return nil
        }
        arrivals = RandomStream(seed: scenario.seed, device: device, purpose: .letters)
        xiva = RandomStream(seed: scenario.seed, device: device, purpose: .xiva)
        apns = RandomStream(seed: scenario.seed, device: device, purpose: .apns)
        ext = RandomStream(seed: scenario.seed, device: device, purpose: .extensionRun)
    }
}
