// What a line of `pushsim trace` says, as a typed value: readers act on the case, the text is derived.

/// Which copy of a letter's push a trace line is about.
package enum CopyRole: Equatable, Sendable {
    /// The push XIVA sent when the letter was numbered.
    case first
    /// A copy XIVA re-sent for a re-request.
    case resend
    /// The second copy APNs hands over when it delivers a push twice.
    case second
}

/// What a trace step means to a reader of the chart, in drawing order: a later kind is drawn
/// over an earlier one at the same spot, so a loss is never hidden under an ordinary step.
package enum TraceEventKind: Sendable, CaseIterable {
    case other, shown, queueWork, loss
}

/// One step of the chain as a per-device trace records it. The text a person reads is
/// ``text``; the trace command and its SVG act on the case, never on the words.
///
/// A new step gets a case here, its words in ``text`` and its ``kind`` (how the chart draws
/// it), all in this file; the compiler asks for both.
package enum TraceEvent: Equatable, Sendable {
    // The backend.
    case letterCreated
    // XIVA.
    case droppedUnknownSubscription
    case numbered(position: Int32)
    case droppedXivaOut
    /// Dropped after an app reinstall, before XIVA knew the new token.
    case droppedBeforeNewToken
    /// Held during an outage that ends after the run.
    case heldPastTheEnd
    case held(until: SimTime)
    case reRequestAnsweredWithError
    case reRequestAnswered(low: Int32, high: Int32)
    case resent(position: Int32)
    case noLongerRetained(position: Int32)
    // APNs.
    case reachedAPNs
    case olderStoredPushKept
    case storedForOfflineDevice
    case storedPushSent
    case handedOverTwice
    case copyLost(CopyRole, LossCause)
    // The provider's side of APNs (docs/model.md §9, §10).
    /// APNs refused a push or sent no answer; `answer` is the HTTP status and reason.
    case refused(answer: String)
    case answerLost
    case sentAgain(attempt: Int)
    case heldWhileAsleep
    // Low Power Mode (docs/model.md §10).
    case heldInLowPowerMode
    case lowPowerModeEnded(held: Int)
    // The binary interface (docs/model.md §11).
    case joinedConnection
    case errorPacket(heardIn: SimTime)
    case discardedByClosedConnection(checkIn: SimTime)
    case rewrittenAfterError
    case wokenByPriority10(held: Int)
    case awake
    // Other channels (docs/model.md §12) and media attachments (§8).
    case storedByFCM(held: Int)
    case droppedByFCM(reason: String)
    case storedMessageSentByFCM
    case toldOfDroppedMessages(count: Int)
    case voipPushNotReported
    case attachmentDownloaded(bytes: Int64, in: SimTime)
    case extensionKilledForMemory
    // The device and its extension.
    case connectivity(online: Bool)
    case pushArrived
    case deviceIdChanged(forgottenPosition: Int32)
    case appReinstalled(tokenKnownAt: SimTime)
    /// A push numbered for an earlier install: its device-id hash does not match.
    case foreignPushShownAsIs
    case extensionKilledEarly
    case parallelRead(position: Int32, serialPosition: Int32)
    /// `overDeadline` is the deadline when the processing takes longer than it.
    case extensionStarted(CopyRole, processing: SimTime, overDeadline: SimTime?)
    case savedFirstPosition(Int32)
    case foundGap(low: Int32, high: Int32, summary: Bool)
    /// A version-2 client (docs/client.md) asked its run to wait until `until`, or was woken.
    case clientWaits(until: SimTime)
    case clientWoken
    /// A version-2 client's re-request names more than one range: each after the first.
    case reRequestAlsoAsksFor(low: Int32, high: Int32)
    /// A user's client broke a rule of the client protocol: the command will be refused.
    case clientBrokeRule(String)
    case reRequestSentDuringOutage
    /// `lateDeadline` is the deadline (from the run's arrival) when the answer comes after it.
    case reRequestSent(low: Int32, high: Int32, answerIn: SimTime, lateDeadline: SimTime?)
    /// With a finite XIVA capacity: sent, to join the partition's queue once the instant is done;
    /// then served after `waited` (answer `answerIn` after sending), or given up at the time-out.
    case reRequestQueued(low: Int32, high: Int32)
    case reRequestServed(low: Int32, high: Int32, waited: SimTime, answerIn: SimTime, lateDeadline: SimTime?)
    case reRequestTimedOut(low: Int32, high: Int32, answerIn: SimTime, lateDeadline: SimTime?)
    case deadlineHit(waitingForAnswer: Bool)
    // The user.
    case presented
    case collapsed
    case presentedAgain
    case summaryShown(letters: Int32)
    case cleared
    /// When the user will clear a notification, said at its presentation.
    case willClear(at: SimTime)
    case openedAppOffline
    case caughtUp(fetched: Int, notShown: Int)
    /// A version-2 client's main app, opened: what its hook answered (StatefulClientApp.swift).
    case appOpenedForClient(AppHookStep)
    /// A background push to a version-2 client's app (`queue.background_pushes`): its way, the
    /// throttle, and what the app's hook answered (StatefulClientBackground.swift).
    case backgroundPushForClient(BackgroundPushStep)
    /// Background-push sync (docs/model.md §7): the app, woken by a background push or launched,
    /// fetched and shows what no notification had shown, at `shownAt`; or it was offline.
    case synced(byLaunch: Bool, fetched: Int, notShown: Int, shownAt: SimTime)
    case syncedOffline(byLaunch: Bool)
    /// A letter's fate, at the end of the run.
    case endOfRun(LetterFate)
    /// A step that has no case yet (a mechanism being added), in its own words: shown as it
    /// is and drawn as an "other event". Give the step a case above.
    case unclassified(String)

    /// What the step means on the chart (`pushsim trace --svg`): declared here, beside the
    /// step's words, so a new step states how it is drawn when it states what it says.
    package var kind: TraceEventKind {
        switch self {
        case .droppedUnknownSubscription, .droppedXivaOut, .droppedBeforeNewToken, .copyLost, .refused: return .loss
        case .reRequestAnsweredWithError, .reRequestAnswered, .resent, .foundGap, .reRequestSentDuringOutage,
             .clientWaits, .clientWoken, .reRequestAlsoAsksFor, .reRequestSent, .reRequestQueued, .reRequestServed, .reRequestTimedOut, .deadlineHit, .summaryShown, .caughtUp, .synced, .appOpenedForClient:
            return .queueWork
        case .extensionStarted(let role, _, let overDeadline): return role == .resend || overDeadline != nil ? .queueWork : .other
        case .backgroundPushForClient(let step):
            if case .answer = step { return .queueWork }
            return .other
        case .presented, .presentedAgain: return .shown
        case .endOfRun(let fate):
            switch fate {
            case .delivered: return .shown
            case .summarized, .undeliverable: return .other
            case .lost: return .loss
            }
        case .letterCreated, .numbered, .heldPastTheEnd, .held, .noLongerRetained, .reachedAPNs, .olderStoredPushKept,
             .storedForOfflineDevice, .storedPushSent, .handedOverTwice, .connectivity, .pushArrived, .deviceIdChanged,
             .extensionKilledEarly, .parallelRead, .savedFirstPosition, .collapsed, .cleared, .willClear,
             .openedAppOffline, .syncedOffline, .appReinstalled, .foreignPushShownAsIs, .unclassified, .answerLost, .sentAgain, .heldWhileAsleep, .wokenByPriority10, .awake, .heldInLowPowerMode, .lowPowerModeEnded,
             .joinedConnection, .errorPacket, .discardedByClosedConnection, .rewrittenAfterError,
             .storedByFCM, .droppedByFCM, .storedMessageSentByFCM, .toldOfDroppedMessages, .voipPushNotReported, .attachmentDownloaded, .extensionKilledForMemory,
             .clientBrokeRule:
            return .other
        }
    }

    /// The words of the trace line.
    package var text: String {
        switch self {
        case .letterCreated: return "letter created"
        case .droppedUnknownSubscription: return "dropped: unknown subscription"
        case .numbered(let p): return "numbered position \(p), sent"
        case .droppedXivaOut: return "dropped: XIVA is out"
        case .droppedBeforeNewToken: return "dropped: unknown subscription (the app was reinstalled; its new token is not known yet)"
        case .heldPastTheEnd: return "held: XIVA is out until after the end of the run"
        case .held(let until): return "held: XIVA is out until \(until)"
        case .reRequestAnsweredWithError: return "re-request answered with an error"
        case .reRequestAnswered(let low, let high): return "re-request answered: positions \(low)...\(high)"
        case .resent(let p): return "re-sent position \(p)"
        case .noLongerRetained(let p): return "position \(p) no longer retained"
        case .reachedAPNs: return "reached APNs"
        case .olderStoredPushKept: return "the older stored push kept"
        case .storedForOfflineDevice: return "stored for offline device"
        case .storedPushSent: return "stored push sent to device"
        case .handedOverTwice: return "handed over twice: a second copy follows"
        case .copyLost(let role, let cause):
            let copy = role == .second ? "second copy" : role == .resend ? "re-sent copy" : "push"
            return "\(copy) \(cause.key)"
        case .refused(let answer): return answer
        case .answerLost: return "accepted; the answer was lost"
        case .sentAgain(let attempt): return "sent again (attempt \(attempt))"
        case .heldWhileAsleep: return "priority 5 held: the device is asleep"
        case .heldInLowPowerMode: return "held: the device is in Low Power Mode"
        case .lowPowerModeEnded(let held): return "Low Power Mode ends: \(held) held"
        case .joinedConnection: return "joins the binary connection's write queue"
        case .errorPacket(let heard): return "error packet (command 8): the connection closes; XIVA hears of it in \(heard)"
        case .discardedByClosedConnection(let check): return "discarded: written on a closed connection; XIVA learns of it in \(check)"
        case .rewrittenAfterError: return "written again from XIVA's resend buffer"
        case .wokenByPriority10(let held): return "woken by a priority-10 push: \(held) held pushes follow"
        case .awake: return "awake"
        case .storedByFCM(let held): return "stored by FCM (\(held) held)"
        case .droppedByFCM(let reason): return "dropped by FCM: \(reason)"
        case .storedMessageSentByFCM: return "stored message sent by FCM"
        case .toldOfDroppedMessages(let count): return "told of \(count) dropped message(s): full re-sync, summary"
        case .voipPushNotReported: return "VoIP push not reported to CallKit: the app is terminated"
        case .attachmentDownloaded(let bytes, let time): return "attachment of \(bytes) B downloaded in \(time)"
        case .extensionKilledForMemory: return "extension killed: its decoded attachment passed the memory limit; shown as is"
        case .connectivity(let online): return online ? "online" : "offline"
        case .pushArrived: return "push arrived"
        case .deviceIdChanged(let p): return "device id changed: saved position \(p) forgotten"
        case .appReinstalled(let known): return "app reinstalled: a new token, unknown to XIVA until \(known)"
        case .foreignPushShownAsIs: return "push of an earlier install (device-id hash differs): shown as is"
        case .extensionKilledEarly: return "extension killed early: original content shown"
        case .parallelRead(let p, let serial): return "parallel run read saved position \(p); a serial run would have read \(serial)"
        case .extensionStarted(let role, let processing, let deadline):
            let started = role == .resend ? "extension started (re-sent copy)"
                : role == .second ? "extension started (second copy)" : "extension started"
            return started + ", processing \(processing)" + (deadline.map { " > deadline \($0)" } ?? "")
        case .savedFirstPosition(let p): return "extension saved first position \(p)"
        case .foundGap(let low, let high, let summary):
            return "extension found gap \(low)...\(high) (\(Int(high) - Int(low) + 1) missed): " + (summary ? "summary" : "re-request")
        case .clientWaits(let until): return "the client waits until \(until), then decides again"
        case .clientWoken: return "the client is woken to decide again"
        case .reRequestAlsoAsksFor(let low, let high): return "the same re-request also asks for positions \(low)...\(high)"
        case .clientBrokeRule(let rule): return "the client broke a rule: \(rule)"
        case .reRequestSentDuringOutage: return "re-request sent while XIVA is out: it will be answered with an error"
        case .reRequestSent(let low, let high, let answerIn, let late):
            return "re-request sent for positions \(low)...\(high), answer in \(answerIn)"
                + (late.map { ", after the deadline at \($0) from arrival" } ?? "")
        case .reRequestQueued(let low, let high):
            return "re-request sent for positions \(low)...\(high), joining XIVA's queue"
        case .reRequestServed(let low, let high, let waited, let answerIn, let late):
            return "re-request for positions \(low)...\(high) served after waiting \(waited), answer in \(answerIn)"
                + (late.map { ", after the deadline at \($0) from arrival" } ?? "")
        case .reRequestTimedOut(let low, let high, let answerIn, let late):
            return "re-request for positions \(low)...\(high) would wait past the queue time-out: answered with an error in \(answerIn)"
                + (late.map { ", after the deadline at \($0) from arrival" } ?? "")
        case .deadlineHit(let waiting):
            return "extension deadline hit " + (waiting ? "waiting for the re-request's answer" : "before its processing ended")
        case .presented: return "presented (delivered)"
        case .collapsed: return "collapsed into the notification shown"
        case .presentedAgain: return "presented again (duplicate)"
        case .summaryShown(let n): return "summary shown: \(n) letters"
        case .cleared: return "cleared by the user"
        case .willClear(let t): return "will clear at \(t)"
        case .openedAppOffline: return "opened the app offline: no catch-up"
        case .caughtUp(let fetched, let notShown):
            return "opened the app: catch-up fetched \(fetched) letter(s), \(notShown) not shown: summary"
        case .appOpenedForClient(let step): return step.text
        case .backgroundPushForClient(let step): return step.text
        case .synced(let byLaunch, let fetched, let notShown, let shownAt):
            return (byLaunch ? "launched the app" : "background push woke the app")
                + ": synced \(fetched) letter(s), \(notShown) not shown: summary at \(shownAt)"
        case .syncedOffline(let byLaunch):
            return (byLaunch ? "launched the app" : "background push woke the app") + " offline: no sync"
        case .endOfRun(let fate): return "end of run: " + fate.traceText
        case .unclassified(let text): return text
        }
    }
}

extension LetterFate {
    /// How a fate reads in a trace's closing lines.
    var traceText: String {
        switch self {
        case .delivered(let latency): return "delivered after \(SimTime(microseconds: latency - latency % SimTime.millisecond))"
        case .summarized: return "summarized"
        case .undeliverable: return "undeliverable (the app was uninstalled)"
        case .lost(let cause): return "lost (\(cause.key))"
        }
    }
}

/// The lanes of a per-device trace (`pushsim trace`), from the backend to the user.
package enum TraceLane: String, Sendable, CaseIterable {
    case backend, xiva, apns, device, user
}

/// One line of a per-device trace: when, in which lane, about which letter, and what happened.
package struct TraceEntry: Equatable, Sendable {
    package var time: Int64
    package var lane: TraceLane
    package var letter: Int?
    package var event: TraceEvent

    /// The words of the line (derived from the event).
    package var text: String { event.text }
}
