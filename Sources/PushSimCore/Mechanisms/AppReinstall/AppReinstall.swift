// App reinstalls (device.reinstall): a new token with its own numbering, a delay before XIVA learns it, the saved position gone.

/// The reinstalls of one device in one arm (docs/model.md §8, App reinstall). XIVA numbers each
/// token from 1; the world keeps one run-wide position per letter, so a token's numbering is
/// the run-wide positions from the token's first one on (`firstPositions`): gap checks never mix
/// two installs, so only differences of positions reach a result and the offset changes nothing.
/// When a letter or a run must look at them is `MechanismStates.reinstallsWatchFrom`, inline:
/// this state is out of line, read only from then on.
struct ReinstallState {
    /// When the next reinstall happens.
    var next = Int64.max
    /// Until when XIVA does not know the current install's token: letters reaching it before are dropped.
    var tokenKnownAt = Int64.min
    /// Reinstalls so far in this arm.
    var installs = 0
    /// The run-wide position of each install's first letter, after the first install's (1).
    var firstPositions: [Int32] = []
    /// Whether the current install has not saved a position yet.
    var awaitingFirstSave = false

    /// The run-wide position the current install's numbering starts at.
    var currentFirst: Int32 { firstPositions.last ?? 1 }

    /// The first position of the install whose numbering holds run-wide position p.
    func firstPosition(holding p: Int32) -> Int32 {
        firstPositions.last { $0 <= p } ?? 1
    }
}

extension DeviceWorld {
    /// The first reinstall of this arm: a Poisson process of rate `reinstall` on a stream of its
    /// own, drawn one reinstall at a time, the same instants in both arms.
    @inline(never) mutating func scheduleFirstReinstall() {
        var state = ReinstallState()
        swap(&state.firstPositions, &mechanisms.reinstalls.firstPositions)
        state.firstPositions.removeAll(keepingCapacity: true)
        state.next = nextReinstall(after: 0)
        mechanisms.reinstallsWatchFrom = state.next
        mechanisms.reinstalls = state
    }

    @inline(__always) mutating func nextReinstall(after t: Int64) -> Int64 {
        later(t, SimTime.rounding(armState.streams.mechanismStreams.reinstalls.nextExponential() / parameters.reinstallRate).microseconds)
    }

    /// Every reinstall at or before `now`, taken in order before anything numbers a letter or
    /// checks a position at `now`: XIVA's next position is then the new token's first. Each
    /// draws the delay until XIVA learns the new token, and with the queue wipes the saved
    /// position (the app's container goes with the app).
    mutating func reinstallsPassed(at now: Int64, letter: Int) {
        while mechanisms.reinstalls.next <= now {
            let at = mechanisms.reinstalls.next
            mechanisms.reinstalls.installs += 1
            mechanisms.reinstalls.firstPositions.append(xiva.nextPosition)
            mechanisms.reinstalls.tokenKnownAt = later(at, parameters.reinstallDelay.sample(&armState.streams.mechanismStreams.reinstalls))
            mechanisms.reinstalls.next = nextReinstall(after: at)
            ledger.appReinstalls.reinstalls += at >= scenario.warmup.microseconds ? 1 : 0
            note(.device, nil, .appReinstalled(tokenKnownAt: SimTime(microseconds: mechanisms.reinstalls.tokenKnownAt)), at: at)
            if armState.checksGaps { forgetPositionAtReinstall(letter: letter) }
        }
        mechanisms.reinstallsWatchFrom = now < mechanisms.reinstalls.tokenKnownAt ? now : mechanisms.reinstalls.next
    }

    /// The saved position goes with the app. The old install's positions after it (or all of
    /// them, if it never saved one) are past any gap check now: counted as missed.
    mutating func forgetPositionAtReinstall(letter: Int) {
        let lastNumbered = xiva.nextPosition - 1
        let previousFirst = mechanisms.reinstalls.firstPositions.count >= 2
            ? mechanisms.reinstalls.firstPositions[mechanisms.reinstalls.firstPositions.count - 2] : 1
        let checkedUpTo = max(ext.lastPosition, previousFirst - 1)
        if lastNumbered > checkedUpTo { ledger.appReinstalls.missedGapPositions += Int(lastNumbered - checkedUpTo) * counted(letter) }
        ext.lastPosition = 0
        ext.pendingSaves.removeAll()
        ext.serialPosition = 0
        mechanisms.reinstalls.awaitingFirstSave = true
        // A version-2 client's state is the app group's storage: it goes with the app too.
        if parameters.client == .stateful { mechanisms.client.box = nil }
    }

    /// Letter i reaches XIVA at `now`, at or after a reinstall or inside a token's delay:
    /// returns whether XIVA drops it, not knowing the new token (an unknown subscription).
    @inline(never) mutating func xivaDropsForOldToken(letter i: Int, at now: Int64) -> Bool {
        reinstallsPassed(at: now, letter: i)
        guard now < mechanisms.reinstalls.tokenKnownAt else { return false }
        letterStates[i].droppedForOldToken = true
        ledger.appReinstalls.droppedLetters += counted(i)
        note(.xiva, i, .droppedBeforeNewToken)
        return true
    }

    /// An extension run of the queue arm starts at `now` on a push at run-wide position p:
    /// whether the push was numbered for an earlier install. Its device-id hash is not this
    /// install's, so it is shown as is: no gap check, no save. Counted, and counted as a false
    /// gap when the check, reading its token's position against this install's saved one,
    /// would have found a gap.
    @inline(never) mutating func isForeignPush(position p: Int32, letter: Int, at now: Int64) -> Bool {
        if now >= mechanisms.reinstallsWatchFrom { reinstallsPassed(at: now, letter: letter) }
        let current = mechanisms.reinstalls.currentFirst
        guard p < current else { return false }
        ledger.appReinstalls.foreignPushes += counted(letter)
        let ownPosition = p - mechanisms.reinstalls.firstPosition(holding: p) + 1
        // A version-2 client is asked about the push itself (StatefulClientRuns.swift), and its
        // false gap counted from its answer.
        if parameters.client != .stateful {
            let saved = ext.lastPosition > 0 ? ext.lastPosition - current + 1 : 0
            let check = gapCheck(saved: saved, position: ownPosition)
            if case .gap = check.outcome { ledger.appReinstalls.falseGaps += counted(letter) }
        }
        note(.device, letter, .foreignPushShownAsIs)
        return true
    }

    /// The current install saved its first position p: its positions before p were never checked.
    @inline(never) mutating func newInstallSavedFirst(position p: Int32, letter: Int) {
        guard mechanisms.reinstalls.awaitingFirstSave else { return }
        mechanisms.reinstalls.awaitingFirstSave = false
        ledger.appReinstalls.missedGapPositions += Int(p - mechanisms.reinstalls.currentFirst) * counted(letter)
    }
}
