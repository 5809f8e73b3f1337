// The fifth hostile round: the counts per device beside a baseline, sweep folders drawn together, shares as fractions, segments beyond the sweep's keep.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimTestSupport

/// 200 phones for a day, offline ~40 min every ~3 h: every case starts from it.
private let base = hostileScratchScenario

@Suite(.serialized) struct HostileRoundFiveTests {
    /// A baseline and its counts per device, written by `check --update`: the folder, the
    /// scenario, the results folder and the counts' path.
    static func baseline() -> (dir: TemporaryDirectory, scenario: String, results: String, counts: String) {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let results = dir.file("res")
        let update = runPushsim(["check", scenario, "--results", results, "--update", "--jobs", "2"])
        expectEqual(update.status, 0, "\(update.err)")
        return (dir, scenario, results, results + "/base/device-counts.csv")
    }

    static func check(_ scenario: String, _ results: String) -> (status: Int32, out: String, err: String) {
        runPushsim(["check", scenario, "--results", results, "--jobs", "2"])
    }

    /// Damaged counts per device: each must be exit 2 naming FILE:LINE:COLUMN (or why the file
    /// cannot be read), quickly, and the baseline left as it was. Before: a `devices` line of
    /// 10^8 took 13 s and passed; two counts of 2^63 − 1 trapped (arithmetic overflow); a
    /// second `devices` line, a second row of one device, a file cut inside a line, bytes that
    /// are not UTF-8 and a folder in the file's place all passed unsaid.
    @Test(arguments: [
        ("devices,200", "devices,100000000", ":3:9: expected `devices,N` with 0 < N ≤ 50000"),
        ("devices,200", "devices,200\ndevices,200", ":4:1: a second `devices` line (the first is line 3)"),
        ("\noff,0,", "\noff,0,9223372036854775807,\noff,1,9223372036854775807,\noff,0,", "expected a count (a whole number from 0 to 2^53), found `9223372036854775807`"),
    ])
    func damagedCountsPerDeviceAreRefusedWhereTheyAre(edit: (String, String, String)) throws {
        let (dir, scenario, results, counts) = Self.baseline()
        _ = dir
        let text = try String(contentsOfFile: counts, encoding: .utf8)
        #expect(text.contains(edit.0))
        try text.replacingOccurrences(of: edit.0, with: edit.1).write(toFile: counts, atomically: true, encoding: .utf8)
        let summary = try String(contentsOfFile: results + "/base/summary.json", encoding: .utf8)
        let started = Date()
        let result = Self.check(scenario, results)
        expectEqual(result.status, 2, "\(result.err)")
        #expect(result.err.contains(counts), "\(result.err)")
        #expect(result.err.contains(edit.2), "\(result.err)")
        #expect(Date().timeIntervalSince(started) < 5)
        try expectEqual(String(contentsOfFile: results + "/base/summary.json", encoding: .utf8), summary)
    }

    /// A device's row twice: the second named with the first's line.
    @Test func aSecondRowOfOneDeviceIsRefused() throws {
        let (dir, scenario, results, counts) = Self.baseline()
        _ = dir
        let text = try String(contentsOfFile: counts, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let row = try #require(lines.firstIndex { $0.hasPrefix("on,") })
        try (text + lines[row] + "\n").write(toFile: counts, atomically: true, encoding: .utf8)
        let result = Self.check(scenario, results)
        expectEqual(result.status, 2, "\(result.err)")
        #expect(result.err.contains("\(counts):\(lines.count + 1):4: a second row for device"), "\(result.err)")
        #expect(result.err.contains("(the first is line \(row + 1))"), "\(result.err)")
    }

    /// A file cut inside a line, bytes that are not UTF-8, a folder in the file's place.
    @Test func aCutUnreadableOrMisplacedCountsFileIsRefused() throws {
        let (dir, scenario, results, counts) = Self.baseline()
        _ = dir
        let text = try String(contentsOfFile: counts, encoding: .utf8)
        try String(text.dropLast(3)).write(toFile: counts, atomically: true, encoding: .utf8)
        let cut = Self.check(scenario, results)
        #expect(cut.status == 2 && cut.err.contains("the file ends inside this line (it was cut short)"), "\(cut.err)")
        try (Data([0xFF, 0xFE]) + Data(text.utf8)).write(to: URL(fileURLWithPath: counts))
        let bytes = Self.check(scenario, results)
        #expect(bytes.status == 2 && bytes.err.contains("\(counts): not UTF-8 text"), "\(bytes.err)")
        try FileManager.default.removeItem(atPath: counts)
        try FileManager.default.createDirectory(atPath: counts + "/inside", withIntermediateDirectories: true)
        let folder = Self.check(scenario, results)
        #expect(folder.status == 2 && folder.err.contains("\(counts): cannot read it: it is a folder, not a file"), "\(folder.err)")
    }

    /// Line breaks written as CR LF (the file passed through an editor): read as written with LF.
    /// Before: "no `devices` line", with no line, though the file has one.
    @Test func countsWithCRLFAreReadAsTheyWere() throws {
        let (dir, scenario, results, counts) = Self.baseline()
        _ = dir
        let plain = Self.check(scenario, results)
        let text = try String(contentsOfFile: counts, encoding: .utf8)
        try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: counts, atomically: true, encoding: .utf8)
        let crlf = Self.check(scenario, results)
        expectEqual(crlf.status, plain.status, "\(crlf.err)")
        expectEqual(crlf.out, plain.out)
    }

    /// Two sweeps of one axis for `report DIR DIR --out`.
    static func twoSweeps() -> (dir: TemporaryDirectory, a: String, b: String) {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let a = dir.file("sa"), b = dir.file("sb")
        expectEqual(runPushsim(["sweep", scenario, "--vary", "mail.rate=20/d,40/d", "--out", a, "--jobs", "2"]).status, 0)
        expectEqual(runPushsim(["sweep", scenario, "--set", "devices=100", "--vary", "mail.rate=20/d,40/d", "--out", b, "--jobs", "2"]).status, 0)
        return (dir, a, b)
    }

    static func contents(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return files
    }

    /// `--out` one of the sweep folders read: its own charts were replaced by the joint
    /// figures (exit 0). Refused, every file as it was; so for another spelling of it.
    @Test func figuresOverASweepFolderReadAreRefused() {
        let (dir, a, b) = Self.twoSweeps()
        _ = dir
        let before = Self.contents(a), beforeB = Self.contents(b)
        for out in [a, b + "/.", b + "/../" + (b as NSString).lastPathComponent] {
            let result = runPushsim(["report", a, b, "--out", out])
            expectEqual(result.status, 2, "\(out): \(result.err)")
            #expect(result.err.contains("(--out): it is the sweep folder"), "\(result.err)")
        }
        expectEqual(Self.contents(a), before)
        expectEqual(Self.contents(b), beforeB)
    }

    /// One folder given twice was drawn as two populations.
    @Test func aSweepFolderGivenTwiceIsRefused() {
        let (dir, a, _) = Self.twoSweeps()
        let out = dir.file("fig")
        let result = runPushsim(["report", a, a + "/", "--out", out])
        expectEqual(result.status, 2, "\(result.err)")
        #expect(result.err.contains("is given twice"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// `apns.priority` refused `1/3`, a share every other probability takes.
    @Test func aPriorityShareTakesAFraction() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let third = runPushsim(["validate", scenario, "--set", "apns.priority=1/3", "--print"])
        expectEqual(third.status, 0, "\(third.err)")
        #expect(third.out.contains("priority: 0.333333"), "\(third.out)")
        let over = runPushsim(["validate", scenario, "--set", "apns.priority=4/3"])
        #expect(over.status == 2 && over.err.contains("--set:1:15:"), "\(over.err)")
    }

    /// A fraction of whole numbers of 19 or more digits was said not to be of whole numbers.
    @Test func aFractionOfLongNumbersSaysSo() {
        let dir = TemporaryDirectory()
        let scenario = dir.write("base.yaml", base)
        let result = runPushsim(["validate", scenario, "--set", "device.alerts_off=9223372036854775807/9223372036854775807"])
        expectEqual(result.status, 2)
        #expect(result.err.contains("--set:1:19: `device.alerts_off`: a fraction's numbers have at most 18 digits each"), "\(result.err)")
    }

    /// A sweep of more segments than it keeps metrics for drew no figure of segments and said nothing.
    @Test func segmentFiguresBeyondTheKeptSegmentsAreNamed() {
        let dir = TemporaryDirectory()
        let segments = (0..<40).map { "  - {name: s\($0), share: 1/40}" }.joined(separator: "\n")
        let scenario = dir.write("many.yaml", base.replacingOccurrences(of: "devices: 200", with: "devices: 80")
                                 + "segments:\n" + segments + "\n")
        for option in ["--segments-together", "--segment-charts"] {
            let result = runPushsim(["sweep", scenario, "--vary", "mail.rate=20/d,40/d", option, "--no-write", "--set", "duration=2h"])
            expectEqual(result.status, 0, "\(result.err)")
            #expect(result.err.contains("\(option): 'base' has 40 segments, more than the 32 a sweep keeps each metric of"), "\(result.err)")
        }
    }

    /// A sweep.json whose means or intervals no sweep measures (1e308) trapped the joint
    /// figures (signal 4 in the tick labels). Refused, named by the key path, nothing written.
    @Test(arguments: [("1e308", "null"), ("-1e308", "null"), ("0.5", "1e308")])
    func aSweepOfImpossibleValuesIsRefused(values: (String, String)) throws {
        let (dir, a, b) = Self.twoSweeps()
        let path = b + "/sweep.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let doctored = try Regex(#""loss_rate": \{\s*"ci95": [^,]*,\s*"mean": [^}]*\}"#)
        let replaced = text.replacing(doctored, with: "\"loss_rate\": {\"ci95\": \(values.1), \"mean\": \(values.0)}")
        #expect(replaced != text)
        try replaced.write(toFile: path, atomically: true, encoding: .utf8)
        let out = dir.file("fig")
        let result = runPushsim(["report", a, b, "--out", out])
        expectEqual(result.status, 2, "\(result.err)")
        #expect(result.err.contains("\(path): `points[0].runs[0].loss_rate."), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
