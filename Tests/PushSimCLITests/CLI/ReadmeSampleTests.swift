// The README's sample of `pushsim run` is what the command prints, and the default table fits one screen.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimTestSupport

@Suite(.serialized) struct ReadmeSampleTests {
    /// The line before the README's sample block: the command it shows and how to refresh it.
    static let marker = "<!-- the output of `pushsim run scenarios/quickstart.yaml`; refresh: PUSHSIM_REFRESH_README=1 swift test --filter ReadmeSampleTests -->"
    static let readme = Shell.packageRoot + "/README.md"

    /// The README's text before the sample's lines, the sample, and the text after them; nil
    /// without the marker followed by a fenced block.
    static func split(_ text: String) -> (before: String, sample: String, after: String)? {
        guard let mark = text.range(of: marker + "\n```\n"),
              let close = text.range(of: "\n```\n", range: mark.upperBound..<text.endIndex) else { return nil }
        return (String(text[..<mark.upperBound]), String(text[mark.upperBound..<close.lowerBound]) + "\n",
                String(text[close.lowerBound...].dropFirst()))
    }

    static let printed: (status: Int32, out: String, err: String) = {
        runPushsim(["run", Shell.packageRoot + "/scenarios/quickstart.yaml", "--no-write"])
    }()

    @Test func theReadmeShowsWhatTheCommandPrints() throws {
        let run = Self.printed
        expectEqual(run.status, 0, "\(run.err)")
        let text = try String(contentsOfFile: Self.readme, encoding: .utf8)
        let parts = try #require(Self.split(text), "README.md has no block after \(Self.marker)")
        if ProcessInfo.processInfo.environment["PUSHSIM_REFRESH_README"] == "1" {
            try (parts.before + run.out + parts.after).write(toFile: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        #expect(parts.sample == run.out, """
            README.md's sample output differs from what `pushsim run scenarios/quickstart.yaml` prints; \
            refresh it: PUSHSIM_REFRESH_README=1 swift test --filter ReadmeSampleTests
            """)
    }

    @Test func theDefaultTableFitsOneScreenAndLongHasTheRest() throws {
        let lines = Self.printed.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 25, "\(lines.count) lines")
        #expect(lines.allSatisfy { $0.count <= 90 }, "a line wider than a terminal")
        let out = Self.printed.out
        // The answer first, with the loss rates of the table's row.
        let lossRow = try #require(lines.first { $0.hasPrefix("loss rate") })
        let rates = lossRow.split(separator: " ").filter { $0.contains(".") }
        try #require(rates.count == 2)
        #expect(lines[1].hasPrefix("With the queue, \(rates[1]) % of letters are lost instead of \(rates[0]) %"), "\(lines[1])")
        for row in ["loss rate", "summarized (not lost, not delivered)", "duplicates", "causes of loss", "apns_replaced",
                    "the queue at work", "re-sent pushes", "pushsim run --long"] {
            #expect(out.contains(row), "no \(row)")
        }
        // A cause that is zero in both arms is left out; the long table lists it.
        #expect(!out.contains("xiva_drop") && !out.contains("what the extension's logs would show") && !out.contains("\nevents"))
        let long = runPushsim(["run", Shell.packageRoot + "/scenarios/quickstart.yaml", "--no-write", "--long"])
        expectEqual(long.status, 0)
        for row in ["xiva_drop", "what the extension's logs would show", "\nevents", "  p90"] {
            #expect(long.out.contains(row), "--long has no \(row)")
        }
        #expect(!long.out.contains("pushsim run --long"))
    }
}
