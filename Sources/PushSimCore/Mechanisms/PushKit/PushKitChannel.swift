// PushKit (channel: pushkit): VoIP pushes with no store-and-forward, and the CallKit-report rule.

/// PushKit's state in one arm.
struct PushKitState {
    /// The app's failures to report a VoIP push to CallKit so far (the cut-off counts them).
    var callKitFailures = 0
}

extension DeviceWorld {
    /// A VoIP push is due at the device. Offline, it is lost: PushKit has no store (cause
    /// `no_store`). Online, the system launches the app unless it has stopped doing so; the app
    /// then fails to report the push to CallKit with probability `report_failure` (one draw from
    /// its own stream): the system terminates it before it shows anything, and after
    /// `cut_off_after` failures stops launching it for VoIP pushes for the rest of the run
    /// (cause `callkit_unreported` for the failed push and every one after the cut-off).
    mutating func pushKitDelivers(copy c: CopyIndex, at now: Int64) {
        guard deviceIsOnline(at: now) else {
            copyLost(c, .noStore, at: now)
            return
        }
        let letter = copies[c].letter.offset
        if mechanisms.pushKit.callKitFailures >= parameters.callKitCutOffAfter {
            copyLost(c, .callKitUnreported, at: now)
            return
        }
        if armState.streams.mechanismStreams.callKit.chance(parameters.callKitFailure) {
            mechanisms.pushKit.callKitFailures += 1
            ledger.callKitFailures += counted(letter)
            if mechanisms.pushKit.callKitFailures == parameters.callKitCutOffAfter { ledger.devicesCutOff += counted(letter) }
            note(.device, letter, .voipPushNotReported, at: now)
            copyLost(c, .callKitUnreported, at: now)
            return
        }
        deviceReceives(copy: c, at: now)
    }
}
