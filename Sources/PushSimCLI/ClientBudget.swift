// A user's client under --max-events: its answers counted while the run runs, the run refused once they pass the limit.
import Foundation
import PushSimClient
import PushSimCore
import PushSimExperiment

/// The estimate counts a letter's pushes, not what a user's client makes of them: a client that
/// re-requests everything on every push makes each push send the letters again, and those pushes
/// reach it in turn, without end. So the client's answers are counted as the run goes: every
/// decision beyond one a letter is a push sent again (``ResourceEstimate/eventsPerExtraSend``
/// events). Once the estimate's events and these pass `--max-events`, the client is asked no
/// more (each push is shown as is, so the run ends soon) and the run is refused when it ends,
/// before anything is written, naming the client.
final class ClientBudget: @unchecked Sendable {
    private let lock = NSLock()
    private var decisions = 0.0
    private var passedAt: Double?
    /// Decisions the estimate already counts: one per letter of the queue arm.
    let counted: Double
    let estimated: Double
    let limit: Double

    init(counted: Double, estimated: Double, limit: Double) {
        self.counted = counted; self.estimated = estimated; self.limit = limit
    }

    /// Counts one decision; false once the limit is passed (the client is not to be asked).
    func count() -> Bool {
        lock.lock(); defer { lock.unlock() }
        if passedAt != nil { return false }
        decisions += 1
        let events = estimated + max(0, decisions - counted) * ResourceEstimate.eventsPerExtraSend
        if events > limit { passedAt = events; return false }
        return true
    }

    /// The events the client's decisions took the run past the limit to, or nil while within it.
    var passed: Double? {
        lock.lock(); defer { lock.unlock() }
        return passedAt
    }

    /// Why the run is refused, once the client's answers passed the limit.
    func refusal(name: String, client: String) -> String? {
        guard let events = passed else { return nil }
        return "refusing to go on with '\(name)': the answers of the user's client \(client) made the run pass about "
            + "\(ResourceEstimate.count(events)) events, over the limit of \(ResourceEstimate.count(limit)) (--max-events): it "
            + "re-requested so often that letters were sent again and again (the estimate before the run counts "
            + "\(ResourceEstimate.count(estimated)) events, one decision a letter); nothing was written. Re-request only the "
            + "missing positions, or raise --max-events if the run is meant to take that much"
    }

    /// `scenario` with its user's client counted against `limits`, and the budget that counts
    /// it; the scenario as it is and nil without a user's client.
    static func guarded(_ scenario: Scenario, estimate: ResourceEstimate,
                        limits: ResourceEstimate.Limits) -> (Scenario, ClientBudget?) {
        guard let user = scenario.queue.userClient, limits.maxEvents.isFinite else { return (scenario, nil) }
        let budget = ClientBudget(counted: estimate.letters, estimated: estimate.events, limit: limits.maxEvents)
        var guarded = scenario
        let counted: UserClient.Logic
        switch user.logic {
        case .decision(let inner): counted = .decision(CountedClient(inner: inner, budget: budget))
        case .stateful(let inner): counted = .stateful(CountedStatefulClient(inner: inner, budget: budget))
        }
        guarded.queue.userClient = UserClient(logic: counted, name: user.name, version: user.version, rules: user.rules)
        return (guarded, budget)
    }
}

/// The user's client, each decision counted; past the budget, every push is shown as is and
/// saved (no more re-requests), so that the run ends.
struct CountedClient: ExtensionClient {
    let inner: any ExtensionClient
    let budget: ClientBudget

    func decide(_ push: PushPayload, saved: SavedState, limits: ClientLimits) -> ClientStep {
        guard budget.count() else {
            return ClientStep(.show, saved: SavedState(position: max(saved.position, push.position), deviceIdHash: saved.deviceIdHash))
        }
        return inner.decide(push, saved: saved, limits: limits)
    }
}

/// A version-2 client, each answer counted; past the budget every push is shown as is (a
/// wait ends at once with the push shown), so that the run ends.
struct CountedStatefulClient: StatefulClientLogic {
    let inner: any StatefulClientLogic
    let budget: ClientBudget

    func freshStateBox() -> any ClientStateBox { inner.freshStateBox() }

    func pushArrived(_ push: ArrivingPush, box: any ClientStateBox) -> ExtensionAnswer {
        guard budget.count() else { return .show }
        return inner.pushArrived(push, box: box)
    }

    func woke(_ push: ArrivingPush, at now: ClientTime, box: any ClientStateBox) -> ExtensionAnswer {
        guard budget.count() else { return .show }
        return inner.woke(push, at: now, box: box)
    }
}
