// The client protocol, version 2: a Notification Service Extension with its own state, the clock, waits and several ranges.

/// The version of the client protocol this library speaks (docs/client.md). Version 1 is
/// ``ExtensionClient`` (one pure decision on a saved position); version 2 is
/// ``ServiceExtensionClient``. Both are run as they are; a result names the version that made it.
public enum ClientProtocol {
    public static let version = 2
}

/// An instant on the simulation's virtual clock, in whole microseconds from the run's start.
public struct ClientTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    public static func < (a: ClientTime, b: ClientTime) -> Bool { a.microseconds < b.microseconds }

    /// `self` moved by `seconds` (rounded to the microsecond; saturating at the clock's ends).
    public func adding(seconds: Double) -> ClientTime {
        let step = (seconds * 1_000_000).rounded()
        guard step.isFinite else { return ClientTime(microseconds: step > 0 ? .max : .min) }
        let clamped = Int64(max(min(step, 9.0e18), -9.0e18))
        let (sum, overflow) = microseconds.addingReportingOverflow(clamped)
        return ClientTime(microseconds: overflow ? (clamped > 0 ? .max : .min) : sum)
    }

    /// Seconds from `earlier` to `self`.
    public func seconds(since earlier: ClientTime) -> Double {
        Double(microseconds) / 1_000_000 - Double(earlier.microseconds) / 1_000_000
    }

    public var description: String { "\(Double(microseconds) / 1_000_000) s" }
}

/// A push as it reaches the extension: its payload, when it arrived, and how long the
/// extension may run for it.
public struct ArrivingPush: Equatable, Sendable {
    /// XIVA's position and the device-id hash the push was numbered for.
    public var payload: PushPayload
    /// The device-id hash of the install running the extension now: a payload with another
    /// hash was numbered for an earlier install (a reinstall), and its position says nothing
    /// about this one's numbering.
    public var installDeviceIdHash: UInt32
    /// Whether the device id changed since the extension last ran: XIVA numbers the new id's
    /// pushes from 1 again, so a position saved under the old id means nothing now.
    public var deviceIdChanged: Bool
    /// When the push reached the extension.
    public var arrival: ClientTime
    /// When the system ends the extension's run for this push (the arrival plus
    /// `extension.deadline`): a wait must end before it.
    public var deadline: ClientTime
    /// The scenario's `queue.repeat_max_count`, for a client that reads it.
    public var repeatMaxCount: Int

    public init(payload: PushPayload, installDeviceIdHash: UInt32, deviceIdChanged: Bool = false,
                arrival: ClientTime, deadline: ClientTime, repeatMaxCount: Int) {
        self.payload = payload; self.installDeviceIdHash = installDeviceIdHash
        self.deviceIdChanged = deviceIdChanged; self.arrival = arrival; self.deadline = deadline
        self.repeatMaxCount = repeatMaxCount
    }

    /// Seconds from `now` to the deadline.
    public func timeLeft(at now: ClientTime) -> Double { deadline.seconds(since: now) }
}

/// What a run of the extension does now.
public enum ExtensionAnswer: Equatable, Sendable {
    /// Show the push as it is.
    case show
    /// Ask XIVA, in one request, to send these positions again; the push is shown when the
    /// answer is in (or at the deadline). The ranges lie in `1 ...` the newest position the
    /// extension has seen, hold not the push's own position, and do not overlap.
    case reRequest([ClosedRange<Int32>])
    /// Show one "N missed messages" summary for these positions instead of asking for them.
    case summarize([ClosedRange<Int32>])
    /// Keep running until `until` (after now, before the deadline), then decide again
    /// (``ServiceExtensionClient/woke(_:at:state:)``) with whatever the state holds by then:
    /// the way to batch several gaps into one re-request.
    case wait(until: ClientTime)
}

/// The main app, opened by the user: when, and what the extension has seen by then.
public struct AppOpening: Equatable, Sendable {
    /// When the user opened the app.
    public var now: ClientTime
    /// The device-id hash of the install running now.
    public var installDeviceIdHash: UInt32
    /// The newest position the extension has seen (0: none yet): the app's ranges lie in
    /// `1 ...` it, as a waiting run's do.
    public var newestPosition: Int32
    /// The scenario's `queue.repeat_max_count`, for a client that reads it.
    public var repeatMaxCount: Int

    public init(now: ClientTime, installDeviceIdHash: UInt32, newestPosition: Int32, repeatMaxCount: Int) {
        self.now = now; self.installDeviceIdHash = installDeviceIdHash
        self.newestPosition = newestPosition; self.repeatMaxCount = repeatMaxCount
    }
}

/// What the main app does when the user opens it.
public enum AppAnswer: Equatable, Sendable {
    /// Nothing.
    case nothing
    /// Ask XIVA, in one request, to send these positions again: their pushes reach the
    /// extension as re-sent copies (and its runs are asked about them as about any push). The
    /// ranges lie in `1 ...` ``AppOpening/newestPosition`` and do not overlap.
    case reRequest([ClosedRange<Int32>])
    /// Show these positions in the app itself (fetched from the app's own server): the letters
    /// no notification has shown yet count as summarized, one summary for all of them.
    case summarize([ClosedRange<Int32>])
}

/// A background push (`content-available: 1`, `apns-push-type: background`, priority 5) that
/// woke the main app in the background (`queue.background_pushes`, docs/model.md §7): when,
/// the position XIVA numbered last when it sent it, and what the extension has seen by then.
public struct BackgroundPush: Equatable, Sendable {
    /// When the push woke the app (after APNs' store and the system's throttle).
    public var now: ClientTime
    /// XIVA's newest position when it sent the push, and the device-id hash it was numbered for.
    public var payload: PushPayload
    /// The device-id hash of the install running now.
    public var installDeviceIdHash: UInt32
    /// The newest position the app may ask for: the larger of the extension's newest and the
    /// payload's (0: none yet). The app's ranges lie in `1 ...` it.
    public var newestPosition: Int32
    /// The scenario's `queue.repeat_max_count`, for a client that reads it.
    public var repeatMaxCount: Int

    public init(now: ClientTime, payload: PushPayload, installDeviceIdHash: UInt32, newestPosition: Int32, repeatMaxCount: Int) {
        self.now = now; self.payload = payload; self.installDeviceIdHash = installDeviceIdHash
        self.newestPosition = newestPosition; self.repeatMaxCount = repeatMaxCount
    }
}

/// A Notification Service Extension as an app team writes it (docs/client.md, protocol
/// version 2): PushSim simulates the chain, the clock, the deadline and XIVA's answers; the
/// client decides, for every push that reaches the extension in the queue arm, what the run
/// does, and keeps its own state between runs as the app group's storage does.
///
/// Rules the simulator holds a client to (a broken one stops the command with exit status 2
/// and a message naming the rule, the device and the letter; nothing is written):
/// - the positions of a re-request or a summary lie in `1 ...` the newest position the
///   extension has seen (the push's own at its arrival; a later one by the time a waiting run
///   is woken), never the push's own position, in ranges that do not overlap;
/// - a wait ends after the instant it is asked at and no later than the run's deadline;
/// - the answers are a function of the arguments and the state: the same run gives the same
///   answers every time and for any `--jobs` (each device's state is its own; calls for one
///   device come in the order of its virtual clock, calls for different devices from several
///   threads).
/// The main app's hooks (``appOpened(_:state:)``, ``backgroundPushArrived(_:state:)``) are
/// optional and held to the same rules; their defaults do nothing.
public protocol ServiceExtensionClient: Sendable {
    /// What the app keeps between runs: the app group's storage.
    associatedtype State: Sendable

    /// The state of a new install (the first, and after every reinstall: the storage goes
    /// with the app). A device id change keeps the state (the storage stays).
    func freshState() -> State

    /// A push reached the extension.
    func pushArrived(_ push: ArrivingPush, state: inout State) -> ExtensionAnswer

    /// A run that answered `.wait(until:)` is woken at `now`; `push` is the push it runs for.
    func woke(_ push: ArrivingPush, at now: ClientTime, state: inout State) -> ExtensionAnswer

    /// The user opened the app while the phone was online (the openings of `device.app_open`,
    /// docs/model.md §7): the main app may catch up on what the extension left, in the same
    /// state the extension keeps. The default does nothing.
    func appOpened(_ opening: AppOpening, state: inout State) -> AppAnswer

    /// A background push woke the main app while the phone was online (`queue.background_pushes`,
    /// docs/model.md §7): the app may catch up in the background, in the same state the
    /// extension keeps. Its answer is held to ``appOpened(_:state:)``'s rules, with
    /// ``BackgroundPush/newestPosition`` as the newest position. The default does nothing.
    func backgroundPushArrived(_ push: BackgroundPush, state: inout State) -> AppAnswer
}

extension ServiceExtensionClient {
    public func woke(_ push: ArrivingPush, at now: ClientTime, state: inout State) -> ExtensionAnswer { .show }
    public func appOpened(_ opening: AppOpening, state: inout State) -> AppAnswer { .nothing }
    public func backgroundPushArrived(_ push: BackgroundPush, state: inout State) -> AppAnswer { .nothing }
}
