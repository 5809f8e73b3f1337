// Where the push channels (channel: pushkit | fcm) leave the APNs path: hand-over, flush, end of run.

extension DeviceWorld {
    /// A copy is due at a device whose channel is not APNs (docs/model.md §12): out of line, so
    /// the APNs path keeps its code and costs one comparison.
    @inline(never) mutating func channelDelivers(copy c: CopyIndex, at now: Int64) {
        switch parameters.channel {
        case .apns: break
        case .pushkit: pushKitDelivers(copy: c, at: now)
        case .fcm: fcmDelivers(copy: c, at: now)
        }
    }

    /// The device is back online on FCM (PushKit stores nothing): the store goes out, and the
    /// app re-syncs if FCM dropped messages meanwhile.
    @inline(never) mutating func channelFlushes(at now: Int64) {
        if parameters.channel == .fcm { fcmFlush(at: now) }
    }

    /// The end of the run on FCM: what the store still holds, and re-syncs not yet made.
    @inline(never) mutating func channelCloses() {
        if parameters.channel == .fcm { fcmCloses() }
    }
}
