// A user's client under --max-events: its answers counted across every run of a command, the command stopped once they pass the limit.
import Foundation
import PushSimClient
import PushSimCore
import PushSimExperiment
import PushSimScenarioFile

/// The estimate counts a letter's pushes, not what a user's client makes of them: a client that
/// re-requests everything on every push makes each push send the letters again, and those pushes
/// reach it in turn, without end; a version-2 client that waits again on every wake keeps a push
/// open for ever. So the client's answers are counted while the command runs, over all its runs
/// (`run`, a `--shard`, `check`, `trace`, `find`, every point of `sweep` and `optimize`, every
/// candidate of `calibrate`): every answer beyond one a letter the command's runs were estimated
/// with is a push sent again (``ResourceEstimate/eventsPerExtraSend`` events). Once the
/// estimates' events and these pass `--max-events`, the client is asked no more (each push is
/// shown as is, so the runs end soon), nothing more is written (the client's rule book refuses
/// every write, ``ResultsWriter/refusal()``), and the command ends with status 2 naming the client.
final class ClientBudget: @unchecked Sendable {
    /// The budget of the command under way, when a user's client decides and `--max-events` is set.
    @TaskLocal static var current: ClientBudget?

    private let lock = NSLock()
    private var decisions = 0.0
    private var expectedEvents = 0.0
    private var expectedLetters = 0.0
    private var runs = 0.0
    private var name = ""
    private var passedAt: Double?
    let limit: Double
    let client: String
    let rules: ClientRuleBook

    init(limit: Double, client: String, rules: ClientRuleBook) {
        self.limit = limit; self.client = client; self.rules = rules
    }

    /// Counts a run the command is about to make (`times` runs of it): its estimate's events,
    /// and one answer for each of its letters.
    func expect(_ estimate: ResourceEstimate, times: Int = 1, name: String) {
        lock.lock(); defer { lock.unlock() }
        expectedEvents += estimate.events * Double(times)
        expectedLetters += estimate.letters * Double(times)
        runs += Double(times)
        self.name = name
    }

    /// Counts `answers` answers (a version-2 answer of several ranges counts one for each
    /// range beyond the first: each is worked on as a gap of its own); false once the limit is
    /// passed (the client is not to be asked, or its answer is not to be taken).
    func count(_ answers: Int = 1) -> Bool {
        lock.lock()
        if passedAt != nil { lock.unlock(); return false }
        decisions += Double(answers)
        let events = expectedEvents + max(0, decisions - expectedLetters) * ResourceEstimate.eventsPerExtraSend
        guard events > limit else { lock.unlock(); return true }
        passedAt = events
        let reason = refusalText(events: events)
        lock.unlock()
        rules.stop(because: reason)
        return false
    }

    /// The events the client's answers took the command past the limit to, or nil while within it.
    var passed: Double? {
        lock.lock(); defer { lock.unlock() }
        return passedAt
    }

    private func refusalText(events: Double) -> String {
        let what = name.isEmpty ? "the command" : "'\(name)'"
        let runsText = runs > 1 ? "the command's \(ResourceEstimate.count(runs)) runs" : "the run"
        return "refusing to go on with \(what): the answers of the user's client \(client) made \(runsText) pass about "
            + "\(ResourceEstimate.count(events)) events, over the limit of \(ResourceEstimate.count(limit)) (--max-events): it "
            + "re-requested or waited so often that letters were sent again and again (the estimate before the run counts "
            + "\(ResourceEstimate.count(expectedEvents)) events, one answer a letter); nothing was written. Re-request only the "
            + "missing positions, answer a wake without waiting again, or raise --max-events if the run is meant to take that much"
    }

    /// Counts every point of `plan`, `times` runs each.
    static func expect(_ plan: SweepPlan, jobs: Int, times: Int) {
        guard let budget = current else { return }
        for scenario in plan.scenarios { budget.expect(ResourceEstimate(scenario, jobs: jobs), times: times, name: plan.scenarioName) }
    }

    /// Throws the refusal once the client's answers passed the limit: called before a command
    /// prints or writes what its runs made.
    static func verify() throws {
        guard let budget = current, budget.passed != nil, let reason = budget.rules.refusal(client: budget.client) else { return }
        throw InputError.refused(reason)
    }

    /// Runs `body` (a command of `options`) with the user's client of the command, if any,
    /// counted against `--max-events` (parsed from `arguments`; a bad value is left for the
    /// command to report). A command without the option simulates nothing.
    static func counting<T>(_ arguments: Arguments, options: [CommandOption], _ body: () throws -> T) rethrows -> T {
        guard let user = ScenarioLoader.userClient, options.contains(where: { $0.name == "max-events" }),
              let limits = try? ResourceGuard.limits(arguments), limits.maxEvents.isFinite else { return try body() }
        // Every client the program carries is counted against the one budget: `client=NAME`
        // may choose any of them.
        let named = ScenarioLoader.namedClients.isEmpty ? [user] : ScenarioLoader.namedClients
        let budget = ClientBudget(limit: limits.maxEvents, client: named.map(\.label).joined(separator: " / "), rules: user.rules)
        func guarded(_ client: UserClient) -> UserClient {
            let counted: UserClient.Logic
            switch client.logic {
            case .decision(let inner): counted = .decision(CountedClient(inner: inner, budget: budget))
            case .stateful(let inner): counted = .stateful(CountedStatefulClient(inner: inner, budget: budget))
            }
            return UserClient(logic: counted, name: client.name, version: client.version, rules: client.rules)
        }
        return try ScenarioLoader.$userClient.withValue(guarded(user)) {
            try ScenarioLoader.$namedClients.withValue(named.map(guarded)) {
                try $current.withValue(budget) { try body() }
            }
        }
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
        return counted(inner.pushArrived(push, box: box))
    }

    func woke(_ push: ArrivingPush, at now: ClientTime, box: any ClientStateBox) -> ExtensionAnswer {
        guard budget.count() else { return .show }
        return counted(inner.woke(push, at: now, box: box))
    }

    /// The app's answer at an opening: every range counted (an opening is no letter's answer);
    /// nothing once they pass the budget.
    func appOpened(_ opening: AppOpening, box: any ClientStateBox) -> AppAnswer {
        guard budget.count() else { return .nothing }
        return countedApp(inner.appOpened(opening, box: box))
    }

    /// The app's answer when a background push woke it: counted as an opening's.
    func backgroundPushArrived(_ push: BackgroundPush, box: any ClientStateBox) -> AppAnswer {
        guard budget.count() else { return .nothing }
        return countedApp(inner.backgroundPushArrived(push, box: box))
    }

    /// The main app's answer, every range counted; nothing once they pass the budget.
    private func countedApp(_ answer: AppAnswer) -> AppAnswer {
        switch answer {
        case .reRequest(let ranges), .summarize(let ranges):
            return ranges.isEmpty || budget.count(ranges.count) ? answer : .nothing
        case .nothing:
            return answer
        }
    }

    /// The answer, its further ranges counted; shown as is once they pass the budget.
    private func counted(_ answer: ExtensionAnswer) -> ExtensionAnswer {
        switch answer {
        case .reRequest(let ranges), .summarize(let ranges):
            return ranges.count <= 1 || budget.count(ranges.count - 1) ? answer : .show
        case .show, .wait:
            return answer
        }
    }
}
