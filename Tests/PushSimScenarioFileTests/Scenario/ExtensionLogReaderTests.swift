// Reading an extension log CSV back: good rows parsed, every bad row refused at FILE.csv:LINE:COLUMN.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile

@Suite struct ExtensionLogReaderTests {
    private let header = "device,time_us,position,gap_found,gap_size,answer\n"

    private func read(_ text: String) throws -> [LoggedPush] {
        try ExtensionLogReader.read(bytes: Array(text.utf8), file: "logs.csv")
    }

    /// The error `text` gives, as `file:line:column: message`.
    private func failure(_ text: String) -> String {
        do {
            _ = try read(text)
            return "no error"
        } catch let error as ScenarioError {
            return "\(error.location.map(\.description) ?? "-"): \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    @Test func goodRowsAreReadInFileOrder() throws {
        let rows = try read("\u{FEFF}" + header + "3,150000,1,0,0,none\r\n\n3,7200000000,4,1,2,answered\n0,5,9,1,70,summarized")
        #expect(rows == [
            LoggedPush(device: 3, time: 150_000, position: 1, gapSize: 0, answer: .none),
            LoggedPush(device: 3, time: 7_200_000_000, position: 4, gapSize: 2, answer: .answered),
            LoggedPush(device: 0, time: 5, position: 9, gapSize: 70, answer: .summarized),
        ])
        #expect(try read(header).isEmpty)
    }

    /// Each bad field is named with the column it starts at.
    @Test func badRowsAreLocated() {
        let cases: [(String, String)] = [
            ("", "logs.csv:1:1: expected the header"),
            ("time,device\n", "logs.csv:1:1: expected the header"),
            (header + "x,1,1,0,0,none\n", "logs.csv:2:1: `device`: expected a device number"),
            (header + "0,-5,1,0,0,none\n", "logs.csv:2:3: `time_us`: expected microseconds"),
            (header + "0,5,0,0,0,none\n", "logs.csv:2:5: `position`: expected XIVA's position"),
            (header + "0,5,1,yes,0,none\n", "logs.csv:2:7: `gap_found`: expected `0` or `1`"),
            (header + "0,5,1,1,0,answered\n", "logs.csv:2:9: `gap_size`: expected at least 1"),
            (header + "0,5,1,0,3,none\n", "logs.csv:2:9: `gap_size`: expected 0"),
            (header + "0,5,1,1,3,maybe\n", "logs.csv:2:11: `answer`: expected one of `none`"),
            (header + "0,5,1,1,3,none\n", "logs.csv:2:11: `answer`: a row with a gap"),
            (header + "0,5,1,0,0,answered\n", "logs.csv:2:11: `answer`: a row without a gap"),
            (header + "0,5,1,0,0\n", "logs.csv:2:10: expected 6 fields"),
            (header + "0,5,1,0,0,none,extra\n", "logs.csv:2:15: expected 6 fields"),
            (header + "0,99999999999999999999,1,0,0,none\n", "logs.csv:2:3: `time_us`"),
            (header + "0,1,1,0,0,none\n1,2,3\n", "logs.csv:3:6: expected 6 fields"),
        ]
        for (text, expected) in cases {
            let message = failure(text)
            #expect(message.hasPrefix(expected), "\(text.debugDescription): \(message)")
        }
    }

    @Test func aMissingFileIsRefusedWithItsPath() {
        #expect(throws: ScenarioError.self) { try ExtensionLogReader.read(path: "/nonexistent/logs.csv") }
    }
}
