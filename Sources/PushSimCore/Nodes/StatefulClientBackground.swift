// Background pushes in the queue design (queue.background_pushes): XIVA sends one with every letter, APNs and the system's throttle deliver it, and a version-2 client's main app decides what it does when woken.
import PushSimClient

/// A background push on its way to the phone or held by the system: when it is due, and the
/// position it carries (XIVA's newest when it was sent) with the hash it was numbered for.
struct PendingBackgroundPush: Equatable {
    var due: Int64
    var position: Int32
    var deviceIdHash: UInt32
    /// The return online it waits for in APNs' store (-1: not stored): a newer push stored for
    /// the same return replaces it.
    var storedFlip: Int
}

/// The queue arm's background pushes for one device: their stream (the background-sync
/// design's own, `backgroundPushes`, so the same letters send the same pushes), those under
/// way, the system's throttle and the push it holds.
struct BackgroundPushState {
    var on = false
    var stream = RandomStream(seed: 0)
    var cursor = 0
    var pending: [PendingBackgroundPush] = []
    var throttle = BackgroundThrottle(spacing: 1, overThrottle: .hold)
    /// The push the throttle holds (the newest of those it took), released at `throttle.release`.
    var held: PendingBackgroundPush?
}

/// What the main app of a version-2 client did with a background push, in the trace's words.
package enum BackgroundPushStep: Equatable, Sendable {
    case sent(position: Int32)
    case lostOnTheWay
    case expiredInStore
    case stored
    case held
    case dropped
    case wokeOffline
    case answer(AppHookStep)

    var text: String {
        switch self {
        case .sent(let position): return "XIVA sends a background push (newest position \(position))"
        case .lostOnTheWay: return "background push lost between XIVA and APNs"
        case .expiredInStore: return "background push expires before the phone is back online"
        case .stored: return "background push waits in APNs' store for the phone (a newer one replaces it)"
        case .held: return "background push held by the system's throttle"
        case .dropped: return "background push dropped by the system's throttle"
        case .wokeOffline: return "background push woke the app offline: the app reaches no server"
        case .answer(let step): return "background push woke the app: " + step.detail
        }
    }
}

extension DeviceWorld {
    /// Starts this arm's background pushes (the queue arm, with `queue.background_pushes` and a
    /// version-2 client): the design's stream, the throttle of `device.background_sync`.
    mutating func startBackgroundPushes() {
        let settings = scenario.device.backgroundSync ?? BackgroundSync()
        mechanisms.client.background = BackgroundPushState(
            on: true, stream: RandomStream(seed: scenario.seed, device: armState.device, purpose: .backgroundPushes),
            throttle: BackgroundThrottle(spacing: settings.spacing, overThrottle: settings.overThrottle))
        if !mechanisms.client.opensApp {
            mechanisms.client.appStream = RandomStream(seed: scenario.seed, device: armState.device, purpose: .appRequests)
        }
    }

    /// XIVA numbered letter i with position p at `now` and sends its background push: the way
    /// background-push sync's pushes travel (``backgroundPushTravels(sentAt:rng:cursor:)``),
    /// drawn on the same stream in the same order, then an event when it reaches the phone.
    @inline(never) mutating func xivaSendsBackgroundPush(letter i: Int, position p: Int32, at now: Int64) {
        guard mechanisms.client.background.on else { return }
        var rng = mechanisms.client.background.stream
        var cursor = mechanisms.client.background.cursor
        let way = backgroundPushTravels(sentAt: now, rng: &rng, cursor: &cursor)
        mechanisms.client.background.stream = rng
        mechanisms.client.background.cursor = cursor
        ledger.appHook.backgroundPushes += counted(i)
        if i >= armState.firstCounted { loadLog.note(.pushesSent, at: now) }
        note(.xiva, i, .backgroundPushForClient(.sent(position: p)))
        let hash = deviceIdHash(install: install(numbering: p))
        switch way {
        case .lost:
            note(.apns, i, .backgroundPushForClient(.lostOnTheWay))
        case .expired:
            note(.apns, i, .backgroundPushForClient(.expiredInStore))
        case .arrives(let due):
            guard due < clock.end else { return }
            mechanisms.client.background.pending.append(PendingBackgroundPush(due: due, position: p, deviceIdHash: hash, storedFlip: -1))
            clock.queue.schedule(at: due, .mechanism(.backgroundPushArrives))
        case .storedUntilOnline(let flip, let handedOver):
            note(.apns, i, .backgroundPushForClient(.stored))
            let push = PendingBackgroundPush(due: handedOver, position: p, deviceIdHash: hash, storedFlip: flip)
            if let k = mechanisms.client.background.pending.firstIndex(where: { $0.storedFlip == flip }) {
                // A newer push replaces the one stored for the same return online.
                mechanisms.client.background.pending[k] = push
            } else {
                mechanisms.client.background.pending.append(push)
            }
            if handedOver < clock.end { clock.queue.schedule(at: handedOver, .mechanism(.backgroundPushArrives)) }
        }
    }

    /// A background push reaches the phone (the earliest one due by now; a replaced one's event
    /// finds nothing): the system's throttle wakes the app, holds the push or drops it
    /// (docs/model.md §7, Background-push sync, rule 3).
    mutating func backgroundPushArrives(at now: Int64) {
        let pending = mechanisms.client.background.pending
        guard let k = pending.indices.filter({ pending[$0].due <= now }).min(by: { pending[$0].due < pending[$1].due }) else { return }
        let push = mechanisms.client.background.pending.remove(at: k)
        // A held push due at this instant is released first (rule 3: a release, then an arrival).
        if let release = mechanisms.client.background.throttle.release, release <= now { backgroundPushReleased(at: now) }
        let counts = now >= scenario.warmup.microseconds ? 1 : 0
        let hadRelease = mechanisms.client.background.throttle.release != nil
        switch mechanisms.client.background.throttle.arrives(at: now) {
        case .wakes:
            appWokenByBackgroundPush(push, at: now)
        case .held:
            ledger.appHook.backgroundHeld += counts
            note(.device, nil, .backgroundPushForClient(.held))
            // One held at a time: the newest replaces an older one (it carries the newest position).
            if (mechanisms.client.background.held?.position ?? 0) <= push.position { mechanisms.client.background.held = push }
            if !hadRelease, let release = mechanisms.client.background.throttle.release, release < clock.end {
                clock.queue.schedule(at: release, .mechanism(.backgroundPushReleased))
            }
        case .dropped:
            ledger.appHook.backgroundDropped += counts
            note(.device, nil, .backgroundPushForClient(.dropped))
        }
    }

    /// The throttle allows a wake-up again: the push it held wakes the app (once: a stale event
    /// finds no release due).
    mutating func backgroundPushReleased(at now: Int64) {
        // An event whose release was taken already (at an arrival of the same instant) finds a later one, or none.
        guard let release = mechanisms.client.background.throttle.release, release <= now else { return }
        mechanisms.client.background.throttle.takeRelease()
        guard let push = mechanisms.client.background.held else { return }
        mechanisms.client.background.held = nil
        mechanisms.client.background.throttle.wake(at: now)
        appWokenByBackgroundPush(push, at: now)
    }

    /// A background push woke the app at `now`: counted as a wake-up; online, the client's
    /// `backgroundPushArrived` is asked on the install's state and its answer held to the main
    /// app's rules (ranges inside `1 ...` the newest position, no overlap); offline (a held push
    /// released while the phone is offline) the app reaches no server and is not asked.
    private mutating func appWokenByBackgroundPush(_ push: PendingBackgroundPush, at now: Int64) {
        let counts = now >= scenario.warmup.microseconds ? 1 : 0
        ledger.appHook.backgroundWakes += counts
        guard let logic = statefulLogic else { return }
        guard deviceIsOnline(at: now) else {
            note(.device, nil, .backgroundPushForClient(.wokeOffline))
            return
        }
        let box = clientStateBox(logic)
        guard !box.broken else { return }
        let newest = max(ext.highestPositionSeen, push.position)
        let woken = BackgroundPush(now: ClientTime(microseconds: now), payload: PushPayload(position: push.position, deviceIdHash: push.deviceIdHash),
                                   installDeviceIdHash: deviceIdHash(install: mechanisms.reinstalls.installs),
                                   newestPosition: newest, repeatMaxCount: parameters.repeatMaxCount)
        let answer = logic.backgroundPushArrived(woken, box: box)
        appAnswers(answer, newest: newest, counts: counts, woken: true, at: now)
    }
}

extension DeviceWorld {
    /// What becomes of one background push XIVA sends at `sentAt` (docs/model.md §7,
    /// Background-push sync, rules 1 and 2), drawn from `rng` in this order: XIVA's latency, APNs'
    /// loss, APNs' latency, and for an offline phone a fresh latency at its return online.
    /// `cursor` is the timeline's (``ConnectivityTimeline/isOnline(at:cursor:)``).
    func backgroundPushTravels(sentAt: Int64, rng: inout RandomStream, cursor: inout Int) -> BackgroundPushWay {
        let atAPNs = later(sentAt, scenario.xiva.latency.sample(&rng).microseconds)
        let lost = rng.chance(scenario.apns.loss)
        let latency = scenario.apns.latency.sample(&rng).microseconds
        if lost { return .lost }
        let due = later(atAPNs, latency)
        if draws.timeline.isOnline(at: due, cursor: &cursor) { return .arrives(due) }
        // Offline: `cursor` flips are at or before `due`, so the next one brings it back online.
        let flips = draws.timeline.flips
        guard cursor < flips.count, flips[cursor] < later(atAPNs, parameters.apnsExpiration.microseconds) else { return .expired }
        return .storedUntilOnline(flip: cursor, handedOver: later(flips[cursor], scenario.apns.latency.sample(&rng).microseconds))
    }
}

/// What became of one background push on its way (``DeviceWorld/backgroundPushTravels(sentAt:rng:cursor:)``).
enum BackgroundPushWay: Equatable {
    case lost
    /// The phone was offline and does not come back before the push expires from APNs' store.
    case expired
    case arrives(Int64)
    /// Stored in APNs (one at a time) until return online number `flip`, handed over then.
    case storedUntilOnline(flip: Int, handedOver: Int64)
}
