// The fuzzer's mutations of scenario files: bytes, lines, tokens, indentation, extreme numbers, swapped keys.
import Foundation
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

/// Mutates the bytes of a scenario file the ways hand-edited and machine-mangled files go wrong.
/// Every choice comes from one seeded ``RandomStream``, so a case is reproduced by its number.
struct ScenarioMutator {
    var rng: RandomStream

    init(seed: UInt64) { rng = RandomStream(seed: seed) }

    /// The kinds of mutation, for the report.
    enum Kind: String, CaseIterable {
        case byteFlip, byteInsert, byteDelete, rangeDuplicate
        case lineDelete, lineDuplicate, lineSwap, lineMove
        case valueReplace, keyReplace, numberExtreme, keySwapAcrossSections
        case indentChange, indentTab, crlf, bom, commentInsert, trailingSpaces
        case deepNesting, longLine, structureInsert, controlBytes, truncate
    }

    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(rng.next() % UInt64(n)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    mutating func chance(_ p: Double) -> Bool { rng.chance(p) }

    /// Values that stress the decoder: extremes, wrong types, YAML features outside the subset.
    static let hostileValues: [String] = [
        "0", "1", "-1", "-0", "00", "0.0", "1.", ".5", "1e9", "1e308", "1E400", "0x10", "+1",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551615",
        "18446744073709551616", "99999999999999999999999999999999999999", String(repeating: "9", count: 400),
        ".nan", ".NaN", ".inf", "-.inf", "nan", "inf", "NaN", "Infinity", "~", "null", "true", "false", "yes", "on",
        "forever", "0us", "1us", "2us", "1ms", "1d", "7d", "106751991d", "106751990d", "106751991d4h", "292471y",
        "9223372036854775806us", "9223372036854775807us", "9223372036854775808us", "1.5h", "0.0000001us",
        "1h30m", "30m1h", "1h1h", "1.99999999999999999999d", "-5s", "1 h", "1h 30m",
        "exponential(1us)", "exponential(0)", "exponential(106751990d)", "exponential()", "exponential(1s, 2s)",
        "uniform(0, 0)", "uniform(0, 1us)", "uniform(2s, 1s)", "uniform(0, 106751990d)",
        "lognormal(1us, 1us)", "lognormal(1us, 106751990d)", "lognormal(0, 1s)", "lognormal(106751990d, 106751990d)",
        "lognormal(300ms)", "exponential(3h", "exponential3h)", "((1s))", "expo(1s)",
        "0/d", "1/us", "1000000000/us", "1e9/d", "40/0", "40/", "/d", "40/-1d", "0.5/m", "3/2h", "40/d/d",
        "0%", "100%", "101%", "-1%", "2%%", "1.0000001", "0.5", "50%",
        "off", "on", "both", "maybe", "intended", "literal",
        "[]", "{}", "[1, 2]", "{a: 1}", "[{start: 0, end: 1us, every: 2us}]", "[{start: 1h, end: 2h}]",
        "\"2024\"", "'2024'", "\"\"", "''", "\"a\\u0000b\"", "\"\\uD800\"", "\"\\U0010FFFF\"", "\"unterminated",
        "&anchor x", "*alias", "!tag x", "|", ">", "%dir", "@x", "`x", "? x", "- x", "---", "...",
        "a: b", "a #c", "x # comment", "é", "名前", "\u{200B}",
        "60%", "0.1234567890123456789", "33.3333333333333333%", "[1, 1, 1]", "[-1]", "[.nan]",
        "[" + Array(repeating: "0", count: 24).joined(separator: ", ") + "]",
        "[" + Array(repeating: "1", count: 25).joined(separator: ", ") + "]",
        "{rate: 1/d, size: 0}", "{rate: 1/d}", "{rate: 1/d, size: 2, spread: forever}", "traffic.csv", "/dev/null", ".", "..",
        "[{name: a, share: 1}]", "[{name: a, share: 50%}, {name: a, share: 50%}]", "[{name: a.b, share: 1}]",
        "[{start: 23h, end: 7h, every: 1d}]", "[{start: 23h, end: 7h}]", "[{start: 1h, end: 2h, length: 1h}]",
        "[{start: 1h, length: uniform(1h, 2h), spread: 1h, every: 1d}]",
    ]

    static let hostileKeys: [String] = [
        "name", "seed", "devices", "duration", "drain", "mail", "rate", "connectivity", "online", "offline",
        "windows", "xiva", "apns", "device", "extension", "queue", "mode", "sweep", "latency", "retention",
        "start", "end", "every", "unknown", "Name", "\"name\"", "'devices'", "a b", "", "-", "[x]", "{x}",
        "queue.mode", "x:", String(repeating: "k", count: 300),
        "warmup", "daily_profile", "bursts", "trace", "segments", "share", "size", "spread", "length",
        "keep_older", "keep_window", "duplicate", "segments.a.share",
    ]

    static let structures: [String] = [
        "[", "]", "{", "}", ",", ":", ": ", "- ", "#", "'", "\"", "\\", "(", ")", "&", "*", "!", "|", ">", "%",
        "?", "\t", "\r", "\r\n", "\n", "\n  ", "\n- ", "---\n", "...\n", "\u{FEFF}", "\u{7F}", "\u{85}",
        "windows:\n  - ", "sweep:\n  seed: [", "{start: 0, end: 1us, every: 2us}",
        "segments:\n  - {name: a, share: 1}\n", "segments:\n  - name: b\n    share: ", "\n    mail: {rate: ",
        "sweep:\n  segments.commuters.share: [", "length: ", "spread: ",
    ]

    /// A `--set PATH=VALUE` argument: a known path (or a mangled one) and a hostile value.
    mutating func override() -> String {
        var path = chance(0.2) ? "segments." + pick(["commuters", "night-offline", "nope", ""]) + "." + pick(ScenarioSchema.segmentSettablePaths)
            : pick(ScenarioSchema.settablePaths)
        if chance(0.15) { path = pick([path + ".x", "." + path, path + ".", "sweep", "nope.rate", "", "a..b", String(repeating: "p", count: 200)]) }
        var value = pick(ScenarioMutator.hostileValues)
        if chance(0.1) { value = pick(ScenarioMutator.structures) + value }
        return chance(0.03) ? path + value : path + "=" + value
    }

    /// One mutated case: 1–3 mutations of `base`.
    mutating func mutate(_ base: [UInt8]) -> (bytes: [UInt8], kinds: [Kind]) {
        var bytes = base
        var kinds: [Kind] = []
        for _ in 0...below(3) {
            let kind = pick(Kind.allCases)
            kinds.append(kind)
            apply(kind, to: &bytes)
        }
        return (bytes, kinds)
    }

    mutating func apply(_ kind: Kind, to bytes: inout [UInt8]) {
        switch kind {
        case .byteFlip:
            guard !bytes.isEmpty else { return }
            bytes[below(bytes.count)] = UInt8(truncatingIfNeeded: rng.next())
        case .byteInsert:
            bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: below(bytes.count + 1))
        case .byteDelete:
            guard !bytes.isEmpty else { return }
            let start = below(bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + below(8)))
        case .rangeDuplicate:
            guard !bytes.isEmpty else { return }
            let start = below(bytes.count)
            let piece = bytes[start..<min(bytes.count, start + 1 + below(40))]
            bytes.insert(contentsOf: piece, at: below(bytes.count + 1))
        case .controlBytes:
            let controls: [[UInt8]] = [[0], [0x01], [0x1B], [0x7F], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                       [0xFF], [0xFE], [0xC3], [0xE2, 0x82], [0xEF, 0xBB, 0xBF], [0xC2, 0x85], [0x0D]]
            bytes.insert(contentsOf: pick(controls), at: below(bytes.count + 1))
        case .truncate:
            guard !bytes.isEmpty else { return }
            bytes.removeSubrange(below(bytes.count)...)
        case .lineDelete, .lineDuplicate, .lineSwap, .lineMove, .indentChange, .indentTab, .trailingSpaces,
             .commentInsert, .keySwapAcrossSections:
            var lines = split(bytes)
            guard !lines.isEmpty else { return }
            mutateLines(kind, &lines)
            bytes = join(lines)
        case .valueReplace, .keyReplace, .numberExtreme:
            var lines = split(bytes)
            guard !lines.isEmpty else { return }
            let i = below(lines.count)
            lines[i] = mutateToken(kind, lines[i])
            bytes = join(lines)
        case .crlf:
            var out: [UInt8] = []
            for b in bytes { if b == 0x0A { out.append(0x0D) }; out.append(b) }
            bytes = out
        case .bom:
            bytes.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: chance(0.8) ? 0 : below(bytes.count + 1))
        case .deepNesting:
            let depth = pick([10, 63, 64, 65, 100, 1_000, 5_000])
            let opener = pick(["[", "{a: ", "- ", "a:\n "])
            var text = "\nsweep:\n  seed: "
            if opener == "a:\n " {
                // Block nesting grows as depth²: a thousand levels is already half a megabyte.
                text = "\ndeep:\n"
                for d in 0..<min(depth, 1_000) { text += String(repeating: " ", count: d + 1) + "a:\n" }
            } else {
                text += String(repeating: opener, count: depth) + "1"
                if chance(0.5) { text += String(repeating: opener == "[" ? "]" : opener == "{a: " ? "}" : "", count: depth) }
            }
            bytes.insert(contentsOf: Array(text.utf8), at: lineStart(in: bytes))
        case .longLine:
            let length = pick([1_000, 10_000, 65_536, 100_000])
            let filler = pick(["a", "9", "[", "(", " ", "#", "a,", "1h"])
            var line = pick(["description: ", "name: ", "devices: ", "# ", "x", "  rate: "])
            line += String(repeating: filler, count: length / filler.utf8.count) + "\n"
            bytes.insert(contentsOf: Array(line.utf8), at: lineStart(in: bytes))
        case .structureInsert:
            bytes.insert(contentsOf: Array(pick(ScenarioMutator.structures).utf8), at: below(bytes.count + 1))
        }
    }

    /// The offset of a random line start (or the end).
    private mutating func lineStart(in bytes: [UInt8]) -> Int {
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        return pick(starts)
    }

    private func split(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    }

    private func join(_ lines: [[UInt8]]) -> [UInt8] {
        Array(lines.joined(separator: [0x0A]))
    }

    private mutating func mutateLines(_ kind: Kind, _ lines: inout [[UInt8]]) {
        let i = below(lines.count)
        switch kind {
        case .lineDelete: lines.remove(at: i)
        case .lineDuplicate: lines.insert(lines[i], at: below(lines.count + 1))
        case .lineSwap: lines.swapAt(i, below(lines.count))
        case .lineMove:
            let line = lines.remove(at: i)
            lines.insert(line, at: below(lines.count + 1))
        case .indentChange:
            let spaces = lines[i].prefix { $0 == 0x20 }.count
            let change = pick([-4, -2, -1, 1, 2, 4, 40])
            let target = max(0, spaces + change)
            lines[i] = Array(repeating: 0x20, count: target) + lines[i].dropFirst(spaces)
        case .indentTab:
            let spaces = lines[i].prefix { $0 == 0x20 }.count
            lines[i] = [0x09] + lines[i].dropFirst(min(spaces, 2))
        case .trailingSpaces:
            lines[i] += Array(repeating: pick([0x20, 0x09]), count: 1 + below(4))
        case .commentInsert:
            lines[i] += Array(pick([" # note", "# no space", " #", " # key: value", " #: x"]).utf8)
        case .keySwapAcrossSections:
            // A `  key: value` line of one section moved under another, or two keys' names exchanged.
            let indented = lines.indices.filter { lines[$0].first == 0x20 && lines[$0].contains(0x3A) }
            guard indented.count >= 2 else { return }
            let a = pick(indented), b = pick(indented)
            if chance(0.5) {
                let line = lines.remove(at: a)
                lines.insert(line, at: min(b, lines.count))
            } else if let ca = lines[a].firstIndex(of: 0x3A), let cb = lines[b].firstIndex(of: 0x3A) {
                let keyA = lines[a][..<ca], keyB = lines[b][..<cb]
                let restA = lines[a][ca...], restB = lines[b][cb...]
                lines[a] = Array(keyB + restA)
                if a != b { lines[b] = Array(keyA + restB) }
            }
        default: break
        }
    }

    /// Replaces the value or the key of a `key: value` line, or pushes a number in it to an extreme.
    private mutating func mutateToken(_ kind: Kind, _ line: [UInt8]) -> [UInt8] {
        var text = String(decoding: line, as: UTF8.self)
        switch kind {
        case .valueReplace:
            if let colon = text.range(of: ": ") {
                text = String(text[..<colon.upperBound]) + pick(ScenarioMutator.hostileValues)
            } else if text.hasSuffix(":") {
                text += " " + pick(ScenarioMutator.hostileValues)
            } else {
                text += pick(ScenarioMutator.hostileValues)
            }
        case .keyReplace:
            let indent = text.prefix { $0 == " " || $0 == "-" }
            if let colon = text.firstIndex(of: ":") {
                text = String(indent) + pick(ScenarioMutator.hostileKeys) + String(text[colon...])
            } else {
                text = String(indent) + pick(ScenarioMutator.hostileKeys) + ": " + text
            }
        default:
            // A run of digits becomes an extreme number.
            let scalars = Array(text.unicodeScalars)
            let digitStarts = scalars.indices.filter {
                ("0"..."9").contains(scalars[$0]) && ($0 == 0 || !("0"..."9").contains(scalars[$0 - 1]))
            }
            guard !digitStarts.isEmpty else { return Array(text.utf8) }
            let start = pick(digitStarts)
            var end = start
            while end < scalars.count, ("0"..."9").contains(scalars[end]) || scalars[end] == "." { end += 1 }
            let extreme = pick(["0", "1", "00000000000000000001", "9223372036854775807", "9223372036854775808",
                                "18446744073709551616", "106751991", "106751992", "4294967296", "2147483648",
                                "99999999999999999999999", "0.000000000000000000001", "1.7976931348623157",
                                String(repeating: "9", count: 330), "0.5", "1e3"])
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars[..<start])
            out.append(contentsOf: extreme.unicodeScalars)
            out.append(contentsOf: scalars[end...])
            text = String(out)
        }
        return Array(text.utf8)
    }
}
