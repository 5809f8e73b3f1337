// Ctrl-C and SIGTERM during a real run of the built `pushsim`, in a child process: fast exit, 130/143, earlier results untouched.
import Foundation
import Testing
@testable import PushSimCLI
@testable import PushSimCore
import PushSimTestSupport

/// A child `pushsim` process with its standard error captured (other suites signal one too).
final class PushsimChild {
    let process = Process()
    private let errorPipe = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = try BuiltTool.required()
        process.arguments = arguments
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits up to `seconds` for the child to end; true if it did.
    func wait(upTo seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        return !process.isRunning
    }

    var standardError: String {
        String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}



@Suite(.serialized) struct InterruptTests {
    /// A run (a search, a bench rung) that takes minutes in a debug build, yet fits the
    /// default resource limits; the signal tests share it.
    static let longScenario = """
        name: long
        seed: 9
        duration: 7d
        drain: 1d
        devices: 3000000
        mail:
          rate: 40/d
        connectivity:
          online: exponential(3h)
          offline: exponential(30m)

        """

    /// Starts a long run writing to a folder that holds earlier results, signals it, and checks
    /// what the issue asks: exit within a second with `status`, a message, nothing changed.
    private func interrupt(with signal: Int32, expecting status: Int32, jobs: Int) throws {
        let folder = NSTemporaryDirectory() + "pushsim-interrupt-\(UUID().uuidString)"
        let out = folder + "/results/long"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/long.yaml"
        _ = FileManager.default.createFile(atPath: file, contents: Data(InterruptTests.longScenario.utf8))
        _ = FileManager.default.createFile(atPath: out + "/summary.json", contents: Data("{\"earlier\": true}\n".utf8))
        _ = FileManager.default.createFile(atPath: out + "/summary.md", contents: Data("# earlier results\n".utf8))
        let before = snapshot(folder)

        let child = try PushsimChild(["run", file, "--out", out, "--jobs", String(jobs)])
        // Let it get well into the run (handlers are installed before the first device).
        usleep(1_500_000)
        #expect(child.process.isRunning, "the run ended before it could be interrupted")
        kill(child.process.processIdentifier, signal)
        let signalled = Date()
        let ended = child.wait(upTo: 10)
        let seconds = Date().timeIntervalSince(signalled)
        if !ended { kill(child.process.processIdentifier, SIGKILL); _ = child.wait(upTo: 5) }
        try #require(ended, "pushsim did not stop after the signal")

        // Stopping waits for no device to finish (a device of this scenario takes milliseconds);
        // the bound is loose for a loaded machine and still far below the run's length.
        #expect(seconds < 5, "took \(seconds) s to stop")
        expectEqual(child.process.terminationReason, .exit)
        expectEqual(child.process.terminationStatus, status)
        let message = child.standardError
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(message.contains("pushsim: interrupted (\(name)): the run of 'long' was not finished"), "\(message)")
        #expect(message.contains("devices done"))
        #expect(message.contains("no results were written"))
        // The earlier results are exactly as they were, and no temporary file is left anywhere.
        expectEqual(snapshot(folder), before)
    }

    @Test func sigintStopsARunAndLeavesEarlierResultsUnchanged() throws {
        try interrupt(with: SIGINT, expecting: 130, jobs: 1)
    }

    @Test func sigtermStopsAThreadedRunWithStatus143() throws {
        try interrupt(with: SIGTERM, expecting: 143, jobs: 2)
    }

    @Test func theMessageNamesWhatWasNotFinished() {
        let interruption = Interruption()
        interruption.begin("the run of 'x'", total: 100, unit: "devices", consequence: "no results were written")
        interruption.advance(by: 25)
        #expect(interruption.message(signal: SIGINT)
                == "pushsim: interrupted (SIGINT): the run of 'x' was not finished (25 of 100 devices done); no results were written\n")
        interruption.update(phase: "writing the results", consequence: "the folder holds the earlier results or the new ones, whole")
        #expect(interruption.message(signal: SIGTERM).contains("(writing the results); the folder holds"))
        interruption.end()
        expectEqual(interruption.message(signal: SIGTERM), "pushsim: interrupted (SIGTERM)\n")
        expectEqual(Interruption.exitStatus(signal: SIGINT), 130)
        expectEqual(Interruption.exitStatus(signal: SIGTERM), 143)
    }

    @Test func anOversizedScenarioIsRefusedByTheExecutableQuickly() throws {
        let folder = NSTemporaryDirectory() + "pushsim-refuse-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/big.yaml"
        _ = FileManager.default.createFile(atPath: file, contents: Data(InterruptTests.longScenario.replacingOccurrences(of: "devices: 3000000", with: "devices: 1000000000000000").utf8))
        let started = Date()
        let child = try PushsimChild(["run", file, "--out", folder + "/out"])
        #expect(child.wait(upTo: 10))
        // A bound on building the world, not a timing: a run of 10^15 devices would take years.
        #expect(Date().timeIntervalSince(started) < 8)
        expectEqual(child.process.terminationStatus, 2)
        #expect(child.standardError.contains("refusing to run 'long'"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }
}
