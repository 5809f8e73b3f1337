// The estimate's factors for Low Power, Focus and the scheduled summary against a release build's measured work.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment

/// Low Power's windows, Focus's windows and the summary's times cost work that is mostly no
/// kernel event (laying windows out, searching them, scanning times), so the estimate counts it
/// in events' worth. These are the figures of a release build (x86-64, `swift build -c release`),
/// in instructions counted by callgrind, which no other work on the machine moves:
///
///     valgrind --tool=callgrind .build/release/pushsim run FILE --no-write --jobs 1
///
/// on the scenarios ``scenario(_:)`` writes (4 phones, 300 days, seed 7). An event's worth is
/// the instructions one more kernel event costs (`base` against `base40`, the same phones at
/// 4 and 40 letters a day); a mechanism's work is its run's instructions over its base's,
/// in those events. The estimate's part for the mechanism (its estimate over its base's) must
/// agree with it within ``factor`` either way.
@Suite struct EstimateCalibrationTests {
    /// How far the estimate may be from the measured work, either way.
    static let factor = 1.5

    /// Instructions of each measured run, and the kernel events of the two bases.
    static let instructions: [String: Double] = [
        "base": 93_328_709, "base40": 172_290_183,
        "low_power": 746_824_273, "focus": 749_856_472, "summary": 165_294_988,
        "low_power40": 270_703_811, "focus40": 269_033_498, "summary40": 213_691_496,
    ]
    static let baseEvents = 53_267.0, base40Events = 253_609.0

    /// `HhMm[Ss]` for a second of the day.
    static func clock(_ second: Int) -> String {
        let h = second / 3600, m = second % 3600 / 60, s = second % 60
        return s == 0 ? "\(h)h\(m)m" : "\(h)h\(m)m\(s)s"
    }

    /// `count` daily windows of `length` seconds, evenly spread over the day.
    static func windows(_ count: Int, length: Int) -> String {
        let step = 86_400 / count
        return "[" + (0..<count).map { "{start: \(clock($0 * step)), end: \(clock($0 * step + length))}" }.joined(separator: ", ") + "]"
    }

    /// The measured scenarios: `base` (4 letters a day), `low_power`, `focus` (1440 windows of
    /// 20 s a day), `summary` (1440 times a day); with 40 a day, 96 windows of 5 minutes, 96 times.
    static func scenario(_ name: String) throws -> Scenario {
        let many = !name.hasSuffix("40")
        let extra: String
        switch name {
        case "low_power", "low_power40":
            extra = "device:\n  low_power:\n    share: 1\n    windows: \(many ? windows(1440, length: 20) : windows(96, length: 300))\n"
        case "focus", "focus40":
            extra = "device:\n  focus:\n    share: 1\n    windows: \(many ? windows(1440, length: 20) : windows(96, length: 300))\n"
        case "summary", "summary40":
            let times = many ? (0..<1440).map { clock($0 * 60) } : (0..<96).map { clock($0 * 900) }
            extra = "device:\n  notification_summary:\n    share: 1\n    times: [\(times.joined(separator: ", "))]\n"
        default:
            extra = ""
        }
        let text = """
            name: \(name)
            seed: 7
            duration: 300d
            devices: 4
            mail:
              rate: \(many ? 4 : 40)/d
            connectivity:
              online: exponential(3h)
              offline: exponential(40m)

            """ + extra
        return try ScenarioLoader.parse(text: text, file: "\(name).yaml")
    }

    @Test(arguments: ["low_power", "focus", "summary", "low_power40", "focus40", "summary40"])
    func theEstimateOfAMechanismAgreesWithItsMeasuredWork(name: String) throws {
        let base = name.hasSuffix("40") ? "base40" : "base"
        let perEvent = (Self.instructions["base40"]! - Self.instructions["base"]!) / (Self.base40Events - Self.baseEvents)
        let measured = (Self.instructions[name]! - Self.instructions[base]!) / perEvent
        let estimated = ResourceEstimate(try Self.scenario(name), jobs: 1).events - ResourceEstimate(try Self.scenario(base), jobs: 1).events
        let ratio = estimated / measured
        #expect(ratio >= 1 / Self.factor && ratio <= Self.factor,
                "\(name): estimated \(Int(estimated)) events' worth, measured \(Int(measured)) (ratio \(ratio))")
    }
}
