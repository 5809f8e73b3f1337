// The device: connectivity flips, and where a push goes on arrival (display off or the extension).

extension DeviceWorld {
    mutating func connectivityFlips(index k: Int, at now: Int64) {
        let online = deviceIsOnline(at: now)
        note(.device, nil, .connectivity(online: online))
        if _slowPath(k + 1 >= draws.timeline.flips.count && draws.timeline.onDemand != nil) { drawMoreFlips() }
        if k + 1 < draws.timeline.flips.count {
            clock.agenda.followInSecondStream(time: draws.timeline.flips[k + 1], index: k + 1)
        }
        if online { apnsFlushStore(at: now) }
    }

    /// Whether the device is online at `now`, the current event's time. Read from the timeline
    /// rather than from the order flip events were handled in, so a push due exactly at a flip
    /// sees the new state whatever was scheduled first (windows are [start, end)).
    mutating func deviceIsOnline(at now: Int64) -> Bool {
        let flips = draws.timeline.flips
        while clock.flipsPassed < flips.count && flips[clock.flipsPassed] <= now { clock.flipsPassed += 1 }
        return draws.timeline.onlineAtStart == (clock.flipsPassed % 2 == 0)
    }

    /// A push arrives (timing rule 5): with display off it counts as delivered at once and no
    /// extension runs; elsewhere the extension starts (on PushKit, display off or not, the
    /// app's push handler: docs/model.md §12, PushKit).
    @inline(__always) mutating func deviceReceives(copy c: CopyIndex, at now: Int64) {
        let letter = copies[c].letter.offset
        note(.device, letter, .pushArrived, at: now)
        if parameters.duplicate > 0 { apnsMayDuplicate(copy: c, at: now) }
        if noHandlerRuns {
            copies[c].console.handedOver(disabled: true)
            present(letter: letter, at: now)
        } else {
            copies[c].console.handedOver(disabled: false)
            extensionStarts(copy: c, at: now)
        }
    }

    /// Whether nothing on the device handles a push: display off keeps the extension from
    /// running, but not PushKit's push handler, which is the app's own launch and which the
    /// notification settings do not govern (docs/model.md §12, PushKit, Display off).
    @inline(__always) var noHandlerRuns: Bool { draws.alertsOff && parameters.channel != .pushkit }
}
