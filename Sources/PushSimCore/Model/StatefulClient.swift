// A version-2 client (PushSimClient's ServiceExtensionClient) with its state's type erased, and the record of the rules a client broke.
import PushSimClient
import Synchronization

/// What the world holds of one install's state: the team's own value, in a box whose type the
/// world does not know. One per device and arm, made the first time the client is asked, and
/// only ever touched by the thread that steps its world (the locks cost little and make it
/// safely shareable in the type system's eyes).
package protocol ClientStateBox: AnyObject, Sendable {
    /// Whether the client broke a rule on this device: it is not asked again there (every
    /// push is shown as is), so the run ends soon and is refused.
    var broken: Bool { get }
    func markBroken()
}

/// The box of a client whose state is `State`.
final class TypedClientStateBox<State: Sendable>: ClientStateBox {
    let state: Mutex<State>
    private let brokenFlag = Mutex(false)

    init(_ state: State) { self.state = Mutex(state) }

    var broken: Bool { brokenFlag.withLock { $0 } }
    func markBroken() { brokenFlag.withLock { $0 = true } }
}

/// A version-2 client as the world calls it: the same calls, on a box.
package protocol StatefulClientLogic: Sendable {
    func freshStateBox() -> any ClientStateBox
    func pushArrived(_ push: ArrivingPush, box: any ClientStateBox) -> ExtensionAnswer
    func woke(_ push: ArrivingPush, at now: ClientTime, box: any ClientStateBox) -> ExtensionAnswer
    func appOpened(_ opening: AppOpening, box: any ClientStateBox) -> AppAnswer
    func backgroundPushArrived(_ push: BackgroundPush, box: any ClientStateBox) -> AppAnswer
}

/// A team's ``ServiceExtensionClient`` behind ``StatefulClientLogic``.
struct StatefulClientAdapter<Client: ServiceExtensionClient>: StatefulClientLogic {
    let client: Client
    init(_ client: Client) { self.client = client }

    func freshStateBox() -> any ClientStateBox { TypedClientStateBox(client.freshState()) }

    func pushArrived(_ push: ArrivingPush, box: any ClientStateBox) -> ExtensionAnswer {
        // Every box this adapter is handed it made itself (`freshStateBox`).
        guard let typed = box as? TypedClientStateBox<Client.State> else { return .show }
        return typed.state.withLock { client.pushArrived(push, state: &$0) }
    }

    func woke(_ push: ArrivingPush, at now: ClientTime, box: any ClientStateBox) -> ExtensionAnswer {
        guard let typed = box as? TypedClientStateBox<Client.State> else { return .show }
        return typed.state.withLock { client.woke(push, at: now, state: &$0) }
    }

    func appOpened(_ opening: AppOpening, box: any ClientStateBox) -> AppAnswer {
        guard let typed = box as? TypedClientStateBox<Client.State> else { return .nothing }
        return typed.state.withLock { client.appOpened(opening, state: &$0) }
    }

    func backgroundPushArrived(_ push: BackgroundPush, box: any ClientStateBox) -> AppAnswer {
        guard let typed = box as? TypedClientStateBox<Client.State> else { return .nothing }
        return typed.state.withLock { client.backgroundPushArrived(push, state: &$0) }
    }
}

/// One rule of the client protocol broken: where, when and how.
package struct ClientRuleViolation: Equatable, Sendable {
    package var device: Int
    /// The letter whose push the extension ran for; nil when the main app answered.
    package var letter: Int?
    /// When the main app answered: woken by a background push (true) or opened by the user.
    package var woken = false
    package var position: Int32
    package var time: Int64
    package var rule: String
}

/// The first rule a user's client broke in a command, kept across the threads that ask it:
/// the lowest device's first violation, so the message does not depend on `--jobs`.
package final class ClientRuleBook: Sendable {
    private let first = Mutex<ClientRuleViolation?>(nil)

    package init() {}

    func record(_ violation: ClientRuleViolation) {
        first.withLock { first in
            if let earlier = first, (earlier.device, earlier.time) <= (violation.device, violation.time) { return }
            first = violation
        }
    }

    package var violation: ClientRuleViolation? { first.withLock { $0 } }

    /// Why the command was stopped other than by a broken rule (its client's answers made more
    /// work than `--max-events` allows), the first reason given; nil while it goes on.
    private let stopped = Mutex<String?>(nil)

    /// Stops the command: from now on nothing is written, and it ends with `reason` (the first
    /// one given is kept).
    package func stop(because reason: String) {
        stopped.withLock { if $0 == nil { $0 = reason } }
    }

    /// The message a command ends with once the client named `client` broke a rule, or once
    /// its work was stopped (``stop(because:)``).
    package func refusal(client: String) -> String? {
        guard let v = violation else { return stopped.withLock { $0 } }
        let what = v.letter.map { "letter \($0) (position \(v.position))" }
            ?? (v.woken ? "when a background push woke the app (newest position \(v.position))"
                        : "when the user opened the app (newest position seen \(v.position))")
        return "the client \(client) broke a rule of the client protocol (docs/client.md): \(v.rule), on device \(v.device) "
            + "at \(SimTime(microseconds: v.time)), \(what); the run was stopped and nothing was written"
    }
}
