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
    static let quantityCount = LoadQuantity.allCases.count

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

    private mutating func grow(toBins bins: Int) {
        let needed = bins * LoadSeries.quantityCount
        if counts.count < needed { counts.append(contentsOf: repeatElement(0, count: needed - counts.count)) }
    }

    /// The series of `other`'s devices added to this one's, bin by bin. The sum wraps rather
    /// than traps: no run counts near `Int.max` in a bin, and partial results are checked for
    /// overflow before they merge (`PartialMerge.adding`).
    package mutating func merge(_ other: LoadSeries) {
        guard !other.counts.isEmpty else { return }
        guard !counts.isEmpty else { self = other; return }
        grow(toBins: other.bins)
        other.counts.withUnsafeBufferPointer { theirs in
            counts.withUnsafeMutableBufferPointer { mine in
                guard let m = mine.baseAddress, let t = theirs.baseAddress, mine.count >= theirs.count else { return }
                for i in 0..<theirs.count { m[i] &+= t[i] }
            }
        }
    }

    /// The count of quantity q in every bin, in bin order (zeros included).
    package func values(_ q: LoadQuantity) -> [Int] {
        stride(from: q.rawValue, to: counts.count, by: LoadSeries.quantityCount).map { counts[$0] }
    }

    /// The whole run's count of quantity q.
    package func total(_ q: LoadQuantity) -> Int { values(q).reduce(0, +) }

    /// The entries a world logged during one arm (``LoadLog``), binned by `width` µs: one pass,
    /// growing the series only when an entry falls past its last bin.
    mutating func fold(_ log: LoadLog, binWidth width: Int64) {
        let n = log.entries.count
        guard n > 0, width > 0 else { return }
        var i = 0
        while i < n {
            let bound = counts.count
            let grownTo: Int? = counts.withUnsafeMutableBufferPointer { counts -> Int? in
                while i < n {
                    let entry = log.entries[i]
                    let slot = Int((entry >> LoadLog.quantityBits) / width) &* LoadSeries.quantityCount &+ Int(entry & LoadLog.quantityMask)
                    guard slot < bound else { return slot / LoadSeries.quantityCount + 1 }
                    counts[slot] &+= 1
                    i += 1
                }
                return nil
            }
            if let bins = grownTo { grow(toBins: bins) }
        }
    }
}

/// What one world noted for the load series during an arm, as (time, quantity) words, folded
/// into its ledger's ``LoadSeries`` when the arm ends. The hot path only appends a word (no
/// division, no copy-on-write check); the binning is done once per arm, and a world of a
/// coupled partition carries a log of its own events, not a series as long as the run.
final class LoadLog {
    static let quantityBits: Int64 = 3
    static let quantityMask: Int64 = 7
    let entries = OwnedArray<Int64>(capacity: 64)

    /// Quantity q happened at `time` (µs, ≥ 0: shifted left by 3 bits, a run of 36 000 years fits).
    @inline(__always) func note(_ q: LoadQuantity, at time: Int64) {
        entries.append(time &<< LoadLog.quantityBits | Int64(q.rawValue))
    }

    func removeAll() { entries.removeAll() }
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
        let first = Int((warmup + bin - 1) / bin)
        let last = Int(duration / bin)
        return last > first ? first..<last : Int(warmup / bin)..<(Int(warmup / bin) + 1)
    }

    /// Every bin of the run, up to the one holding its end.
    package var runBins: Int { Int((end + bin - 1) / bin) }
}
