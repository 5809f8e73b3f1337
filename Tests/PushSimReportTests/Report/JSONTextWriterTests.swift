// The JSON writer: known texts, and the same text as the plain string-appending writer on random documents.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimReport
import PushSimTestSupport

@Suite struct JSONTextWriterTests {
    @Test func numbersAreWrittenAsSwiftWritesThem() {
        for i in [0, 7, -1, 10, -10, 99, 1_000, Int.max, Int.min, Int.min + 1] {
            expectEqual(JSONValue.int(i).text, String(i))
        }
        for u: UInt64 in [0, 9, 10, UInt64.max, UInt64.max / 10] {
            expectEqual(JSONValue.uint(u).text, String(u))
        }
        expectEqual(JSONValue.double(0.1).text, "0.1")
        expectEqual(JSONValue.double(-0.0).text, "0.0")
        expectEqual(JSONValue.double(.infinity).text, "null")
    }

    @Test func stringsAreEscapedOnlyWhereJSONNeedsIt() {
        expectEqual(JSONValue.string("plain é € 😀 \u{7F}").text, "\"plain é € 😀 \u{7F}\"")
        expectEqual(JSONValue.string("a\"b\\c\nd\te\rf\u{1}g\u{1F}").text, #""a\"b\\c\nd\te\rf\u0001g\u001f""#)
        expectEqual(JSONValue.object(["k\"ey": .null]).text, #"{"k\"ey":null}"#)
    }

    @Test func keysAreSortedAndPrettyTextIsIndented() {
        let document = JSONValue.object(["b": .array([.int(1), .bool(true), .object([:]), .array([])]), "a": .string("x")])
        expectEqual(document.text, #"{"a":"x","b":[1,true,{},[]]}"#)
        expectEqual(document.prettyText, "{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    true,\n    {},\n    []\n  ]\n}")
    }

    @Test func randomDocumentsReadTheSameAsThePlainWriters() {
        var draws = RandomStream(seed: 0x150A_7E47)
        for _ in 0..<300 {
            let document = Self.randomValue(&draws, depth: 0)
            expectEqual(document.text, Self.plainText(document, indent: nil, depth: 0))
            expectEqual(document.prettyText, Self.plainText(document, indent: "  ", depth: 0))
        }
    }

    /// The obvious writer: strings appended piece by piece.
    static func plainText(_ value: JSONValue, indent: String?, depth: Int) -> String {
        let newline = indent == nil ? "" : "\n"
        func pad(_ level: Int) -> String { String(repeating: indent ?? "", count: level) }
        switch value {
        case .object(let members):
            if members.isEmpty { return "{}" }
            let parts = members.keys.sorted().map { key in
                pad(depth + 1) + DoubleQuoted.text(key, upperCaseHex: false, escapingC1: false) + (indent == nil ? ":" : ": ")
                    + plainText(members[key] ?? .null, indent: indent, depth: depth + 1)
            }
            return "{" + newline + parts.joined(separator: "," + newline) + newline + pad(depth) + "}"
        case .array(let items):
            if items.isEmpty { return "[]" }
            let parts = items.map { pad(depth + 1) + plainText($0, indent: indent, depth: depth + 1) }
            return "[" + newline + parts.joined(separator: "," + newline) + newline + pad(depth) + "]"
        case .string(let s): return DoubleQuoted.text(s, upperCaseHex: false, escapingC1: false)
        case .int(let i): return String(i)
        case .uint(let u): return String(u)
        case .double(let d): return JSONValue.format(d)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    static func randomValue(_ draws: inout RandomStream, depth: Int) -> JSONValue {
        let alphabet: [Character] = ["a", "Z", "0", " ", "\"", "\\", "\n", "\t", "\u{1}", "é", "😀", "\u{7F}", "\u{85}"]
        func word() -> String { String((0..<Int(draws.next() % 6)).map { _ in alphabet[Int(draws.next() % UInt64(alphabet.count))] }) }
        switch draws.next() % (depth < 4 ? 8 : 6) {
        case 0: return .int(Int(bitPattern: UInt(draws.next())) >> Int(draws.next() % 64))
        case 1: return .uint(draws.next() >> (draws.next() % 64))
        case 2: return .double(Double(Int64(bitPattern: draws.next()) >> 20) / 1_024)
        case 3: return .string(word())
        case 4: return draws.next() % 2 == 0 ? .bool(draws.next() % 2 == 0) : .null
        case 5: return .string("")
        case 6: return .array((0..<Int(draws.next() % 4)).map { _ in randomValue(&draws, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int(draws.next() % 4) { members[word()] = randomValue(&draws, depth: depth + 1) }
            return .object(members)
        }
    }
}
