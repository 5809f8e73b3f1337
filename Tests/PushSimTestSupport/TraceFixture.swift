// The hand-built one-device world whose trace the trace tests check rule by rule.
import Foundation
@testable import PushSimCore
@testable import PushSimScenarioFile

package enum TraceFixture {
    /// One device, constant latencies, always online except one window 08:00–12:00 on day 0.
    package static let text = """
    name: trace-golden
    seed: 4
    duration: 1d
    drain: 2h
    devices: 1
    mail:
      rate: 16/d
    connectivity:
      windows:
        - {start: 8h, end: 12h}
    xiva:
      latency: 50ms
      request_latency: 300ms
      resend_latency: 200ms
    apns:
      latency: 100ms
      expiration: 1d
    device:
      clear_after: 2h
    extension:
      processing: 200ms
    queue:
      repeat_max_count: 10
    """

    package static func scenario() throws -> Scenario { try ScenarioLoader.parse(text: text, file: "trace-golden.yaml") }

    package static let ms = SimTime.millisecond
    package static let windowStart = 8 * SimTime.hour, windowEnd = 12 * SimTime.hour

    /// Letter i's creation time, from its "created" line.
    package static func created(_ entries: [TraceEntry]) -> [Int: Int64] {
        var times: [Int: Int64] = [:]
        for e in entries where e.lane == .backend { if let l = e.letter { times[l] = e.time } }
        return times
    }
}
