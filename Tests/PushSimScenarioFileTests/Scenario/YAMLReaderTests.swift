// Tests of the YAML-subset reader: what it accepts, what it rejects, and where it says so.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
import PushSimTestSupport

@Suite struct YAMLReaderTests {
    private func read(_ text: String) throws -> YAMLNode {
        guard let node = try YAMLReader.read(text: text, file: "t.yaml") else {
            Issue.record("empty document")
            return .empty(at: SourceLocation(file: "", line: 0, column: 0))
        }
        return node
    }

    @Test func blockMappingsAndSequencesNestByIndentation() throws {
        let root = try read("a:\n  b: 1\n  c:\n    - x\n    - y\nd: 2\n")
        expectEqual(root.keys, ["a", "d"])
        expectEqual(root["a"]?.keys, ["b", "c"])
        expectEqual(root["a"]?["c"]?.items?.compactMap(\.text), ["x", "y"])
        expectEqual(root["a"]?["c"]?.location, SourceLocation(file: "t.yaml", line: 4, column: 5))
        expectEqual(root["d"]?.text, "2")
    }

    @Test func sequenceUnderAKeyMayShareItsIndentation() throws {
        let root = try read("a:\n- x\n- y\nb: 1\n")
        expectEqual(root["a"]?.items?.compactMap(\.text), ["x", "y"])
        expectEqual(root["b"]?.text, "1")
    }

    @Test func sequenceItemMayStartAMapping() throws {
        let root = try read("w:\n  - start: 8h\n    end: 9h\n  - start: 1h\n")
        let items = try #require(root["w"]?.items)
        expectEqual(items.count, 2)
        expectEqual(items[0].keys, ["start", "end"])
        expectEqual(items[0].location, SourceLocation(file: "t.yaml", line: 2, column: 5))
        expectEqual(items[1]["start"]?.text, "1h")
    }

    @Test func sequenceItemMayBeAFlowMappingOrANestedSequence() throws {
        let root = try read("w:\n  - {start: 8h, end: 9h}\n  - - a\n    - b\n")
        let items = try #require(root["w"]?.items)
        expectEqual(items[0]["end"]?.text, "9h")
        expectEqual(items[1].items?.compactMap(\.text), ["a", "b"])
    }

    @Test func flowSequencesAndMappingsNest() throws {
        let root = try read("a: [1, [2, 3], {x: [4], y: {z: 5}}, 'q', \"r\"]\nb: {}\nc: []\n")
        let items = try #require(root["a"]?.items)
        expectEqual(items.count, 5)
        expectEqual(items[1].items?.compactMap(\.text), ["2", "3"])
        expectEqual(items[2]["y"]?["z"]?.text, "5")
        expectEqual(items[3].style, .singleQuoted)
        expectEqual(root["b"]?.keys, [])
        expectEqual(root["c"]?.items?.count, 0)
    }

    @Test func flowCollectionMaySpanLines() throws {
        let root = try read("a: [1,   # one\n  2,\n  3]\nb: 4\n")
        expectEqual(root["a"]?.items?.compactMap(\.text), ["1", "2", "3"])
        expectEqual(root["b"]?.text, "4")
    }

    @Test func commaInsideParenthesesStaysInAPlainScalar() throws {
        let root = try read("a: [uniform(1s, 2s), 3s]\nb: uniform(1s, 2s)\n")
        expectEqual(root["a"]?.items?.compactMap(\.text), ["uniform(1s, 2s)", "3s"])
        expectEqual(root["b"]?.text, "uniform(1s, 2s)")
    }

    @Test func commentsStartAtLineStartOrAfterWhitespace() throws {
        let root = try read("# header\na: b#c\nd: e # comment\n   # indented comment\nf: [1, 2] # after flow\n")
        expectEqual(root["a"]?.text, "b#c")
        expectEqual(root["d"]?.text, "e")
        expectEqual(root["f"]?.items?.count, 2)
    }

    @Test func hashInsideQuotesIsNotAComment() throws {
        let root = try read("a: 'x #y'\nb: \"u #v\" # real\n")
        expectEqual(root["a"]?.text, "x #y")
        expectEqual(root["b"]?.text, "u #v")
    }

    @Test func singleQuotedScalarDoublesTheQuoteToEscapeIt() throws {
        try expectEqual(read("a: 'it''s'\n")["a"]?.text, "it's")
    }

    @Test func doubleQuotedScalarEscapes() throws {
        let root = try read(#"a: "q\" b\\ n\n t\t e\u00e9 s\U0001F600""#)
        expectEqual(root["a"]?.text, "q\" b\\ n\n t\t eé s😀")
        expectEqual(root["a"]?.style, .doubleQuoted)
    }

    @Test func unknownEscapeIsRejectedWithLocation() {
        let error = readError(#"a: "x\qy""#)
        expectEqual(place(error), "t.yaml:1:6")
        expectEqual(error?.message.contains("unknown escape"), true)
    }

    @Test func quotedKeysAreKeys() throws {
        let root = try read("\"a b\": 1\n'c': 2\n")
        expectEqual(root.keys, ["a b", "c"])
    }

    @Test func quotedNumbersKeepTheirQuotingStyle() throws {
        let root = try read("name: \"2024\"\nn: 2024\n")
        expectEqual(root["name"]?.style, .doubleQuoted)
        expectEqual(root["n"]?.style, .plain)
    }

    @Test func emptyValueReadsAsEmptyScalar() throws {
        let root = try read("a:\nb: 1\n")
        expectEqual(root["a"]?.isEmpty, true)
    }

    @Test func emptyDocumentReadsAsNothing() throws {
        #expect(try YAMLReader.read(text: "\n# only a comment\n   \n", file: "t.yaml") == nil)
    }

    @Test func tabInIndentationIsRejectedWithLocation() {
        let error = readError("a:\n  \tb: 1\n")
        expectEqual(place(error), "t.yaml:2:3")
        expectEqual(error?.message.contains("tab"), true)
    }

    @Test func anchorsAreRejectedByName() {
        let error = readError("a: &x 1\n")
        expectEqual(place(error), "t.yaml:1:4")
        expectEqual(error?.message.contains("anchors"), true)
    }

    @Test func aliasesAreRejectedByName() {
        let error = readError("a: 1\nb: *x\n")
        expectEqual(place(error), "t.yaml:2:4")
        expectEqual(error?.message.contains("aliases"), true)
    }

    @Test func tagsAreRejectedByName() {
        let error = readError("a: [1, !!str 2]\n")
        expectEqual(place(error), "t.yaml:1:8")
        expectEqual(error?.message.contains("tags"), true)
    }

    @Test func blockScalarsAreRejectedByName() {
        let literal = readError("a: |\n  text\n")
        expectEqual(place(literal), "t.yaml:1:4")
        expectEqual(literal?.message.contains("multi-line"), true)
        expectEqual(place(readError("a: >\n  text\n")), "t.yaml:1:4")
    }

    @Test func multiLinePlainStringIsRejected() {
        let error = readError("a: first\n  second\n")
        expectEqual(place(error), "t.yaml:2:3")
        expectEqual(error?.message.contains("multi-line"), true)
    }

    @Test func documentMarkersAreRejected() {
        let start = readError("---\na: 1\n")
        expectEqual(place(start), "t.yaml:1:1")
        expectEqual(start?.message.contains("document"), true)
        expectEqual(place(readError("a: 1\n---\nb: 2\n")), "t.yaml:2:1")
        expectEqual(place(readError("a: 1\n...\n")), "t.yaml:2:1")
    }

    @Test func directivesAndComplexKeysAreRejected() {
        expectEqual(readError("%YAML 1.2\na: 1\n")?.message.contains("directives"), true)
        expectEqual(readError("? a\n: 1\n")?.message.contains("complex keys"), true)
    }

    @Test func duplicateKeyIsRejected() {
        let error = readError("a: 1\nb: 2\na: 3\n")
        expectEqual(place(error), "t.yaml:3:1")
        expectEqual(error?.message.contains("duplicate key `a`"), true)
        expectEqual(error?.message.contains("line 1"), true)
        expectEqual(place(readError("w: {start: 1h, start: 2h}\n")), "t.yaml:1:16")
    }

    @Test func crlfAndBomAreAccepted() throws {
        let root = try read("\u{FEFF}a: 1\r\nb:\r\n  c: x\r\n")
        expectEqual(root["a"]?.text, "1")
        expectEqual(root["b"]?["c"]?.text, "x")
        expectEqual(root.location, SourceLocation(file: "t.yaml", line: 1, column: 1))
    }

    @Test func trailingSpacesAreIgnored() throws {
        let root = try read("a: 1   \nb:    \n  - x  \n")
        expectEqual(root["a"]?.text, "1")
        expectEqual(root["b"]?.items?.first?.text, "x")
    }

    @Test func invalidUTF8IsRejectedWithLocation() {
        var bytes = Array("a: 1\nb: ".utf8)
        bytes.append(0xFF)
        do {
            _ = try YAMLReader.read(bytes: bytes, file: "t.yaml")
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            let error = error as? ScenarioError
            expectEqual(place(error), "t.yaml:2:4")
            expectEqual(error?.message.contains("UTF-8"), true)
        }
    }

    @Test func nulByteIsRejected() {
        let error = readError("a: b\u{0}c\n")
        expectEqual(place(error), "t.yaml:1:5")
        expectEqual(error?.message.contains("NUL"), true)
    }

    @Test func controlCharactersAndLoneCarriageReturnsAreRejected() {
        expectEqual(place(readError("a: b\u{7}\n")), "t.yaml:1:5")
        expectEqual(place(readError("a: 1\rb: 2\n")), "t.yaml:1:5")
    }

    @Test func deepNestingIsRejectedWithoutCrash() {
        let flow = readError("a: " + String(repeating: "[", count: 30_000))
        expectEqual(flow?.message.contains("nesting"), true)
        let dashes = readError(String(repeating: "- ", count: 30_000) + "x")
        expectEqual(dashes?.message.contains("nesting"), true)
        var block = ""
        for depth in 0..<200 { block += String(repeating: " ", count: depth) + "k:\n" }
        expectEqual(readError(block)?.message.contains("nesting"), true)
        // Just inside the limit still reads.
        #expect(readError("a: " + String(repeating: "[", count: 60) + String(repeating: "]", count: 60)) == nil)
    }

    @Test func unbalancedBracketsInAPlainScalarAreRejected() {
        let open = readError("a: exponential(3h\n")
        expectEqual(place(open), "t.yaml:1:15")
        expectEqual(open?.message.contains("unbalanced"), true)
        expectEqual(place(readError("a: 3h)\n")), "t.yaml:1:6")
        expectEqual(place(readError("a: [exponential(3h, 1]\n")), "t.yaml:1:16")
    }

    @Test func unterminatedQuotesAndCollectionsAreRejected() {
        expectEqual(place(readError("a: \"abc\n")), "t.yaml:1:4")
        expectEqual(readError("a: [1, 2\n")?.message.contains("unterminated"), true)
        expectEqual(place(readError("a: {x: 1\nb: 2\n")), "t.yaml:2:1")
    }

    @Test func textAfterAValueIsRejected() {
        expectEqual(place(readError("a: [1] x\n")), "t.yaml:1:8")
        expectEqual(place(readError("a: 'q' x\n")), "t.yaml:1:8")
        expectEqual(place(readError("a: b: c\n")), "t.yaml:1:5")
    }

    @Test func badIndentationIsRejectedWithLocation() {
        let error = readError("a:\n    b: 1\n  c: 2\n")
        expectEqual(place(error), "t.yaml:3:3")
        expectEqual(place(readError("a: 1\n  - x\n")), "t.yaml:2:3")
        expectEqual(place(readError("a: 1\n- x\n")), "t.yaml:2:1")
    }

    @Test func flowValuesFromSetArgumentsAreLocatedInTheArgument() throws {
        let node = try YAMLReader.readValue(text: "[{start: 8h, end: 9h}]", file: "--set", columnOffset: 21)
        expectEqual(node.location, SourceLocation(file: "--set", line: 1, column: 22))
        expectEqual(node.items?.first?["end"]?.text, "9h")
    }

    @Test func flowTextReadsBackToTheSameTree() throws {
        let root = try read("a: [1, {x: 'it''s', y: [\"a,b\", uniform(1s, 2s)]}, '', \"q\\n\"]\n")
        let text = try #require(root["a"]?.flowText)
        let again = try YAMLReader.readValue(text: text, file: "x", columnOffset: 0)
        expectEqual(again.flowText, text)
        expectEqual(again.items?[1]["y"]?.items?.first?.text, "a,b")
    }

    /// Random inputs built from the characters that matter to the reader: none may trap.
    @Test func randomInputNeverTraps() {
        let alphabet: [String] = ["a", "b", ":", " ", "  ", "\n", "- ", "[", "]", "{", "}", ",", "#", "'", "\"",
                                  "\\", "(", ")", "&", "*", "!", "|", "\t", "\r", "\r\n", "1h", "0", "---", "é", "\u{FEFF}",
                                  "name: x\n", "duration: 1d\n", "devices: 1\n", "queue:\n  mode: ", "%", "?"]
        var rng = RandomStream(seed: 42)
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 40) { text += alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            _ = scenarioError(text)
        }
    }
}
