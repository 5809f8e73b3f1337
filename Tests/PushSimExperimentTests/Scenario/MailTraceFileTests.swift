// The trace file as a file: links followed, pipes refused at once, a file changing underneath an error (never SIGBUS), contents in the fingerprint.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct MailTraceFileTests {
    let base = "name: s\nduration: 1d\ndevices: 3\nmail:\n  trace: traffic.csv\n"

    @Test func aSymbolicLinkToATraceReadsAsTheTrace() throws {
        let folder = TemporaryDirectory()
        folder.write("real.csv", "time,device\n1,0\n7200,2\n")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/traffic.csv", withDestinationPath: folder.path + "/real.csv")
        let scenario = try ScenarioLoader.load(path: folder.write("s.yaml", base))
        expectEqual(scenario.mail.trace?.count, 2)
        expectEqual(scenario.mail.trace?.letters(device: 2), [7_200_000_000])
    }

    @Test func aPipeIsRefusedWithoutWaitingForAWriter() throws {
        let folder = TemporaryDirectory()
        expectEqual(mkfifo(folder.path + "/traffic.csv", 0o600), 0)
        let started = Date()
        #expect(throws: ScenarioError.self) { try ScenarioLoader.load(path: folder.write("s.yaml", base)) }
        do { _ = try ScenarioLoader.load(path: folder.path + "/s.yaml") } catch let error as ScenarioError {
            #expect(error.message.contains("it is not a regular file"))
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// A file cut short while it is read ends the read early: the sizes before and after tell,
    /// and the reader says so instead of dying of SIGBUS as the mapped reader did.
    @Test func aFileShrinkingWhileItIsReadIsAnErrorOrAWholeRead() throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/big.csv"
        let full = 1 << 25, half = 1 << 24
        for _ in 0..<4 {
            #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x31, count: full)))
            let cutter = Thread { _ = truncate(path, off_t(half)) }
            cutter.start()
            do {
                let bytes = try BoundedInput.readRegularFile(path: path, limit: 1 << 30)
                // Read before or after the cut, never across it.
                #expect(bytes.count == full || bytes.count == half)
            } catch {
                expectEqual(error, .changedWhileRead)
                #expect(error.reason.contains("changed while it was read"))
            }
            while !cutter.isFinished { usleep(1000) }
        }
    }

    @Test func theFingerprintCoversTheTracesLettersNotItsPath() throws {
        let folder = TemporaryDirectory()
        let file = folder.write("s.yaml", base)
        folder.write("traffic.csv", "time,device\n1,0\n7200,2\n")
        let first = try ScenarioLoader.load(path: file).fingerprint
        try expectEqual(ScenarioLoader.load(path: file).fingerprint, first)
        folder.write("traffic.csv", "time,device\n1,0\n7201,2\n")
        #expect(try ScenarioLoader.load(path: file).fingerprint != first)
    }
}
