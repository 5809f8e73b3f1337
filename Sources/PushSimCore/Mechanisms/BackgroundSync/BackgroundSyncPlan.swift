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
        var nextAllowed = Int64.min
        var release: Int64? = nil
        var a = 0, l = 0
        func count(_ t: Int64) -> Int { t >= countFrom ? 1 : 0 }
        func wake(at t: Int64) {
            wakes.append(t)
            counts.wakes += count(t)
            nextAllowed = SimTime.saturatingSum(t, spacing)
        }
        while true {
            let arrival = a < arrivals.count ? arrivals[a] : Int64.max
            let launch = l < launches.count ? launches[l] : Int64.max
            let held = release ?? Int64.max
            let now = min(arrival, launch, held)
            guard now < end else { break }
            if held == now {
                release = nil
                if quit { counts.forceQuit += count(now) } else { wake(at: now) }
            } else if launch == now {
                quit = l < quitAfter.count && quitAfter[l]
                l += 1
            } else {
                a += 1
                if quit {
                    counts.forceQuit += count(now)
                } else if now >= nextAllowed {
                    wake(at: now)
                } else if overThrottle == .hold {
                    counts.held += count(now)
                    if release == nil { release = nextAllowed }
                } else {
                    counts.dropped += count(now)
                }
            }
        }
        return counts
    }
}
