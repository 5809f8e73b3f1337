// The determinism guard: every bundled scenario, run twice in separate processes, gives the same bytes.
import Foundation
import Testing
import PushSimTestSupport

@Suite struct DeterminismTests {
    /// The repository's root, found from this file's place in it.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }   // Tests/PushSimCoreTests/DeterminismTests.swift
        return url.path
    }()

    static var bundledScenarios: [String] {
        let folder = (root as NSString).appendingPathComponent("scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }

    /// The built `pushsim` executable: SwiftPM puts it in the folder of the test bundle.
    static var executable: String? {
        let fm = FileManager.default
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first { candidates.append(URL(fileURLWithPath: first)) }
        candidates.append(Bundle.main.bundleURL)
        if let exe = Bundle.main.executableURL { candidates.append(exe) }
        for candidate in candidates {
            var folder = candidate.resolvingSymlinksInPath()
            for _ in 0..<4 {   // the bundle itself, or a file inside PushSimPackageTests.xctest/Contents/MacOS
                folder.deleteLastPathComponent()
                let path = folder.appendingPathComponent("pushsim").path
                if fm.isExecutableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    /// Runs the executable; returns its exit status and standard output (standard error is
    /// discarded: it holds timings, which are allowed to differ).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (Int32, Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    @Test func thereAreBundledScenarios() {
        #expect(DeterminismTests.bundledScenarios.count >= 6)
    }

    /// Twice in separate processes, with a different number of threads and a different time
    /// zone, at 150 devices so a debug build stays quick: the JSON must match byte for byte.
    @Test(arguments: DeterminismTests.bundledScenarios)
    func aScenarioGivesTheSameBytesInEveryProcess(_ name: String) throws {
        guard let executable = DeterminismTests.executable else {
            Issue.record("the pushsim executable was not found next to the test bundle (\(CommandLine.arguments.first ?? "?")); build it with `swift build`")
            return
        }
        let arguments = ["run", "scenarios/\(name)", "--json", "--no-write", "--set", "devices=150"]
        let (status1, first) = try DeterminismTests.run(executable, arguments + ["--jobs", "1"], environment: ["TZ": "UTC"])
        let (status2, second) = try DeterminismTests.run(executable, arguments + ["--jobs", "3"], environment: ["TZ": "Asia/Tokyo"])
        expectEqual(status1, 0)
        expectEqual(status2, 0)
        #expect(!first.isEmpty)
        expectEqual(first, second, "\(name): two processes gave different JSON")
        #expect(String(decoding: first, as: UTF8.self).hasPrefix("{\"runs\":["))
    }
}
