// Tests of reading scenario files from disk: bytes as they are on disk, missing files.
import Foundation
import Testing
@testable import PushSimScenarioFile
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ScenarioLoaderTests {
    /// Writes `bytes` to a fresh temporary file and returns its path.
    private func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "pushsim-reader-\(UUID().uuidString).yaml"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func fileWithBomAndCrlfLoads() throws {
        let path = try temporaryFile([0xEF, 0xBB, 0xBF] + Array("name: t\r\nduration: 1d\r\ndevices: 3\r\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sc = try ScenarioLoader.load(path: path, overrides: ["seed=5"])
        expectEqual(sc.devices, 3)
        expectEqual(sc.seed, 5)
        try ScenarioLoader.validate(path: path)
    }

    @Test func fileWithInvalidUTF8IsRejectedWithLocation() throws {
        let path = try temporaryFile(Array("name: t\nduration: ".utf8) + [0xC3, 0x28])
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try ScenarioLoader.load(path: path)
            Issue.record("invalid UTF-8 was accepted")
        } catch let error as ScenarioError {
            expectEqual(error.location, SourceLocation(file: path, line: 2, column: 11))
        }
    }

    @Test func missingFileOrDirectoryIsAnError() {
        #expect(throws: ScenarioError.self) { try ScenarioLoader.load(path: "/nonexistent/pushsim.yaml") }
        #expect(throws: ScenarioError.self) { try ScenarioLoader.load(path: NSTemporaryDirectory()) }
    }

    @Test func loadWithSweepReturnsTheAxes() throws {
        let path = try temporaryFile(Array((minimalScenario + "sweep: {queue.repeat_max_count: [1, 2]}\n").utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (sc, axes) = try ScenarioLoader.loadWithSweep(path: path)
        expectEqual(sc.name, "t")
        expectEqual(axes, [SweepAxis(path: "queue.repeat_max_count", values: ["1", "2"])])
    }
}
