// An observation file written from typed observations: the example a team copies, and the files recovery studies calibrate.
import PushSimExperiment

extension ObservationFile {
    /// `observations` as an observation file that ``read(path:)`` reads back to the same values.
    package static func json(_ observations: CalibrationObservations, description: String? = nil) -> JSONValue {
        var top: [String: JSONValue] = [:]
        if let description { top["description"] = .string(description) }
        func shares(_ s: ObservedShares, size: String) -> JSONValue {
            .object([size: .double(s.sampleSize),
                     "shares": .object(Dictionary(uniqueKeysWithValues: s.shares.map { ($0.category, JSONValue.double($0.value)) }))])
        }
        if let c = observations.console { top["apns_console"] = shares(c, size: "pushes") }
        if let g = observations.gapSizes { top["gap_sizes"] = shares(g, size: "gaps") }
        if let only = observations.gapsPerPush.first, only.hour == nil {
            top["gaps_per_push"] = .object(["pushes": .double(only.pushes), "value": .double(only.value)])
        } else if !observations.gapsPerPush.isEmpty {
            top["gaps_per_push"] = .object(["by_hour": .array(observations.gapsPerPush.map {
                .object(["hour": .int($0.hour ?? 0), "pushes": .double($0.pushes), "value": .double($0.value)])
            })])
        }
        if let r = observations.reRequestsPerMinute {
            top["re_requests_per_minute"] = .object(["value": .double(r.perMinute), "minutes": .double(r.minutes), "devices": .double(r.devices)])
        }
        return .object(top)
    }
}
