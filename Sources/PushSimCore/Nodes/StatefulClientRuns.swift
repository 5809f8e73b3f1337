// A version-2 client (PushSimClient's ServiceExtensionClient) in the world: its state per install, its waits, its ranges, its rules.
import PushSimClient

/// A further range of a run's answer (the first is the run's own gap): positions `low...high`.
struct MoreGap: Equatable {
    var run: RunIndex
    var low: Int32
    var high: Int32
}

/// What the world keeps for a version-2 client in one arm: the install's state (the app
/// group's storage: made when the client is first asked, dropped at a reinstall), the
/// ranges after the first of every answer that named several, and the main app's openings
/// (StatefulClientApp.swift): whether they go to the client, its requests to XIVA and their stream.
struct StatefulClientState {
    var box: (any ClientStateBox)?
    var moreGaps: [MoreGap] = []
    var opensApp = false
    var appRequests: [AppRequest] = []
    var appStream = RandomStream(seed: 0)
    var background = BackgroundPushState()
}

extension DeviceWorld {
    /// The scenario's version-2 client.
    var statefulLogic: (any StatefulClientLogic)? { scenario.queue.userClient?.stateful }

    /// This install's state, made the first time the client is asked.
    mutating func clientStateBox(_ logic: any StatefulClientLogic) -> any ClientStateBox {
        if let box = mechanisms.client.box { return box }
        let box = logic.freshStateBox()
        mechanisms.client.box = box
        return box
    }

    /// A push reaches the extension in the queue arm and the client decides, now, in arrival
    /// order (protocol version 2). A device id change is told to the client, not applied to
    /// its state; a push numbered for an earlier install carries that install's hash.
    @inline(never) mutating func statefulClientRunStarts(letter: Int, run: inout ExtensionRun, at now: Int64) {
        guard let logic = statefulLogic else { return }
        let p = letterStates[letter].position
        let idChanged = mechanisms.idChange.next <= now
        if idChanged { deviceIdChanged(position: p, letter: letter, at: now) }
        let foreign = parameters.reinstallRate > 0 && isForeignPush(position: p, letter: letter, at: now)
        let box = clientStateBox(logic)
        guard !box.broken else { return }
        let push = arrivingPush(position: p, arrival: run.arrival, deviceIdChanged: idChanged)
        let firstOfInstall = !foreign && ext.lastPosition <= 0
        if !foreign {
            ext.highestPositionSeen = max(ext.highestPositionSeen, p)
            ext.lastPosition = max(ext.lastPosition, p)
        }
        apply(logic.pushArrived(push, box: box), run: &run, index: ext.runs.nextIndex(), letter: letter, position: p, at: now)
        if foreign && (run.action == .reRequest || run.action == .summary) { ledger.appReinstalls.falseGaps += counted(letter) }
        if firstOfInstall && run.action == .show {
            note(.device, nil, .savedFirstPosition(p))
            if _slowPath(mechanisms.reinstalls.installs > 0) { newInstallSavedFirst(position: p, letter: letter) }
        }
    }

    /// A run that waited is woken: the client decides again; a run already processed acts now.
    @inline(never) mutating func statefulClientWakes(run r: RunIndex, at now: Int64) {
        guard ext.runs[r].action == .waiting, let logic = statefulLogic else { return }
        let letter = copies[ext.runs[r].copy].letter.offset
        note(.device, letter, .clientWoken)
        var run = ext.runs[r]
        run.action = .show
        let box = clientStateBox(logic)
        if !box.broken {
            let p = letterStates[letter].position
            let push = arrivingPush(position: p, arrival: run.arrival, deviceIdChanged: false)
            apply(logic.woke(push, at: ClientTime(microseconds: now), box: box), run: &run, index: r, letter: letter, position: p, at: now)
        }
        ext.runs[r] = run
        // Its log row is the decision's, made now (it waited with none at its arrival).
        if _slowPath(extensionLog != nil) && run.action != .waiting { logWake(r, run, at: now) }
        if run.processed { extensionActs(run: r, at: now) }
    }

    /// The push at position p as the client reads it.
    func arrivingPush(position p: Int32, arrival: Int64, deviceIdChanged: Bool) -> ArrivingPush {
        ArrivingPush(payload: PushPayload(position: p, deviceIdHash: deviceIdHash(install: install(numbering: p))),
                     installDeviceIdHash: deviceIdHash(install: mechanisms.reinstalls.installs),
                     deviceIdChanged: deviceIdChanged, arrival: ClientTime(microseconds: arrival),
                     deadline: ClientTime(microseconds: deadline(ofRunStartedAt: arrival)),
                     repeatMaxCount: parameters.repeatMaxCount)
    }

    /// A client's answer applied to run `r` (not yet in `ext.runs` when it starts), checked
    /// against the protocol's rules: a wait schedules the wake; ranges become the run's gap.
    mutating func apply(_ answer: ExtensionAnswer, run: inout ExtensionRun, index r: RunIndex, letter: Int,
                        position p: Int32, at now: Int64) {
        switch answer {
        case .show:
            return
        case .wait(let until):
            let deadlineAt = deadline(ofRunStartedAt: run.arrival)
            guard until.microseconds > now, until.microseconds <= deadlineAt else {
                brokeRule("a wait until \(SimTime(microseconds: until.microseconds)) must end after now (\(SimTime(microseconds: now))) "
                          + "and no later than the run's deadline (\(SimTime(microseconds: deadlineAt)))", letter: letter, position: p, at: now)
                return
            }
            run.action = .waiting
            note(.device, letter, .clientWaits(until: SimTime(microseconds: until.microseconds)))
            clock.queue.schedule(at: until.microseconds, .extensionWakes(r))
        case .reRequest(let ranges):
            applyGaps(ranges, action: .reRequest, run: &run, index: r, letter: letter, position: p, at: now)
        case .summarize(let ranges):
            applyGaps(ranges, action: .summary, run: &run, index: r, letter: letter, position: p, at: now)
        }
    }

    /// Ranges answered for a run: each inside the positions XIVA has numbered and the extension
    /// has seen (`1 ...` the newest position it has seen: the push's own at its arrival, maybe a
    /// later one when a waiting run is woken), none holding the run's own position, none
    /// overlapping another. The first becomes the run's own gap, the rest wait beside it
    /// (``StatefulClientState``).
    private mutating func applyGaps(_ ranges: [ClosedRange<Int32>], action: ExtensionAction, run: inout ExtensionRun,
                                    index r: RunIndex, letter: Int, position p: Int32, at now: Int64) {
        guard !ranges.isEmpty else { return }
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        if let rule = brokenRangeRule(sorted, newest: max(p, ext.highestPositionSeen), own: p) {
            brokeRule(rule, letter: letter, position: p, at: now)
            return
        }
        run.gapLow = sorted[0].lowerBound
        run.gapHigh = sorted[0].upperBound
        run.action = action
        for range in sorted.dropFirst() { mechanisms.client.moreGaps.append(MoreGap(run: r, low: range.lowerBound, high: range.upperBound)) }
        let missed = sorted.reduce(0) { $0 + $1.count }
        ledger.gapsDetected += counted(letter)
        ledger.missedInGaps += missed * counted(letter)
        for range in sorted { note(.device, nil, .foundGap(low: range.lowerBound, high: range.upperBound, summary: action == .summary)) }
    }

    /// The rule `sorted` (ranges in order of their first position) breaks, or nil: each lies
    /// in `1 ... newest`, none holds the run's own position `own` (none for the main app), none
    /// overlaps another.
    func brokenRangeRule(_ sorted: [ClosedRange<Int32>], newest: Int32, own p: Int32?) -> String? {
        if let outside = sorted.first(where: { $0.lowerBound < 1 || $0.upperBound > newest }) {
            return "the range \(outside.lowerBound)...\(outside.upperBound) lies outside the positions the extension has seen (1...\(newest))"
        }
        if let p, let own = sorted.first(where: { $0.contains(p) }) {
            return "the range \(own.lowerBound)...\(own.upperBound) holds the push's own position \(p)"
        }
        for (a, b) in zip(sorted, sorted.dropFirst()) where b.lowerBound <= a.upperBound {
            return "the ranges \(a.lowerBound)...\(a.upperBound) and \(b.lowerBound)...\(b.upperBound) overlap"
        }
        return nil
    }

    /// The client broke a rule: the command will be refused (``ClientRuleBook``), and the client
    /// is asked no more on this device, so the run ends soon. `letter` is nil for the main app's answer.
    mutating func brokeRule(_ rule: String, letter: Int?, position p: Int32, woken: Bool = false, at now: Int64) {
        mechanisms.client.box?.markBroken()
        scenario.queue.userClient?.rules.record(ClientRuleViolation(device: armState.device, letter: letter, woken: woken, position: p, time: now, rule: rule))
        note(.device, letter, .clientBrokeRule(rule))
    }

    /// The slots of XIVA's table holding run r's further ranges (a version-2 client's answer of
    /// several), in order; none for any other run.
    func moreGapSlots(ofRun r: RunIndex) -> [Range<Int>] {
        let gaps = mechanisms.client.moreGaps
        guard !gaps.isEmpty else { return [] }
        let first = xiva.firstPosition
        return gaps.filter { $0.run == r }.map { Int($0.low - first)..<(Int($0.high - first) + 1) }
    }

    /// The number of positions in run r's further ranges.
    func morePositions(ofRun r: RunIndex) -> Int {
        moreGapSlots(ofRun: r).reduce(0) { $0 + $1.count }
    }
}
