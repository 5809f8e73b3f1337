// The built pushsim given a FIFO, a socket, a device node or a folder where it writes a file: refused, never replaced.
import Foundation
import Testing
@testable import PushSimReport
@testable import PushSimCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PushSimTestSupport

/// Runs the built `pushsim` with nothing on standard input and its output dropped; killed
/// after 60 s, so a command that opens a FIFO it should have refused fails instead of hanging.
private func pushsim(_ arguments: [String]) throws -> (status: Int32, error: String) {
    let url = try BuiltTool.required()
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    let err = Pipe()
    process.standardError = err
    try process.run()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
    defer { watchdog.cancel() }
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: error, as: UTF8.self))
}

/// The file type `lstat` reports (`S_IFIFO`, `S_IFSOCK`, …), or 0 when nothing is there.
private func fileType(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
}

private func makeFIFO(_ path: String) throws {
    try #require(mkfifo(path, 0o644) == 0, "mkfifo \(path): \(String(cString: strerror(errno)))")
}

/// A listening-less Unix socket bound at `path` (the node stays after the descriptor closes).
private func makeSocket(_ path: String) throws {
    #if os(Linux)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    try #require(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path), "socket path too long: \(path)")
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (i, byte) in bytes.enumerated() { buffer[i] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    try #require(bound == 0, "bind \(path): \(String(cString: strerror(errno)))")
}

/// A character device like /dev/null (1, 3) at `path`, where the system allows making one (as
/// root, with CAP_MKNOD); nil otherwise. The tests never aim at the real /dev/null: a
/// regression would replace the machine's own.
private func makeCharacterDevice(_ path: String) -> String? {
    // 259 is (1, 3) in the Linux encoding (major << 8 | minor for small numbers); elsewhere any device serves.
    mknod(path, S_IFCHR | 0o666, dev_t(259)) == 0 ? path : nil
}

private let quickstart = SmallScenarios.path("quickstart")
private let small = ["--set", "devices=4"]

@Suite(.serialized) struct SpecialOutputPathTests {
    @Test func traceSvgRefusesEveryPathThatIsNotARegularFile() throws {
        _ = try BuiltTool.required()
        let dir = TemporaryDirectory()
        try makeFIFO(dir.file("fifo"))
        try makeSocket(dir.file("socket"))
        try FileManager.default.createDirectory(atPath: dir.file("pics"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: dir.file("fifo"))
        var targets = [dir.file("fifo"), dir.file("socket"), dir.file("pics"), dir.file("pics") + "/", dir.file("missing") + "/", dir.file("link")]
        // As root, the old code renamed a file over a device node: `--svg /dev/null` replaced the machine's.
        if let device = makeCharacterDevice(dir.file("null")) { targets.append(device) }
        let before = targets.map(fileType)
        for target in targets {
            let trace = try pushsim(["trace", quickstart, "--device", "0", "--svg", target] + small)
            expectEqual(trace.status, 2, "\(target): \(trace.status) \(trace.error)")
            #expect(trace.error.contains("cannot write '\(target)'"), "\(target): \(trace.error)")
        }
        expectEqual(targets.map(fileType), before)
        expectEqual(fileType(dir.file("missing")), 0)
        if let device = targets.first(where: { $0.hasSuffix("/null") }) {
            let trace = try pushsim(["trace", quickstart, "--device", "0", "--svg", device] + small)
            #expect(trace.error.contains("it is a character device, not a regular file"), "\(trace.error)")
        }
        let fifo = try pushsim(["trace", quickstart, "--device", "0", "--svg", dir.file("fifo")] + small)
        #expect(fifo.error.contains("it is a FIFO (named pipe), not a regular file"), "\(fifo.error)")
        // A regular file, and a link to one, are still written.
        try expectEqual(pushsim(["trace", quickstart, "--device", "0", "--svg", dir.file("ok.svg")] + small).status, 0)
        expectEqual(fileType(dir.file("ok.svg")), S_IFREG)
    }

    @Test func checkUpdateRefusesANodeAsTheBaseline() throws {
        _ = try BuiltTool.required()
        let dir = TemporaryDirectory()
        try makeFIFO(dir.file("fifo.json"))
        try FileManager.default.createDirectory(atPath: dir.file("base"), withIntermediateDirectories: false)
        try makeFIFO(dir.file("base/summary.json"))
        let device = makeCharacterDevice(dir.file("null"))
        for baseline in [dir.file("fifo.json"), dir.file("base/summary.json"), dir.file("new/summary.json") + "/"] + (device.map { [$0] } ?? []) {
            // Refused before the run, so the FIFO is never opened (which would block).
            let update = try pushsim(["check", quickstart, "--update", "--baseline", baseline, "--jobs", "1"] + small)
            expectEqual(update.status, 2, "\(baseline): \(update.status) \(update.error)")
            #expect(update.error.contains("summary.json") || update.error.contains(baseline), "\(update.error)")
        }
        expectEqual(fileType(dir.file("fifo.json")), S_IFIFO)
        expectEqual(fileType(dir.file("base/summary.json")), S_IFIFO)
        if let device { expectEqual(fileType(device), S_IFCHR) }
        expectEqual(dir.listing, ["base", "base/summary.json", "fifo.json"] + (device == nil ? [] : ["null"]))
    }

    @Test func aRunOrSweepKeepsEveryNodeOfTheFolderItDidNotWrite() throws {
        _ = try BuiltTool.required()
        let dir = TemporaryDirectory()
        let out = dir.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        try makeFIFO(out + "/fifo")
        try makeSocket(out + "/socket")
        // A link bearing a name of the run's family (a stale queue chart) is not PushSim's file.
        try FileManager.default.createSymbolicLink(atPath: out + "/" + XivaQueueReport.csvName, withDestinationPath: "elsewhere")
        for command in [["run", quickstart, "--out", out], ["run", quickstart, "--out", out],
                        ["sweep", quickstart, "--out", out, "--vary", "apns.loss=0,0.1"]] {
            let result = try pushsim(command + small + ["--jobs", "1"])
            expectEqual(result.status, 0, "\(command): \(result.error)")
            expectEqual(fileType(out + "/fifo"), S_IFIFO, "\(command)")
            expectEqual(fileType(out + "/socket"), S_IFSOCK, "\(command)")
            expectEqual(fileType(out + "/" + XivaQueueReport.csvName), S_IFLNK, "\(command)")
        }
        expectEqual(fileType(out + "/summary.json"), S_IFREG)
        expectEqual(fileType(out + "/sweep.csv"), S_IFREG)
        #expect(!dir.listing.contains { $0.contains(".pushsim-") }, "\(dir.listing)")
    }

    @Test func aNodeWhereAResultFileGoesIsRefusedAndKept() throws {
        _ = try BuiltTool.required()
        let dir = TemporaryDirectory()
        let out = dir.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        try makeFIFO(out + "/summary.json")
        let run = try pushsim(["run", quickstart, "--out", out, "--jobs", "1"] + small)
        expectEqual(run.status, 2, "\(run.error)")
        #expect(run.error.contains("cannot write '\(out)/summary.json': it is a FIFO (named pipe), not a regular file"), "\(run.error)")
        try makeSocket(out + "/sweep.csv")
        let sweep = try pushsim(["sweep", quickstart, "--out", out, "--vary", "apns.loss=0,0.1", "--jobs", "1"] + small)
        expectEqual(sweep.status, 2, "\(sweep.error)")
        #expect(sweep.error.contains("sweep.csv': it is a socket"), "\(sweep.error)")
        expectEqual(dir.listing, ["out", "out/summary.json", "out/sweep.csv"])
        expectEqual(fileType(out + "/summary.json"), S_IFIFO)
        expectEqual(fileType(out + "/sweep.csv"), S_IFSOCK)
        // The folder itself a FIFO: named as what it is.
        try makeFIFO(dir.file("fifo-out"))
        let intoFIFO = try pushsim(["run", quickstart, "--out", dir.file("fifo-out"), "--jobs", "1"] + small)
        expectEqual(intoFIFO.status, 2)
        #expect(intoFIFO.error.contains("it is a FIFO (named pipe), not a folder"), "\(intoFIFO.error)")
        expectEqual(fileType(dir.file("fifo-out")), S_IFIFO)
    }

    /// Every run writes its load series: a FIFO where `load.csv` goes is refused with the others,
    /// before the run, and kept; nothing else is written.
    @Test func aNodeWhereTheLoadSeriesGoesIsRefusedAndKept() throws {
        _ = try BuiltTool.required()
        let dir = TemporaryDirectory()
        let out = dir.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        try makeFIFO(out + "/" + LoadReport.csvName)
        let run = try pushsim(["run", quickstart, "--out", out, "--jobs", "1"] + small)
        expectEqual(run.status, 2, "\(run.error)")
        #expect(run.error.contains("cannot write '\(out)/\(LoadReport.csvName)': it is a FIFO (named pipe), not a regular file"), "\(run.error)")
        expectEqual(dir.listing, ["out", "out/" + LoadReport.csvName])
        expectEqual(fileType(out + "/" + LoadReport.csvName), S_IFIFO)
    }

    /// Hunt: an output path that names one of the command's own inputs (the scenario, its mail
    /// trace, a part) was renamed over it: `trace q.yaml --svg q.yaml` replaced the scenario, a
    /// trace named `xiva-queue.csv` in its `--out` was removed as a stale queue report.
    @Test func noResultIsWrittenOverAnInputOfTheCommand() throws {
        _ = try BuiltTool.required()
        let dir = TemporaryDirectory()
        let scenarioText = try String(contentsOfFile: quickstart, encoding: .utf8)
        let scenario = dir.write("q.yaml", scenarioText)
        try FileManager.default.createDirectory(atPath: dir.file("s"), withIntermediateDirectories: false)
        let inOwnOut = dir.write("s/summary.json", scenarioText)
        for command in [["trace", scenario, "--device", "0", "--svg", scenario],
                        ["trace", scenario, "--device", "0", "--svg", dir.path + "/./q.yaml"],
                        ["check", scenario, "--update", "--baseline", scenario],
                        ["run", inOwnOut, "--out", dir.file("s")],
                        ["check", inOwnOut, "--update", "--baseline", inOwnOut]] {
            let result = try pushsim(command + small + ["--jobs", "1"].filter { _ in command[0] != "trace" })
            expectEqual(result.status, 2, "\(command): \(result.status) \(result.error)")
            #expect(result.error.contains("is the scenario file this command reads"), "\(command): \(result.error)")
        }
        try expectEqual(String(contentsOfFile: scenario, encoding: .utf8), scenarioText)
        try expectEqual(String(contentsOfFile: inOwnOut, encoding: .utf8), scenarioText)
        expectEqual(dir.listing, ["q.yaml", "s", "s/summary.json"])

        // A mail trace bearing a stale result's name in --out: it would have been removed.
        let trace = "time,device\n1,0\n"
        dir.write(XivaQueueReport.csvName, trace)
        let traced = dir.write("t.yaml", scenarioText.replacingOccurrences(of: "  rate: 40/d", with: "  trace: \(XivaQueueReport.csvName)"))
        let run = try pushsim(["run", traced, "--out", dir.path, "--jobs", "1"] + small)
        expectEqual(run.status, 2, "\(run.error)")
        #expect(run.error.contains("is the mail trace this command reads"), "\(run.error)")
        try expectEqual(String(contentsOfFile: dir.file(XivaQueueReport.csvName), encoding: .utf8), trace)

        // A part named summary.json in the merge's own --out.
        let partPath = dir.file("s/summary.json")
        let partText = try shardJSON(quickstart, small)
        dir.write("s/summary.json", partText)
        let merge = try pushsim(["merge", partPath, "--out", dir.file("s")])
        expectEqual(merge.status, 2, "\(merge.error)")
        #expect(merge.error.contains("is a partial result this command reads"), "\(merge.error)")
        try expectEqual(String(contentsOfFile: partPath, encoding: .utf8), partText)

        // A link to the scenario is replaced, not its target; another path is written.
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.svg"), withDestinationPath: scenario)
        try expectEqual(pushsim(["trace", scenario, "--device", "0", "--svg", dir.file("link.svg")] + small).status, 0)
        try expectEqual(String(contentsOfFile: scenario, encoding: .utf8), scenarioText)
    }
}

/// The partial result `run FILE --shard 0/1 --json` prints.
private func shardJSON(_ file: String, _ extra: [String]) throws -> String {
    let url = try BuiltTool.required()
    let process = Process()
    process.executableURL = url
    process.arguments = ["run", file, "--shard", "0/1", "--json", "--jobs", "1"] + extra
    process.standardInput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
