// Hostile inputs (docs/errors.md §1–5: text, structure, keys, values), read as whole scenario files: what people hit works, what breaks naive readers is refused with a location.
import Foundation
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

/// Reads `bytes` the way `pushsim` reads a file from disk.
private func load(_ bytes: [UInt8]) throws -> Scenario {
    let path = NSTemporaryDirectory() + "pushsim-hostile-\(UUID().uuidString).yaml"
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
        return try ScenarioLoader.load(path: path)
    } catch let error as ScenarioError {
        // Re-home the location on a stable file name for the assertions.
        var located = error
        if located.location?.file == path { located.location?.file = "f.yaml" }
        throw located
    }
}

/// The located error `bytes` give as a file, or nil if they load.
private func fileError(_ bytes: [UInt8]) -> ScenarioError? {
    do { _ = try load(bytes); return nil } catch { return error as? ScenarioError }
}

private func fileError(_ text: String) -> ScenarioError? { fileError(Array(text.utf8)) }

/// `line:column` of an error in `f.yaml`, or a note that there was none.
private func at(_ error: ScenarioError?) -> String {
    guard let location = error?.location else { return "no located error" }
    #expect(error?.description.hasPrefix("\(location.file):\(location.line):\(location.column): ") == true)
    return "\(location.line):\(location.column)"
}

/// A realistic scenario, to spoil one line at a time.
private let base = """
name: hostile
duration: 2d
devices: 20
mail:
  rate: 30/d
connectivity:
  online: exponential(2h)
  offline: exponential(20m)
apns:
  latency: lognormal(150ms, 3s)

"""

@Suite struct HostileInputTests {
    // MARK: What people actually write, and must work

    @Test func crlfLineEndingsWork() throws {
        let scenario = try load(Array(base.replacingOccurrences(of: "\n", with: "\r\n").utf8))
        expectEqual(scenario.name, "hostile")
        expectEqual(scenario.devices, 20)
        expectEqual(scenario.connectivity.online, .exponential(mean: 2 * 3_600_000_000))
    }

    @Test func byteOrderMarkWorks() throws {
        let scenario = try load([0xEF, 0xBB, 0xBF] + Array(base.utf8))
        expectEqual(scenario.name, "hostile")
        // Locations are not shifted by the mark.
        let error = fileError([0xEF, 0xBB, 0xBF] + Array("name: x\nduration: 1d\ndevices: 0\n".utf8))
        expectEqual(at(error), "3:10")
    }

    @Test func trailingSpacesWork() throws {
        let spaced = base.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "   " }.joined(separator: "\n")
        let scenario = try load(Array(spaced.utf8))
        expectEqual(scenario.name, "hostile")
        expectEqual(scenario.duration, SimTime(microseconds: 2 * SimTime.day))
    }

    @Test func commentsEverywhereWork() throws {
        let text = """
        # a header
           # an indented comment
        name: hostile   # after a value
        duration: 2d#no-space-so-not-a-comment
        """
        // A `#` starts a comment only after whitespace: `2d#no…` is one plain scalar, a bad duration.
        expectEqual(at(fileError(text + "\ndevices: 1\n")), "4:11")
        let good = """
        # a header

           # an indented comment
        name: hostile   # after a value
        duration: 2d    # comment
        devices: 3      #
        mail:           # a section comment
          # inside a section, before its keys
          rate: 30/d    # rate
        connectivity:
          windows:      # windows
            # before an item
            - {start: 8h,   # inside a flow mapping, across lines
               end: 9h}     # after it
            - [1, 2]        # not a window: checked later
        """
        let error = fileError(good)
        // The comments read fine; the decoder then rejects the list as a window, at its place.
        expectEqual(at(error), "15:7")
        let scenario = try load(Array(good.replacingOccurrences(of: "    - [1, 2]        # not a window: checked later", with: "    # the end").utf8))
        expectEqual(scenario.devices, 3)
        expectEqual(scenario.connectivity.windows.count, 1)
        expectEqual(scenario.mail.ratePerMicrosecond, 30 / Double(SimTime.day))
    }

    @Test func quotedNumbersAreStringsWhereStringsBelong() throws {
        let scenario = try load(Array("name: \"2024\"\ndescription: '42'\nduration: 1d\ndevices: 1\n".utf8))
        expectEqual(scenario.name, "2024")
        expectEqual(scenario.description, "42")
        // A plain number is a string too where a string is expected.
        try expectEqual(load(Array("name: 2024\nduration: 1d\ndevices: 1\n".utf8)).name, "2024")
        // Where a number belongs, quotes make a string, and that is an error at the value.
        let error = fileError("name: x\nduration: 1d\ndevices: \"5\"\n")
        expectEqual(at(error), "3:10")
        expectEqual(error?.message.contains("quotes make a string"), true)
    }

    // MARK: What breaks naive readers, refused with a location

    @Test func tabsInIndentationAreRefused() {
        let error = fileError(base.replacingOccurrences(of: "  rate: 30/d", with: "\trate: 30/d"))
        expectEqual(at(error), "5:1")
        expectEqual(error?.message.contains("tab"), true)
        expectEqual(at(fileError(base.replacingOccurrences(of: "  rate: 30/d", with: "  \trate: 30/d"))), "5:3")
    }

    @Test func invalidUTF8IsRefused() {
        for bad: [UInt8] in [[0xFF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0x80], [0xE2, 0x82]] {
            let error = fileError(Array("name: x\nduration: 1d\ndevices: 1\ndescription: ab".utf8) + bad + Array("\n".utf8))
            expectEqual(at(error), "4:16", "bytes \(bad)")
            expectEqual(error?.message.contains("UTF-8"), true)
        }
    }

    @Test func nulBytesAreRefused() {
        let error = fileError(Array("name: x\nduration: 1d\ndevices: 1".utf8) + [0] + Array("0\n".utf8))
        expectEqual(at(error), "3:11")
        expectEqual(error?.message.contains("NUL"), true)
    }

    @Test func nestingThousandsDeepIsRefusedWithoutStackOverflow() {
        let flow = fileError(base + "sweep:\n  seed: " + String(repeating: "[", count: 10_000) + "1" + String(repeating: "]", count: 10_000) + "\n")
        expectEqual(at(flow), "12:71")
        expectEqual(flow?.message.contains("nesting deeper than 64"), true)
        let flowMappings = fileError("a: " + String(repeating: "{a: ", count: 5_000) + "1\n")
        expectEqual(flowMappings?.message.contains("nesting"), true)
        let dashes = fileError(String(repeating: "- ", count: 20_000) + "x\n")
        expectEqual(dashes?.message.contains("nesting"), true)
        var block = "name: x\n"
        for depth in 0..<2_000 { block += String(repeating: " ", count: depth) + "k:\n" }
        let blockError = fileError(block)
        expectEqual(blockError?.message.contains("nesting"), true)
        expectEqual(at(blockError), "66:65")
    }

    @Test func aLineOfMegabytesIsRefused() {
        let line = "description: " + String(repeating: "x", count: 3_000_000) + "\n"
        let error = fileError(base + line)
        expectEqual(at(error), "11:65537")
        expectEqual(error?.message.contains("longer than 65536"), true)
        // The message does not quote the line back.
        #expect((error?.description.count ?? 0) < 300)
        // A file of many megabytes is refused before it is read.
        let huge = fileError(Array(repeating: 0x23, count: 5 * 1024 * 1024))
        expectEqual(at(huge), "1:1")
        expectEqual(huge?.message.contains("at most 4 MB"), true)
    }

    /// An endless "file" is read only up to the limit: no memory grows, the error is located.
    @Test func anEndlessDeviceIsRefusedAtItsLimit() throws {
        guard FileManager.default.fileExists(atPath: "/dev/zero") else { return }
        do {
            _ = try ScenarioLoader.load(path: "/dev/zero")
            Issue.record("/dev/zero was read as a scenario")
        } catch let error as ScenarioError {
            #expect(error.location.map { "\($0.line):\($0.column)" } == "1:1")
            #expect(error.message.contains("at most 4 MB"))
        }
    }

    @Test func longKeysAndValuesAreQuotedShortAndQuickly() {
        let key = String(repeating: "k", count: 60_000)
        let clock = ContinuousClock()
        var error: ScenarioError?
        let elapsed = clock.measure { error = fileError(base + key + ": 1\n") }
        expectEqual(at(error), "11:1")
        expectEqual(error?.message.hasPrefix("unknown key `kkkk"), true)
        expectEqual(error?.message.contains("…"), true)
        #expect((error?.message.unicodeScalars.count ?? .max) < 300)
        // No edit distance over 60 000 characters (that alone would take seconds).
        expectEqual(error?.message.contains("did you mean"), false)
        #expect(elapsed < .seconds(5))
        let value = fileError(base.replacingOccurrences(of: "duration: 2d", with: "duration: " + String(repeating: "9", count: 60_000) + "d"))
        expectEqual(at(value), "2:11")
        #expect((value?.message.unicodeScalars.count ?? .max) < 300)
    }

    @Test func duplicateKeysAreRefused() {
        let top = fileError(base + "devices: 30\n")
        expectEqual(at(top), "11:1")
        expectEqual(top?.message.contains("duplicate key `devices` (first at line 3)"), true)
        let inSection = fileError(base.replacingOccurrences(of: "  rate: 30/d\n", with: "  rate: 30/d\n  rate: 40/d\n"))
        expectEqual(at(inSection), "6:3")
        let inFlow = fileError(base + "xiva: {drop: 0, drop: 1%}\n")
        expectEqual(at(inFlow), "11:17")
        // A section written twice is a duplicate key too, not a merge.
        expectEqual(at(fileError(base + "mail:\n  rate: 1/d\n")), "11:1")
    }

    @Test func overflowingNumbersAreRefused() {
        let cases: [(String, String, String)] = [
            ("devices: 20", "devices: 9223372036854775808", "out of range"),
            ("devices: 20", "devices: 99999999999999999999999999", "out of range"),
            ("duration: 2d", "duration: 106751992d", "too large"),
            ("duration: 2d", "duration: 9223372036854775807us", "too large"),
            ("duration: 2d", "duration: 99999999999999999999h", "too large"),
            ("duration: 2d", "duration: 106751991d", "past the last instant"),  // + the default drain
            ("  rate: 30/d", "  rate: 1\(String(repeating: "0", count: 400))/us", "too large"),
        ]
        for (from, to, words) in cases {
            let error = fileError(base.replacingOccurrences(of: from, with: to))
            expectEqual(error?.location?.line, (from.hasPrefix("  rate") ? 5 : from.hasPrefix("devices") ? 3 : 2), "\(to)")
            expectEqual(error?.message.contains(words), true, "\(to): \(error?.message.prefix(300) ?? "accepted")")
        }
        let seed = fileError(base + "seed: 18446744073709551616\n")
        expectEqual(at(seed), "11:7")
        expectEqual(seed?.message.contains("does not fit an unsigned 64-bit integer"), true)
        let count = fileError(base + "queue:\n  repeat_max_count: 9223372036854775808\n")
        expectEqual(at(count), "12:21")
    }

    @Test func nanAndInfinityAreRefused() {
        let cases: [(String, String)] = [
            ("devices: .nan", "3:10"), ("duration: .inf", "2:11"),
            ("  rate: .inf/d", "5:9"), ("  rate: 1/.nan", "5:9"),
            ("  online: exponential(.inf)", "7:11"), ("  online: .nan", "7:11"),
        ]
        for (line, place) in cases {
            let key = String(line.prefix { $0 != ":" })
            let text = base.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(key + ":") ? line : String($0) }.joined(separator: "\n")
            expectEqual(at(fileError(text)), place, "\(line)")
        }
        for value in [".nan", ".inf", "-.inf", ".NaN", "nan", "inf", "NaN", "Infinity", "1e999", "-0"] {
            #expect(at(fileError(base + "device:\n  alerts_off: \(value)\n")) == "12:15", "\(value)")
            let loss = fileError(base + "xiva:\n  drop: \(value)\n")
            expectEqual(at(loss), "12:9", "\(value)")
        }
        expectEqual(at(fileError(base + "seed: .nan\n")), "11:7")
    }

    @Test func aMappingWhereAScalarBelongsIsRefused() {
        let flow = fileError(base.replacingOccurrences(of: "devices: 20", with: "devices: {count: 20}"))
        expectEqual(at(flow), "3:10")
        expectEqual(flow?.message.contains("found a mapping"), true)
        let block = fileError(base.replacingOccurrences(of: "devices: 20", with: "devices:\n  count: 20"))
        expectEqual(at(block), "4:3")
        let list = fileError(base.replacingOccurrences(of: "  rate: 30/d", with: "  rate: [30/d]"))
        expectEqual(at(list), "5:9")
        expectEqual(list?.message.contains("found a list"), true)
        let name = fileError(base.replacingOccurrences(of: "name: hostile", with: "name: [a, b]"))
        expectEqual(at(name), "1:7")
    }

    @Test func aScalarWhereAMappingBelongsIsRefused() {
        let section = fileError(base.replacingOccurrences(of: "mail:\n  rate: 30/d", with: "mail: 30/d"))
        expectEqual(at(section), "4:7")
        expectEqual(section?.message.contains("expected a mapping"), true)
        let listSection = fileError(base + "queue: [on]\n")
        expectEqual(at(listSection), "11:8")
        let windows = fileError(base.replacingOccurrences(of: "connectivity:\n", with: "connectivity:\n  windows: 8h\n"))
        expectEqual(at(windows), "7:12")
        expectEqual(windows?.message.contains("expected a list of windows"), true)
        let window = fileError(base.replacingOccurrences(of: "connectivity:\n", with: "connectivity:\n  windows: [8h]\n"))
        expectEqual(at(window), "7:13")
        let top = fileError("- name: x\n- duration: 1d\n")
        expectEqual(at(top), "1:1")
        let scalarTop = fileError("just a sentence\n")
        expectEqual(at(scalarTop), "1:1")
    }
}
