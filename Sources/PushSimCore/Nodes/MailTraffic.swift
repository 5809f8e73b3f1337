// Version 2's letter instants for one device: the daily profile, bursts, or a replayed trace.

/// A burst letter before sorting: its instant and its place in the draw order.
struct BurstLetter {
    var time: Int64
    var order: Int
}

/// The hourly weights of `mail.daily_profile` as a cumulative intensity over one day, so that
/// unit-rate arrival times map to profile times through its inverse (docs/model.md §5, Time of day).
struct DailyProfile {
    /// `factor[h] = w[h] / mean(w)`: the intensity of hour h relative to `rate`.
    let factor: [Double]
    /// `cumulative[h]`: the unit-rate time (µs) the day has accumulated at the start of hour h.
    let cumulative: [Double]
    static let hour = Double(SimTime.hour), day = Double(SimTime.day)

    init(weights: [Double]) {
        var weights = weights
        var mean = weights.reduce(0, +) / Double(max(1, weights.count))
        // Weights so small that their mean underflows (`[5e-324, 0, …]`) still say where the
        // mail goes: only their ratios matter, so they are scaled to a largest weight of 1
        // first. Ordinary weights keep the plain quotient, bit for bit.
        if !mean.isNormal, let top = weights.max(), top > 0 {
            weights = weights.map { $0 / top }
            mean = weights.reduce(0, +) / Double(max(1, weights.count))
        }
        factor = weights.map { mean > 0 ? $0 / mean : 1 }
        var sums = [0.0]
        for f in factor { sums.append(sums[sums.count - 1] + f * DailyProfile.hour) }
        cumulative = sums
    }

    /// The instant whose cumulative intensity is `u`: Λ⁻¹(u) for Λ(t) = ∫₀ᵗ w[h(s)]/mean(w) ds.
    /// Λ grows by exactly one day per day, so whole days map to whole days.
    func time(at u: Double) -> Double {
        let days = (u / DailyProfile.day).rounded(.down)
        let rest = u - days * DailyProfile.day
        // The hour in which the day's cumulative intensity passes `rest`; an hour of weight 0
        // has no width and is never chosen. Rounding past the last hour lands at its end.
        var h = 0
        while h < factor.count - 1 && (factor[h] <= 0 || cumulative[h + 1] <= rest) { h += 1 }
        while factor[h] <= 0 && h > 0 { h -= 1 }
        return days * DailyProfile.day + Double(h) * DailyProfile.hour + (rest - cumulative[h]) / factor[h]
    }
}

enum MailTraffic {
    /// Device d's letter instants in letter order: replayed from the trace, or the regular
    /// Poisson letters (through the profile when given) merged with the burst letters, regular
    /// letters first at equal instants (docs/model.md §5, Bursts).
    static func instants(_ scenario: Scenario, device: Int, into instants: inout [Int64],
                         scratch burst: inout [BurstLetter]) {
        instants.removeAll(keepingCapacity: true)
        burst.removeAll(keepingCapacity: true)
        let mail = scenario.mail
        if let trace = mail.trace {
            instants.append(contentsOf: trace.letters(device: device))
            return
        }
        let duration = scenario.duration.microseconds
        let horizon = Double(duration)
        let exponential = ZigguratTable.exponential
        if mail.ratePerMicrosecond > 0 {
            // The same unit-rate draws as without a profile, mapped through the inverse
            // cumulative intensity (equal weights: the same instants, up to rounding).
            var arrivals = RandomStream(seed: scenario.seed, device: device, purpose: .letters)
            let profile = mail.dailyProfile.flatMap { $0.isEmpty ? nil : DailyProfile(weights: $0) }
            let meanGap = 1 / mail.ratePerMicrosecond
            var clock = 0.0
            while true {
                clock += meanGap * arrivals.nextExponential(exponential)
                let t = profile?.time(at: clock) ?? clock
                let instant = SimTime.rounding(t).microseconds
                if !(t < horizon) || instant >= duration { break }
                instants.append(instant)
            }
        }
        guard let bursts = mail.bursts, bursts.ratePerMicrosecond > 0, bursts.size > 0 else { return }
        var rng = RandomStream(seed: scenario.seed, device: device, purpose: .bursts)
        let meanGap = 1 / bursts.ratePerMicrosecond
        let spread = Double(bursts.spread.microseconds)
        var b = 0.0
        while true {
            b += meanGap * rng.nextExponential(exponential)
            if !(b < horizon) { break }
            for _ in 0..<bursts.size {
                let t = spread > 0 ? b + rng.nextUnit() * spread : b
                let instant = SimTime.rounding(t).microseconds
                if t < horizon && instant < duration { burst.append(BurstLetter(time: instant, order: burst.count)) }
            }
        }
        guard !burst.isEmpty else { return }
        burst.sort { $0.time != $1.time ? $0.time < $1.time : $0.order < $1.order }
        // Merge: at equal instants the regular letters come first.
        let regular = instants
        instants.removeAll(keepingCapacity: true)
        instants.reserveCapacity(regular.count + burst.count)
        var i = 0
        for letter in burst {
            while i < regular.count && regular[i] <= letter.time { instants.append(regular[i]); i += 1 }
            instants.append(letter.time)
        }
        instants.append(contentsOf: regular[i...])
    }
}
