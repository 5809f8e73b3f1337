// XIVA's load over time: what the chain did, counted bin by bin of simulated time (docs/model.md §14).

/// The quantities a load series counts, each at the instant it happens in the model
/// (docs/model.md §14, Load over time). The raw value is the quantity's column in a bin.
package enum LoadQuantity: Int, CaseIterable, Sendable {
    /// A letter reaches XIVA from the mail backend (whatever XIVA then does with it).
    case lettersIn
    /// XIVA sends a push to APNs (or FCM): a first copy when XIVA sends it (an outage's end
    /// for a held letter), a re-sent copy when XIVA answers the re-request, a provider retry.
    case pushesSent
    /// An extension's re-request reaches XIVA: the instant it is sent (the model's request
    /// latency is the whole round trip; the shared queue takes a request in at that instant).
    case reRequests
    /// XIVA re-sends a retained push in answer to a re-request.
    case resent
    /// A summary is shown on the device (a gap's summary, a catch-up's, FCM's re-sync).
    case summaries

    /// Its name in the JSON, the CSV and partial results.
    package var key: String {
        switch self {
        case .lettersIn: "letters_in"
        case .pushesSent: "pushes_sent"
        case .reRequests: "re_requests"
        case .resent: "resent"
        case .summaries: "summaries"
        }
    }

    /// Its row in the report table.
    package var label: String {
        switch self {
        case .lettersIn: "letters in"
        case .pushesSent: "pushes sent to APNs"
        case .reRequests: "re-requests at XIVA"
        case .resent: "re-sent pushes"
        case .summaries: "summaries shown"
        }
    }
}

/// Counts per bin of simulated time for every ``LoadQuantity``: bin `b` holds what happened in
/// [b·width, (b+1)·width). Counts of disjoint sets of devices add up bin by bin (`merge`), so
/// threads, chunks and shards give the one run's series exactly. The bin width is the run's
/// (`Scenario.loadBin`); the series stores no width of its own.
package struct LoadSeries: Equatable, Sendable {
    /// Bin-major: the count of quantity q in bin b is at `b * quantityCount + q`.
    package private(set) var counts: [Int] = []
    package static let quantityCount = LoadQuantity.allCases.count

    package init() {}

    /// How many bins hold a count (the last bins with nothing are not stored).
    package var bins: Int { counts.count / LoadSeries.quantityCount }
    package var isEmpty: Bool { counts.isEmpty }

    package func count(bin: Int, _ q: LoadQuantity) -> Int {
        let i = bin * LoadSeries.quantityCount + q.rawValue
        return bin >= 0 && i < counts.count ? counts[i] : 0
    }

    /// Adds `n` to quantity q of bin `bin` (≥ 0), growing the series as needed.
    package mutating func add(_ n: Int, bin: Int, _ q: LoadQuantity) {
        guard bin >= 0, n != 0 else { return }
        grow(toBins: bin + 1)
        counts[bin * LoadSeries.quantityCount + q.rawValue] += n
    }

    /// Grows geometrically: devices reach later bins one after another, and growing to each
    /// exactly would copy the whole series every time (a quadratic cost).
    private mutating func grow(toBins bins: Int) {
        let needed = bins * LoadSeries.quantityCount
        guard counts.count < needed else { return }
        if counts.capacity < needed { counts.reserveCapacity(max(needed, 2 * counts.capacity)) }
        counts.append(contentsOf: repeatElement(0, count: needed - counts.count))
    }

    /// The series of `other`'s devices added to this one's, bin by bin. The sum wraps rather
    /// than traps: no run counts near `Int.max` in a bin, and partial results are checked for
    /// overflow before they merge (`PartialMerge.adding`).
    package mutating func merge(_ other: LoadSeries) {
        guard !other.counts.isEmpty else { return }
        guard !counts.isEmpty else { self = other; return }
        grow(toBins: other.bins)
        var mine = counts.mutableSpan
        let theirs = other.counts.span
        for i in theirs.indices { mine[i] &+= theirs[i] }
    }

    /// The count of quantity q in every bin, in bin order (zeros included).
    package func values(_ q: LoadQuantity) -> [Int] {
        stride(from: q.rawValue, to: counts.count, by: LoadSeries.quantityCount).map { counts[$0] }
    }

    /// The whole run's count of quantity q.
    package func total(_ q: LoadQuantity) -> Int { values(q).reduce(0, +) }

    /// Equal when every bin holds the same counts: a series grown to the run's end and one
    /// read back from a partial result (which stores no empty bins) are the same series.
    package static func == (a: LoadSeries, b: LoadSeries) -> Bool {
        let common = min(a.counts.count, b.counts.count)
        return a.counts[..<common] == b.counts[..<common]
            && a.counts[common...].allSatisfy { $0 == 0 } && b.counts[common...].allSatisfy { $0 == 0 }
    }

    /// Grows the series to `bins` bins at least and hands its counts to `body`.
    /// The test inline: a settling world adds to its part's series every few letters, and the
    /// series seldom needs to grow.
    @inline(__always) mutating func withCounts(bins: Int, _ body: (inout MutableSpan<Int>) -> Void) {
        if counts.count < bins * LoadSeries.quantityCount { grow(toBins: bins) }
        var span = counts.mutableSpan
        body(&span)
    }
}

/// What one world noted for the load series during an arm, as (time, entry) words, folded
/// into its ledger's ``LoadSeries`` when the arm ends (``DeviceWorld/foldLoad(into:)``). The
/// hot path only appends a word (no division, no copy-on-write check), and only for what the
/// letters' states do not tell: a numbered letter's arrival and first send are read from its
/// position at the end, so most letters note nothing. A value holding its array, not an object
/// of its own: no extra object in every world of a shared partition.
struct LoadLog: ~Copyable {
    /// A word's low bits: a quantity, or one of two entries that stand for two.
    enum Entry: Int64 {
        case lettersIn = 0, pushesSent, reRequests, resent, summaries
        /// A re-sent push: one re-send and one push sent to APNs.
        case resentAndSent
        /// A numbered letter XIVA held in an outage: not sent on arrival (its send at the
        /// outage's end is noted apart), taken off the arrival's bin.
        case notSentOnArrival
    }

    static let entryBits: Int64 = 3
    static let entryMask: Int64 = 7
    var entries = OwnedArray<Int64>(capacity: 64)

    /// The entry happened at `time` (µs, ≥ 0: shifted left by 3 bits, a run of 36 000 years fits).
    @inline(__always) mutating func note(_ entry: Entry, at time: Int64) {
        entries.append(time &<< LoadLog.entryBits | entry.rawValue)
    }

    mutating func removeAll() { entries.removeAll() }
}

extension DeviceWorld {
    /// Adds this arm's load to `series` and empties the log: every counted letter XIVA numbered
    /// arrived and was sent in the bin of its time (`xivaReceives`), then the log's entries.
    /// The series grows to the latest bin this arm reached, by at least doubling its capacity:
    /// a driver's ledger keeps it, so later devices rarely grow it (growing to each device's
    /// latest entry exactly would copy the series time after time).
    mutating func foldLoad(into series: inout LoadSeries) {
        if _slowPath(clock.horizon < parameters.runEnd) { noteLettersAfterUninstall() }
        foldLoad(letters: armState.firstCounted..<draws.letters.count, into: &series)
    }

    /// On an uninstalled device (docs/model.md §9, §14) the letters written once its world
    /// stopped (the uninstall, or XIVA reading the feedback list over the binary interface)
    /// still reach XIVA, which drops them or writes to the dead token: each counts in
    /// `letters_in` at its time, and the first one XIVA sends on HTTP/2, the push APNs answers
    /// 410, in `pushes_sent`, as the console counts it.
    @inline(never) mutating func noteLettersAfterUninstall() {
        let first = firstLetter(atOrAfter: clock.horizon)
        for i in first..<draws.letters.count { noteLoad(.lettersIn, letter: i, at: draws.letters[i].time) }
        if parameters.channel == .apns && !parameters.binary && pushAnsweredUnregisteredIsCounted() {
            var i = first
            while draws.letters[i].dropped { i += 1 }
            noteLoad(.pushesSent, letter: i, at: draws.letters[i].time)
        }
    }

    /// ``foldLoad(into:)`` for the counted letters `letters` and
    /// the log's entries so far: at the end of an arm, or when a world of a shared partition
    /// settles letters in flight (WorldSettlement.swift).
    @inline(__always) mutating func foldLoad(letters: Range<Int>, into series: inout LoadSeries) {
        let width = parameters.loadBinWidth
        let entries = loadLog.entries.count
        guard width > 0, !letters.isEmpty || entries > 0 else { loadLog.removeAll(); return }
        // The bins to hold: up to the latest letter's (letters are in time order) or entry's.
        // Not the run's end: a run as long as the clock's range would ask for terabytes of bins
        // its letters never reach; the series grows geometrically, so later devices rarely grow it.
        var bins = 0
        if !letters.isEmpty { bins = Int(draws.letters[letters.upperBound - 1].time / width) + 1 }
        for i in 0..<entries { bins = max(bins, Int((loadLog.entries[i] >> LoadLog.entryBits) / width) + 1) }
        let stride = LoadSeries.quantityCount
        series.withCounts(bins: bins) { counts in
            for i in letters where letterStates[i].position > 0 {
                let slot = Int(draws.letters[i].time / width) &* stride
                counts[slot &+ LoadQuantity.lettersIn.rawValue] &+= 1
                counts[slot &+ LoadQuantity.pushesSent.rawValue] &+= 1
            }
            for i in 0..<entries {
                let word = loadLog.entries[i]
                let slot = Int((word >> LoadLog.entryBits) / width) &* stride
                switch LoadLog.Entry(rawValue: word & LoadLog.entryMask) {
                case .resentAndSent:
                    counts[slot &+ LoadQuantity.resent.rawValue] &+= 1
                    counts[slot &+ LoadQuantity.pushesSent.rawValue] &+= 1
                case .notSentOnArrival:
                    counts[slot &+ LoadQuantity.pushesSent.rawValue] &-= 1
                case let entry?:
                    counts[slot &+ Int(entry.rawValue)] &+= 1
                case nil:
                    break
                }
            }
        }
        loadLog.removeAll()
    }
}

/// The frame a run's load series is read in: the bin width, the measured window
/// [warm-up, duration) over which means and percentiles are taken, and the run's end.
package struct LoadFrame: Equatable, Sendable {
    package var bin: Int64
    package var warmup: Int64
    package var duration: Int64
    package var end: Int64
    /// The fleet the report scales to (`--fleet`); how it is shown only, never in partial results.
    package var fleet: Int? = nil

    package init(bin: Int64 = 60 * SimTime.second, warmup: Int64 = 0, duration: Int64 = 0, end: Int64 = 0) {
        self.bin = max(1, bin); self.warmup = warmup; self.duration = duration; self.end = end
    }

    package init(_ scenario: Scenario) {
        self.init(bin: scenario.loadBin.microseconds, warmup: scenario.warmup.microseconds,
                  duration: scenario.duration.microseconds, end: scenario.end.microseconds)
    }

    /// The bins wholly inside the measured window (at least one, when the window is shorter than a bin).
    package var measuredBins: Range<Int> {
        let first = SimTime.binCount(span: warmup, bin: bin)
        let last = Int(duration / bin)
        return last > first ? first..<last : Int(warmup / bin)..<(Int(warmup / bin) + 1)
    }

    /// Every bin of the run, up to the one holding its end.
    package var runBins: Int { SimTime.binCount(span: end, bin: bin) }
}
