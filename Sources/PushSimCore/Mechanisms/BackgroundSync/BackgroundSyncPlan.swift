// The system's side of background pushes as a pure function: the throttle and the force-quit state decide which pushes wake the app.

/// Which background pushes wake the app (docs/model.md §7, Background-push sync), worked out
/// from the instants they reach the phone and the instants the user launches the app. Pure, so
/// each rule is tested with a known answer on its own.
enum BackgroundSyncPlan {
    /// What became of the background pushes that reached the phone. Each count is of pushes
    /// (or, for `wakes`, of wake-ups) at or after the counting start.
    struct Counts: Equatable {
        /// Wake-ups of the app by a background push.
        var wakes = 0
        /// Pushes the throttle held (a held one that a newer one replaced counts too).
        var held = 0
        /// Pushes the throttle discarded (`over_throttle: drop`).
        var dropped = 0
        /// Pushes the system did not deliver because the user had force-quit the app.
        var forceQuit = 0
    }

    /// Appends to `wakes` the instants the app is woken, in order, and counts what happened.
    ///
    /// - `arrivals`: when background pushes reach the phone, ascending.
    /// - `launches`: when the user launches the app, ascending; `quitAfter[k]` says whether the
    ///   user force-quits it when leaving it after launch k; `quitAtStart` whether it is
    ///   force-quit at time 0.
    /// - At one instant a held push's release comes first, then a launch, then an arrival.
    /// - A push reaching a force-quit app is not delivered (a held push released then neither).
    ///   Otherwise the app wakes if the last wake-up is at least `spacing` ago; if not, `hold`
    ///   keeps the push (one at most: a newer one replaces it) until `last + spacing`, `drop`
    ///   discards it. Launches do not use the throttle's budget.
    /// - Nothing at or after `end` happens.
    static func wakes(arrivals: [Int64], launches: [Int64], quitAtStart: Bool, quitAfter: [Bool], spacing: Int64,
                      overThrottle: BackgroundSync.OverThrottle, end: Int64, countFrom: Int64, into wakes: inout [Int64]) -> Counts {
        var counts = Counts()
        var quit = quitAtStart
        var throttle = BackgroundThrottle(spacing: spacing, overThrottle: overThrottle)
        var a = 0, l = 0
        func count(_ t: Int64) -> Int { t >= countFrom ? 1 : 0 }
        func wake(at t: Int64) {
            wakes.append(t)
            counts.wakes += count(t)
            throttle.wake(at: t)
        }
        while true {
            let arrival = a < arrivals.count ? arrivals[a] : Int64.max
            let launch = l < launches.count ? launches[l] : Int64.max
            let held = throttle.release ?? Int64.max
            let now = min(arrival, launch, held)
            guard now < end else { break }
            if held == now {
                throttle.takeRelease()
                if quit { counts.forceQuit += count(now) } else { wake(at: now) }
            } else if launch == now {
                quit = l < quitAfter.count && quitAfter[l]
                l += 1
            } else {
                a += 1
                if quit {
                    counts.forceQuit += count(now)
                    continue
                }
                switch throttle.arrives(at: now) {
                case .wakes:
                    wakes.append(now)
                    counts.wakes += count(now)
                case .held: counts.held += count(now)
                case .dropped: counts.dropped += count(now)
                }
            }
        }
        return counts
    }
}

/// The system's budget for background pushes (docs/model.md §7, Background-push sync, rule 3):
/// at most one wake-up per `spacing`; a push sooner than that is held (one at a time, released
/// at the next instant allowed) or dropped. One state, stepped by background-push sync's plan
/// and by the queue design's background pushes (Nodes/StatefulClientBackground.swift) alike.
struct BackgroundThrottle {
    let spacing: Int64
    let overThrottle: BackgroundSync.OverThrottle
    /// The first instant the next wake-up is allowed.
    private(set) var nextAllowed = Int64.min
    /// When the push held is released; nil while none is held.
    private(set) var release: Int64? = nil

    init(spacing: Int64, overThrottle: BackgroundSync.OverThrottle) {
        self.spacing = spacing; self.overThrottle = overThrottle
    }

    enum Fate: Equatable { case wakes, held, dropped }

    /// A background push reaches the phone at `t` (the app not force-quit): it wakes the app
    /// (and the next spacing runs from `t`), or the throttle holds or drops it.
    mutating func arrives(at t: Int64) -> Fate {
        if t >= nextAllowed {
            wake(at: t)
            return .wakes
        }
        guard overThrottle == .hold else { return .dropped }
        if release == nil { release = nextAllowed }
        return .held
    }

    /// The app wakes at `t` (a held push released, or a push let through): the next spacing runs from it.
    mutating func wake(at t: Int64) { nextAllowed = SimTime.saturatingSum(t, spacing) }

    /// The held push is released (and taken out).
    mutating func takeRelease() { release = nil }
}
