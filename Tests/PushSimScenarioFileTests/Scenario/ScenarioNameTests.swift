// Names that would drive a terminal or hide their text are refused where they are written; so is a sweep of `seed`.
import Testing
@testable import PushSimScenarioFile
@testable import PushSimCore
import PushSimTestSupport

@Suite struct ScenarioNameTests {
    private func error(_ text: String) -> ScenarioError? {
        do { _ = try ScenarioLoader.parse(text: text, file: "n.yaml"); return nil } catch let e as ScenarioError { return e } catch { return nil }
    }

    @Test(arguments: [("\\u001b[31m", "U+001B"), ("a\\nb", "U+000A"), ("right\\u202Eleft", "U+202E"),
                      ("x\\u200By", "U+200B"), ("line\\u2028sep", "U+2028"), ("del\\u007F", "U+007F")])
    func namesWithControlOrFormattingCharactersAreRefusedWithALocation(escaped: String, code: String) {
        let e = error("duration: 1d\ndevices: 2\nname: \"\(escaped)\"\n")
        expectEqual(e?.location, SourceLocation(file: "n.yaml", line: 3, column: 7))
        expectEqual(e?.message.contains("`name`: expected visible text without control or formatting characters"), true)
        #expect(e?.message.contains("found \(code)") == true, "\(e?.message ?? "accepted")")
    }

    @Test func visibleUnicodeNamesStayWelcome() {
        #expect(error("name: коммутеры-東京 ✈\nduration: 1d\ndevices: 2\n") == nil)
    }

    @Test func aSweepOfSeedInTheFileIsRefusedAtItsKey() {
        let e = error("name: s\nduration: 1d\ndevices: 2\nsweep: {seed: [1, 2]}\n")
        expectEqual(e?.location, SourceLocation(file: "n.yaml", line: 4, column: 9))
        expectEqual(e?.message.contains("`sweep.seed`: a sweep cannot vary `seed`"), true)
    }
}
