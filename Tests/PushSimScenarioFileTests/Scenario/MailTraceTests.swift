// Tests of `mail.trace` (§6.2): the CSV's rows into per-device sorted times, errors at FILE.csv:LINE:COLUMN, conflicts.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct MailTraceTests {
    private func trace(_ csv: String, duration: Int64 = SimTime.day, devices: Int = 3) throws -> MailTrace {
        try MailTraceReader.read(bytes: Array(csv.utf8), file: "t.csv", duration: SimTime(microseconds: duration), devices: devices)
    }
    private func traceError(_ csv: String, duration: Int64 = SimTime.day, devices: Int = 3) -> ScenarioError? {
        do { _ = try trace(csv, duration: duration, devices: devices); return nil } catch { return error as? ScenarioError }
    }

    @Test func rowsGoToTheirDeviceSortedByTime() throws {
        let t = try trace("time,device\r\n7200,1\n\n0.5,0\r\n3600,1\n3600,1\n10.0000005,2\n10.0000004999,2\n")
        expectEqual(t.count, 6)
        expectEqual(t.offsets, [0, 1, 4, 6])
        expectEqual(Array(t.letters(device: 0)), [500_000])
        expectEqual(Array(t.letters(device: 1)), [3_600_000_000, 3_600_000_000, 7_200_000_000])
        // Half up to the microsecond: …0005 → …001, …0004999 → …000.
        expectEqual(Array(t.letters(device: 2)), [10_000_000, 10_000_001])
        #expect(t.letters(device: 3).isEmpty && t.letters(device: -1).isEmpty)
        try expectEqual(trace("time,device\n").count, 0)
        try expectEqual(trace("\u{FEFF}time,device\n1,0").count, 1)
        try expectEqual(trace("\n\ntime,device\n1,0\n").count, 1)
    }

    @Test func badRowsAreReportedAtTheirField() {
        let late = traceError("time,device\n1,0\n86400,2\n")
        expectEqual(place(late), "t.csv:3:1")
        expectEqual(late?.message.contains("`time`: expected a time before `duration` (1d"), true)
        #expect(traceError("time,device\n86399.9999995,0\n") != nil)   // rounds up to the duration itself
        #expect(traceError("time,device\n86399.9999994,0\n") == nil)
        let device = traceError("time,device\n1,0\n2,3\n")
        expectEqual(place(device), "t.csv:3:3")
        expectEqual(device?.message, "`device`: expected a device number in [0, 3) (`devices: 3`), found `3`")
        let number = traceError("time,device\n1e3,0\n")
        expectEqual(place(number), "t.csv:2:1")
        expectEqual(number?.message.contains("`time`: expected seconds since time 0"), true)
        expectEqual(place(traceError("time,device\n-1,0\n")), "t.csv:2:1")
        expectEqual(place(traceError("time,device\n1.,0\n")), "t.csv:2:1")
        expectEqual(place(traceError("time,device\n99999999999999999999999,0\n")), "t.csv:2:1")
        expectEqual(place(traceError("time,device\n12,x\n")), "t.csv:2:4")
        expectEqual(place(traceError("time,device\n12,99999999999999999999999\n")), "t.csv:2:4")
        expectEqual(place(traceError("time,device\n12,\n")), "t.csv:2:4")
        expectEqual(place(traceError("time,device\n12\n")), "t.csv:2:3")
        expectEqual(traceError("time,device\n12\n")?.message.contains("(no `,`)"), true)
        let third = traceError("time,device\n12,1,5\n")
        expectEqual(place(third), "t.csv:2:5")
        expectEqual(third?.message.contains("expected two fields"), true)
        // Columns count characters, not bytes.
        expectEqual(place(traceError("time,device\n\u{00E9}1,0\n")), "t.csv:2:1")
        let header = traceError("device,time\n1,0\n")
        expectEqual(place(header), "t.csv:1:1")
        expectEqual(header?.message, "expected the header `time,device` on the first line of a trace, found `device,time`")
        expectEqual(traceError("")?.message.contains("found nothing"), true)
    }

    @Test func aTraceIsReadRelativeToTheScenarioFile() throws {
        let folder = TemporaryDirectory()
        folder.write("traffic.csv", "time,device\n3600,1\n60,0\n")
        let path = folder.write("s.yaml", "name: s\nduration: 1d\ndevices: 2\nmail:\n  trace: traffic.csv\n")
        let sc = try ScenarioLoader.load(path: path)
        expectEqual(sc.mail.trace?.path, "traffic.csv")
        expectEqual(sc.mail.trace?.count, 2)
        expectEqual(Array(sc.mail.trace?.letters(device: 0) ?? []), [60_000_000])
        // parse(text:file:) resolves against the folder of the file name given.
        let text = try ScenarioLoader.parse(text: "name: s\nduration: 1d\ndevices: 2\nmail: {trace: traffic.csv}\n", file: folder.file("x.yaml"))
        expectEqual(text.mail.trace?.count, 2)
        // A bad row names the CSV file, its line and the field's column.
        folder.write("bad.csv", "time,device\n1,0\n2,2\n")
        let bad = loadError(path, overrides: ["mail.trace=bad.csv"])
        expectEqual(bad?.description.hasPrefix(folder.file("bad.csv") + ":3:3: `device`"), true)
        // With segments, a trace is shared: segments give no mail keys but may give the rest.
        let segmented = try ScenarioLoader.load(path: path, overrides: ["segments=[{name: a, share: 1, device: {alerts_off: 1}}]"])
        expectEqual(segmented.segments[0].mail.trace?.count, 2)
    }

    @Test func traceErrorsInTheScenario() throws {
        let folder = TemporaryDirectory()
        folder.write("traffic.csv", "time,device\n1,0\n")
        let base = "name: s\nduration: 1d\ndevices: 2\n"
        let path = folder.write("s.yaml", base + "mail:\n  rate: 40/d\n  trace: traffic.csv\n")
        let both = loadError(path)
        #expect(both?.location?.line == 5 && both?.location?.column == 3)
        expectEqual(both?.message.hasPrefix("`mail.rate` cannot be given with `mail.trace`"), true)
        let set = folder.write("t.yaml", base + "mail:\n  trace: traffic.csv\n")
        for override in ["mail.daily_profile=[1]", "mail.bursts={rate: 1/d, size: 1}", "mail.rate=1/d"] {
            let error = loadError(set, overrides: [override])
            expectEqual(error?.location?.file, "--set", "\(override)")
            expectEqual(error?.message.contains("cannot be given with `mail.trace`"), true)
        }
        let missing = loadError(folder.write("m.yaml", base + "mail: {trace: nowhere.csv}\n"))
        #expect(missing?.location?.line == 4 && missing?.location?.column == 15)
        #expect(missing?.message.contains("cannot read the trace") == true && missing?.message.contains("no such file") == true)
        expectEqual(loadError(folder.write("f.yaml", base + "mail: {trace: .}\n"))?.message.contains("it is a folder"), true)
        // A device file has no end to read to: refused at once, not read.
        expectEqual(loadError(folder.write("z.yaml", base + "mail: {trace: /dev/zero}\n"))?.message.contains("it is not a regular file"), true)
        let withSegmentMail = loadError(folder.write("g.yaml", base + "mail: {trace: traffic.csv}\nsegments:\n  - {name: a, share: 1, mail: {rate: 1/d}}\n"))
        expectEqual(withSegmentMail?.location?.line, 6)
        expectEqual(withSegmentMail?.message.contains("a segment gives no `mail` keys"), true)
    }
}
