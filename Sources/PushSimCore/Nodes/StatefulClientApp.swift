// The main app of a version-2 client: the user opens it, and the client's hook says what it does (ask XIVA again, show, nothing).
import PushSimClient

/// A re-request the main app sent at an opening, waiting for XIVA's answer: its positions,
/// whether the answer is an error, and when it comes.
struct AppRequest {
    var ranges: [ClosedRange<Int32>]
    var failed: Bool
    var answerAt: Int64
}

/// What the main app did at an opening, in the trace's words.
package enum AppHookStep: Equatable, Sendable {
    /// The hook answered nothing.
    case nothing
    /// One request to XIVA for `positions` positions in `ranges` ranges, answered after `answerIn`.
    case reRequestSent(positions: Int, ranges: Int, answerIn: SimTime)
    /// XIVA's answer to the app's request: the positions sent again, or an error.
    case answered(failed: Bool)
    /// The app showed `positions` positions itself; `notShown` of their letters no notification had shown.
    case showed(positions: Int, notShown: Int)

    var text: String {
        if case .answered = self { return detail }
        return "opened the app: " + detail
    }

    /// The step's words after what made the app act (an opening, a background push).
    var detail: String {
        switch self {
        case .nothing: return "the client's app does nothing"
        case .reRequestSent(let positions, let ranges, let answerIn):
            return "it asks XIVA again for \(positions) position(s) in \(ranges) range(s), answer in \(answerIn)"
        case .answered(let failed):
            return failed ? "XIVA answers the app's re-request with an error" : "XIVA answers the app's re-request: its positions sent again"
        case .showed(let positions, let notShown):
            return "it shows \(positions) position(s) itself, \(notShown) not shown yet: summary"
        }
    }
}

extension DeviceWorld {
    /// Whether this arm's openings of the app (`device.app_open`) go to a version-2 client's
    /// hook: the queue design's arm with such a client. The same openings as the catch-up's
    /// (stream `appOpens`), so the designs and the hook see the same user.
    func clientOpensApp(_ arm: Arm) -> Bool {
        arm == .on && scenario.recovery == .queue && parameters.client == .stateful && scenario.device.appOpen != nil
    }

    /// The user opens the app at `now` with a version-2 client deciding: online, the client's
    /// `appOpened` is asked, on the install's state, and its answer is checked against the
    /// rules a waiting run's ranges are held to (inside `1 ...` the newest position the
    /// extension has seen, no overlap); offline, the app reaches no server and is not asked.
    @inline(never) mutating func clientAppOpens(at now: Int64) {
        guard let logic = statefulLogic else { return }
        guard deviceIsOnline(at: now) else {
            note(.user, nil, .openedAppOffline)
            return
        }
        let box = clientStateBox(logic)
        guard !box.broken else { return }
        let newest = ext.highestPositionSeen
        let opening = AppOpening(now: ClientTime(microseconds: now), installDeviceIdHash: deviceIdHash(install: mechanisms.reinstalls.installs),
                                 newestPosition: newest, repeatMaxCount: parameters.repeatMaxCount)
        let counts = now >= scenario.warmup.microseconds ? 1 : 0
        ledger.appHook.opens += counts
        appAnswers(logic.appOpened(opening, box: box), newest: newest, counts: counts, woken: false, at: now)
    }

    /// The main app's answer (at an opening, or woken by a background push), checked against
    /// the rules a waiting run's ranges are held to (inside `1 ...` `newest`, no overlap), then
    /// carried out.
    mutating func appAnswers(_ answer: AppAnswer, newest: Int32, counts: Int, woken: Bool, at now: Int64) {
        func said(_ step: AppHookStep) -> TraceEvent { woken ? .backgroundPushForClient(.answer(step)) : .appOpenedForClient(step) }
        let ranges: [ClosedRange<Int32>]
        switch answer {
        case .nothing:
            note(.user, nil, said(.nothing))
            return
        case .reRequest(let asked), .summarize(let asked):
            ranges = asked.sorted { $0.lowerBound < $1.lowerBound }
        }
        guard !ranges.isEmpty else {
            note(.user, nil, said(.nothing))
            return
        }
        if let rule = brokenRangeRule(ranges, newest: newest, own: nil) {
            brokeRule(rule, letter: nil, position: newest, woken: woken, at: now)
            return
        }
        if case .reRequest = answer { appReRequests(ranges, counts: counts, woken: woken, at: now) } else { appShows(ranges, counts: counts, woken: woken, at: now) }
    }

    /// The app's one request to XIVA for `ranges`: its latency, error and outage as an
    /// extension's re-request has them, drawn on a stream of its own (`appRequests`), so the
    /// extension's draws are the same with the hook or without.
    private mutating func appReRequests(_ ranges: [ClosedRange<Int32>], counts: Int, woken: Bool, at now: Int64) {
        ledger.appHook.reRequests += counts
        let latency = parameters.requestLatency.sample(&mechanisms.client.appStream)
        var failed = mechanisms.client.appStream.chance(parameters.requestError)
        // Sent while XIVA is out: answered with an error (docs/model.md §6).
        if parameters.hasOutages, outageEnd(containing: now) != nil { failed = true }
        let answerAt = later(now, latency)
        mechanisms.client.appRequests.append(AppRequest(ranges: ranges, failed: failed, answerAt: answerAt))
        let positions = ranges.reduce(0) { $0 + $1.count }
        let step = AppHookStep.reRequestSent(positions: positions, ranges: ranges.count, answerIn: SimTime(microseconds: latency))
        note(.user, nil, woken ? .backgroundPushForClient(.answer(step)) : .appOpenedForClient(step))
        clock.queue.schedule(at: answerAt, .mechanism(.appRequestAnswered))
    }

    /// XIVA answers the app's first request due by now (one event per request, so each is
    /// answered once, in the order they were sent among those due at one instant): on success
    /// every retained position is sent again, in position order, after one re-send latency;
    /// their pushes reach the extension as re-sent copies do.
    mutating func appRequestAnswered(at now: Int64) {
        guard let k = mechanisms.client.appRequests.firstIndex(where: { $0.answerAt <= now }) else { return }
        let request = mechanisms.client.appRequests.remove(at: k)
        note(.xiva, nil, .appOpenedForClient(.answered(failed: request.failed)))
        guard !request.failed else { return }
        let arrival = later(now, parameters.resendLatency.sample(&mechanisms.client.appStream))
        for range in request.ranges {
            for p in range { resend(slot: Int(p - xiva.firstPosition), arriving: arrival, at: now) }
        }
    }

    /// The app shows `ranges` itself (from its own server): the letters no notification has
    /// shown by now count as summarized, one summary for them (as the catch-up's).
    private mutating func appShows(_ ranges: [ClosedRange<Int32>], counts: Int, woken: Bool, at now: Int64) {
        var notShown = 0, notShownCounted = 0
        for range in ranges {
            for p in range {
                let letter = xiva.letterAtPosition[Int(p - xiva.firstPosition)].offset
                guard !(letterStates[letter].delivered && letterStates[letter].firstDelivery <= now) else { continue }
                letterStates[letter].summarized = true
                notShown += 1
                notShownCounted += counted(letter)
            }
        }
        let step = AppHookStep.showed(positions: ranges.reduce(0) { $0 + $1.count }, notShown: notShown)
        note(.user, nil, woken ? .backgroundPushForClient(.answer(step)) : .appOpenedForClient(step))
        if notShownCounted > 0 {
            ledger.appHook.summaries += 1
            ledger.summaries += 1
            loadLog.note(.summaries, at: now)
        }
    }
}
