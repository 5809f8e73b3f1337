// An observation file written from typed observations: the example a team copies, and the files recovery studies calibrate.
import PushSimExperiment

extension ObservationFile {
    /// `observations` as an observation file that ``read(path:)`` reads back to the same values.
    package static func json(_ observations: CalibrationObservations, description: String? = nil) -> JSONValue {
        var top: [String: JSONValue] = [:]
        // A count reads as a count (`630454`, not `630454.0`).
        func size(_ x: Double) -> JSONValue { x == x.rounded() && abs(x) < 1e15 ? .int(Int(x)) : .double(x) }
        if let description { top["description"] = .string(description) }
        func shares(_ s: ObservedShares, sizeKey: String) -> JSONValue {
            .object([sizeKey: size(s.sampleSize),
                     "shares": .object(Dictionary(uniqueKeysWithValues: s.shares.map { ($0.category, JSONValue.double($0.value)) }))])
        }
        if let c = observations.console { top["apns_console"] = shares(c, sizeKey: "pushes") }
        if let g = observations.gapSizes { top["gap_sizes"] = shares(g, sizeKey: "gaps") }
        if let only = observations.gapsPerPush.first, only.hour == nil {
            top["gaps_per_push"] = .object(["pushes": size(only.pushes), "value": .double(only.value)])
        } else if !observations.gapsPerPush.isEmpty {
            top["gaps_per_push"] = .object(["by_hour": .array(observations.gapsPerPush.map {
                .object(["hour": .int($0.hour ?? 0), "pushes": size($0.pushes), "value": .double($0.value)])
            })])
        }
        if let r = observations.reRequestsPerMinute {
            top["re_requests_per_minute"] = .object(["value": .double(r.perMinute), "minutes": size(r.minutes), "devices": size(r.devices)])
        }
        return .object(top)
    }
}
