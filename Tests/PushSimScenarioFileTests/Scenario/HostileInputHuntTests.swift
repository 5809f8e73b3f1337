// The hunt after round three, the input side: messages that name the real reason for a value out of range.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct HostileInputHuntTests {
    private func message(_ overrides: [String]) -> String? {
        do { _ = try ScenarioLoader.parse(text: "name: h\nduration: 1d\ndevices: 4\n", file: "h.yaml", overrides: overrides); return nil }
        catch { return (error as? ScenarioError)?.message }
    }

    /// A size or a bandwidth too large as a constant got the distribution's generic hint
    /// (`expected a size, exponential(MEAN), …, found 1025MB`), though it reads as a size; and
    /// `1GB`, named by the range message itself, was refused without saying GB is no unit.
    @Test func aSizeOrBandwidthOutOfRangeSaysWhyAsAConstantToo() {
        let media = { (size: String, bandwidth: String) in ["extension.media={share: 1, size: \(size), bandwidth: \(bandwidth)}"] }
        for size in ["1025MB", "99999999999999999999B", "lognormal(1KB, 1025MB)"] {
            let text = message(media(size, "1Mbit/s"))
            expectEqual(text?.contains("a size of at most 1024MB (1048576KB) is expected"), true, "\(size): \(text ?? "accepted")")
        }
        for size in ["1GB", "exponential(2TB)", "5kb"] {
            let text = message(media(size, "1Mbit/s"))
            #expect(text?.contains("unknown size unit `") == true && text?.contains("expected B, KB or MB") == true, "\(size): \(text ?? "accepted")")
        }
        let payload = message(["mail.payload_size=2GB"])
        expectEqual(payload?.contains("`mail.payload_size`: unknown size unit `GB` in `2GB`"), true, "\(payload ?? "accepted")")
        let bandwidth = message(media("1KB", "99999999999999999999bit/s"))
        expectEqual(bandwidth?.contains("greater than 0 and below 10¹⁵"), true, "\(bandwidth ?? "accepted")")
        // Still read: every unit and a size at the limit.
        #expect(message(media("1024MB", "1Gbit/s")) == nil)
        #expect(message(media("uniform(1B, 1.5KB)", "lognormal(1kbit/s, 20Mbit/s)")) == nil)
    }

    /// A sweep loads its scenario once per point (and once per `--vary` value): each load read
    /// the mail trace again, so 10 points of an 8 MB trace took 26 s (debug) before the first
    /// point was even refused, and every point held its own copy; a 4 MB scenario file was parsed
    /// again per point. Both are now reused while the file is unchanged (and was last modified
    /// seconds before: file times tick coarsely), and read again once it changes.
    @Test func aMailTraceAndAScenarioAreReadOncePerFileNotOncePerLoad() throws {
        let dir = TemporaryDirectory()
        func age(_ name: String, _ seconds: Double) throws {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -seconds)], ofItemAtPath: dir.file(name))
        }
        dir.write("letters.csv", "time,device\n1,0\n5,1\n")
        let scenario = dir.write("t.yaml", "name: t\nduration: 1d\ndevices: 2\nmail: {trace: letters.csv}\n")
        // Just written: not trusted to be unchanged, read every time.
        let fresh = try #require(try ScenarioLoader.load(path: scenario).mail.trace)
        #expect(try ScenarioLoader.load(path: scenario).mail.trace !== fresh)
        try age("letters.csv", 60)
        try age("t.yaml", 60)
        let first = try #require(try ScenarioLoader.load(path: scenario).mail.trace)
        let second = try #require(try ScenarioLoader.load(path: scenario, overrides: ["apns.loss=0.5"]).mail.trace)
        #expect(first === second)
        // Another shape (devices) is another trace; a changed file is read again.
        let wider = try #require(try ScenarioLoader.load(path: scenario, overrides: ["devices=3"]).mail.trace)
        #expect(wider !== first)
        dir.write("letters.csv", "time,device\n2,1\n7,0\n")
        try age("letters.csv", 30)
        let changed = try #require(try ScenarioLoader.load(path: scenario).mail.trace)
        #expect(changed !== first)
        #expect(try ScenarioLoader.load(path: scenario).mail.trace === changed)
        // The scenario rewritten at the same size is read again, not taken from the last tree.
        try expectEqual(ScenarioLoader.load(path: scenario).devices, 2)
        dir.write("t.yaml", "name: t\nduration: 1d\ndevices: 3\nmail: {trace: letters.csv}\n")
        try age("t.yaml", 30)
        try expectEqual(ScenarioLoader.load(path: scenario).devices, 3)
    }

    /// `1/106751992d` said only "after `/` a unit or a duration, found …", though it is a
    /// duration: one too large. The duration's own reason is given now.
    @Test func aRatePeriodThatIsNoDurationSaysWhy() {
        let large = message(["mail.rate=1/106751992d"])
        expectEqual(large?.contains("after `/` a unit or a duration, found `1/106751992d` (the duration `106751992d` is too large"), true, "\(large ?? "accepted")")
        let unit = message(["mail.rate=1/3y"])
        expectEqual(unit?.contains("(unknown duration unit `y` in `3y`"), true, "\(unit ?? "accepted")")
        #expect(message(["mail.rate=1/106751991d"]) == nil)
    }

    /// A scenario path that cannot be looked up said "no such file" whatever the reason: a name
    /// past 255 bytes, a file on the way, a link loop. stat's own reason is given now.
    @Test func aScenarioPathThatCannotBeLookedUpSaysWhy() throws {
        let dir = TemporaryDirectory()
        let file = dir.write("q.yaml", "name: q\nduration: 1d\ndevices: 1\n")
        try FileManager.default.createSymbolicLink(atPath: dir.file("l1"), withDestinationPath: dir.file("l2"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("l2"), withDestinationPath: dir.file("l1"))
        func reason(_ path: String) -> String? {
            do { _ = try ScenarioLoader.load(path: path); return nil } catch { return (error as? ScenarioError)?.message }
        }
        expectEqual(reason(dir.file(String(repeating: "n", count: 300) + ".yaml"))?.hasSuffix("cannot read the scenario file: File name too long"), true)
        expectEqual(reason(file + "/x")?.hasSuffix("cannot read the scenario file: Not a directory"), true)
        expectEqual(reason(dir.file("l1"))?.hasSuffix("cannot read the scenario file: Too many levels of symbolic links"), true)
        expectEqual(reason(dir.file("none.yaml"))?.hasSuffix("cannot read the scenario file: no such file"), true)
        expectEqual(reason(dir.path)?.hasSuffix("cannot read the scenario file: expected a readable file"), true)
    }

    /// A sweep applied every `--set` again for each point and each `--vary` value: 2000 `--set`
    /// × 1000 points took 64 s (debug) before the first point was refused. They are applied
    /// once (`ScenarioLoader.prepare`), and a point is the same scenario either way.
    @Test func aPreparedScenarioIsTheScenarioWithEveryOverride() throws {
        let dir = TemporaryDirectory()
        let path = dir.write("p.yaml", "name: p\nduration: 1d\ndevices: 4\nmail: {rate: 3/d}\n")
        let base = (1...2000).map { "queue.repeat_max_count=\($0)" } + ["apns.loss=0.25", "devices=7"]
        let prepared = try ScenarioLoader.prepare(path: path, overrides: base)
        let started = Date()
        for extra in [[], ["apns.loss=0.5"], ["devices=9", "queue.repeat_max_count=3"]] {
            let fast = try ScenarioLoader.load(prepared, overrides: extra)
            let whole = try ScenarioLoader.load(path: path, overrides: base + extra)
            expectEqual(String(reflecting: fast), String(reflecting: whole), "\(extra)")
        }
        #expect(Date().timeIntervalSince(started) < 30)
        // A bad base override is refused by prepare itself, as the whole load would.
        #expect(throws: ScenarioError.self) { try ScenarioLoader.prepare(path: path, overrides: ["apns.loss=2"]) }
    }
}

