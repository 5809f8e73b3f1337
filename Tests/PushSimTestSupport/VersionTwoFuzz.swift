// Fuzzed version-2 scenarios shared by the find/run agreement and the check-key tests.
import Foundation
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment

/// Fuzzed version-2 scenarios: a base with a warm-up and segments (or none), and a random set of
/// mechanisms switched on through `--set`, so every version-2 key meets segments and warm-ups.
package enum VersionTwoFuzz {
    /// Each mechanism as the overrides that switch it on (a combination the reader refuses is
    /// skipped by the caller, as a user's refused file would be).
    package static let mechanisms: [(name: String, overrides: [String])] = [
        ("daily_profile", ["mail.daily_profile=[1,1,1,1,1,1,2,4,6,6,6,6,6,6,6,6,6,6,5,4,3,2,1,1]"]),
        ("bursts", ["mail.bursts={rate: 2/d, size: 6, spread: 2m}"]),
        ("windows", ["connectivity.windows=[{start: 22h, length: uniform(6h, 9h), spread: 2h, every: 1d}]"]),
        ("keep_older", ["apns.keep_older=0.3", "apns.keep_window=1s"]),
        ("duplicate", ["apns.duplicate=0.02"]),
        ("outage", ["xiva.outages=[{start: 10h, end: 11h30m}]"]),
        ("outage_drop", ["xiva.outages=[{start: 20h, end: 21h, every: 1d}]", "xiva.outage_mode=drop"]),
        ("capacity", ["xiva.capacity=1/s", "xiva.partitions=2", "xiva.queue_timeout=20s"]),
        ("catch_up", ["recovery=catch_up", "device.app_open=exponential(3h)"]),
        ("no_recovery", ["recovery=none"]),
        ("background_sync", ["recovery=background_sync", "device.app_open=exponential(3h)",
                             "device.background_sync={throttle: 2/h, over_throttle: drop, force_quit: 0.3, delay: exponential(30s)}"]),
        ("early_kill", ["extension.early_kill=0.1"]),
        ("id_change", ["device.id_change=1/2d"]),
        ("reinstall", ["device.reinstall=1/2d", "device.reinstall_delay=exponential(2h)"]),
        ("parallel", ["extension.concurrency=parallel", "extension.save_delay=lognormal(50ms, 2s)"]),
        ("payload", ["mail.payload_size=lognormal(1500B, 5120B)"]),
        ("uninstall", ["device.uninstall=1/3d"]),
        ("token_limit", ["apns.token_limit=5", "apns.token_window=1h"]),
        ("answers", ["apns.server_error=0.05", "apns.answer_loss=0.05", "xiva.retry={attempts: 3, backoff: exponential(2s)}"]),
        ("apns_store", ["apns.store={slots: 3, keep: random, per: collapse_id}", "apns.answer_loss=0.1", "xiva.retry={attempts: 2, backoff: 1m}"]),
        ("apns_store_oldest", ["apns.store={slots: 2, keep: oldest}", "apns.expiration=2h"]),
        // The second outage outlasts the retries, and slow re-sends of the first one's gaps meet
        // it: the queue arm loses letters to an outage too.
        ("apns_outage", ["apns.outages=[{start: 10h, end: 12h, share: 60%}, {start: 1d5h, length: 6h, answer: unreachable}]",
                         "xiva.retry={attempts: 4, backoff: exponential(5m)}", "xiva.resend_latency=uniform(0s, 20h)"]),
        ("token_refresh", ["apns.token_refresh={every: uniform(5m, 80m), lockout: uniform(10m, 1h)}",
                           "xiva.retry={attempts: 4, backoff: exponential(20m)}"]),
        ("binary", ["apns.interface=binary", "apns.malformed=0.01", "apns.connection_rate=2/s",
                    "apns.error_delay=exponential(2s)", "xiva.resend_buffer=5"]),
        ("sleep", ["apns.priority=0.4", "device.sleep={awake: exponential(2h), asleep: exponential(1h)}"]),
        ("media", ["extension.media={share: 0.3, size: lognormal(204800B, 5242880B), bandwidth: uniform(200000bit/s, 20000000bit/s), cache_hit: 0.3}"]),
        ("low_power", ["device.low_power={share: 0.5, windows: [{start: 19h, end: 23h}, {start: 23h30m, end: 1h}]}"]),
        ("low_power_sleep", ["apns.priority=0.4", "device.sleep={awake: exponential(2h), asleep: exponential(1h)}",
                             "device.low_power={share: 0.7, windows: [{start: 6h, end: 12h}], release_order: held}"]),
        ("memory_limit", ["extension.media={share: 0.4, size: lognormal(204800B, 5242880B), bandwidth: uniform(200000bit/s, 20000000bit/s), cache_hit: 0.3, memory_limit: 2MB, decode_factor: 8}"]),
        ("focus_summary", ["device.notification_summary={share: 0.5, times: [8h, 18:00]}", "device.focus={share: 0.5, windows: [{start: 22h, end: 7h}]}",
                           "device.time_sensitive_off=0.3", "apns.time_sensitive=0.4"]),
        ("pushkit", ["channel=pushkit", "pushkit.report_failure=0.1", "pushkit.cut_off_after=2"]),
        ("fcm", ["channel=fcm", "fcm.collapse_keys=2", "fcm.ttl=1d", "device.doze=[{start: 1h, end: 6h, every: 1d}]"]),
        ("expiration", ["apns.expiration=2h"]),
        ("literal", ["queue.client=literal", "queue.repeat_max_count=2"]),
    ]

    /// The base files: no segments, two, and three whose own keys move connectivity, the
    /// device, the extension and the mail; half of them with a warm-up.
    package static func base(_ k: Int, devices: Int, days: Int) -> String {
        let head = """
        name: fuzz-\(k)
        seed: \(k + 1)
        duration: \(days)d
        drain: 6h
        devices: \(devices)
        warmup: \((k / 3) % 2 == 0 ? "12h" : "0")
        mail:
          rate: 40/d
        connectivity:
          online: exponential(3h)
          offline: lognormal(2m, 2h)

        """
        switch k % 3 {
        case 0: return head
        case 1:
            return head + """
            segments:
              - {name: steady, share: 60%}
              - name: mobile
                share: 40%
                connectivity: {online: exponential(40m), offline: lognormal(30s, 20m)}

            """
        default:
            return head + """
            segments:
              - {name: a, share: 30%, mail: {rate: 80/d}}
              - {name: b, share: 30%, device: {alerts_off: 0.2, clear_after: exponential(30m)}}
              - name: c
                share: 40%
                extension: {processing: lognormal(400ms, 25s), deadline: 30s}
                connectivity: {windows: [{start: 8h, end: 9h, every: 1d}]}

            """
        }
    }

    /// Case k: its base text and overrides (a deterministic draw per k).
    package static func scenario(_ k: Int) -> (text: String, overrides: [String], mechanisms: [String]) {
        var rng = RandomStream(seed: 77_000 + UInt64(k))
        let devices = [7, 12, 20][Int(rng.next() % 3)]
        let days = 1 + Int(rng.next() % 2)
        var overrides: [String] = [], names: [String] = []
        for mechanism in mechanisms where rng.chance(0.22) {
            overrides += mechanism.overrides
            names.append(mechanism.name)
        }
        // A segment may carry a mechanism's own key (a segment's channel, its sleep).
        if k % 3 == 1 && rng.chance(0.3) { overrides.append("segments.mobile.channel=fcm"); names.append("segment_channel") }
        return (base(k, devices: devices, days: days), overrides, names)
    }
}
