// Helpers of the `pushsim check` tests: temporary folders, a small scenario, in-process runs.
import Foundation
@testable import PushSimReport
@testable import PushSimCLI
@testable import PushSimCore

package enum CheckTestSupport {
    /// A scenario small enough for a debug build, with every kind of loss the model has
    /// (drops, display off, replaced and expired pushes, failed re-requests) so that most
    /// metrics are not zero. 300 devices × 2 days at 40/d ≈ 24 000 letters per arm.
    package static func scenarioText(name: String = "checktest", devices: Int = 300, seed: Int = 21) -> String {
        """
        name: \(name)
        seed: \(seed)
        duration: 2d
        drain: 1d
        devices: \(devices)
        mail:
          rate: 40/d
        connectivity:
          online: exponential(3h)
          offline: exponential(40m)
        xiva:
          drop: 0.5%
          latency: 50ms
          retention: 3d
          request_latency: lognormal(300ms, 2s)
          request_error: 1%
        apns:
          latency: lognormal(150ms, 3s)
          expiration: 6h
        device:
          alerts_off: 5%
        """
    }

    /// A fresh temporary folder, removed by the caller with `remove`.
    package static func temporaryFolder() throws -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("pushsim-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    package static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    package static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    package static func read(_ path: String) -> String {
        (FileManager.default.contents(atPath: path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Runs `pushsim ARGS` in-process.
    package static func pushsim(_ arguments: [String]) -> (status: Int32, out: String, err: String) { runPushsim(arguments) }

    /// A folder holding `scenario.yaml` and, made by `pushsim run`, its baseline
    /// `results/<name>/summary.json`. Returns (folder, scenario path, baseline path).
    package static func scenarioWithBaseline(_ text: String = scenarioText(), name: String = "checktest",
                                     extra: [String] = []) throws -> (folder: String, scenario: String, baseline: String) {
        let folder = try temporaryFolder()
        let scenario = (folder as NSString).appendingPathComponent("scenarios/\(name).yaml")
        try write(text, to: scenario)
        let out = (folder as NSString).appendingPathComponent("results/\(name)")
        let run = pushsim(["run", scenario, "--out", out, "--jobs", "2"] + extra)
        guard run.status == 0 else { throw CheckInputError("baseline run failed: \(run.err)") }
        return (folder, scenario, (out as NSString).appendingPathComponent("summary.json"))
    }

    /// Rewrites a baseline file through `edit` on its parsed JSON.
    package static func doctor(_ path: String, _ edit: (inout [String: JSONValue]) -> Void) throws {
        guard case .object(var top) = try JSONValue.parse(read(path)) else { throw CheckInputError("not an object") }
        edit(&top)
        try write(JSONValue.object(top).prettyText + "\n", to: path)
    }

    /// Applies `edit` to the fields of the arm `queue` of a baseline's top-level object.
    package static func editArm(_ top: inout [String: JSONValue], queue: String, _ edit: (inout [String: JSONValue]) -> Void) {
        guard case .array(var runs)? = top["runs"] else { return }
        for i in runs.indices {
            guard case .object(var fields) = runs[i], fields["queue"] == .string(queue) else { continue }
            edit(&fields)
            runs[i] = .object(fields)
        }
        top["runs"] = .array(runs)
    }
}
