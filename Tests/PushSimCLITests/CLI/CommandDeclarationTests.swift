// Each command's options are declared once: help, parsing and the docs' option tables agree with it.
import Foundation
import Testing
@testable import PushSimCLI
import PushSimTestSupport

@Suite struct CommandDeclarationTests {
    /// The `--name` words of a text.
    static func optionNames(in text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let range = rest.range(of: "--") {
            let tail = rest[range.upperBound...]
            let name = tail.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if let first = name.first, first.isLetter { names.insert(String(name)) }
            rest = tail.dropFirst(name.count)
        }
        return names
    }

    /// A command line that gives `option` (with a value of its placeholder's shape when it takes one).
    static func words(giving option: CommandOption) -> [String] {
        switch option.kind {
        case .flag: return ["--\(option.name)"]
        // A value the option accepts: the least of its range, or 1.
        case .value: return ["--\(option.name)", String(option.range?.lowerBound ?? 1)]
        }
    }

    @Test func everyDeclaredOptionIsInTheHelpAndTheSynopsis() {
        for command in PushSimTool.commands {
            let help = command.help
            for option in command.options {
                #expect(help.contains("\n  \(option.label)"), "\(command.name): --\(option.name) has no line in the help")
                #expect(command.synopsis.contains("--\(option.name)"), "\(command.name): --\(option.name) not in the synopsis")
            }
        }
    }

    /// The options' lines and the synopsis name no option the parser would refuse.
    @Test func everyOptionInTheHelpParses() throws {
        for command in PushSimTool.commands {
            let optionLines = command.help.split(separator: "\n").filter { $0.hasPrefix("  --") }.joined(separator: "\n")
            let named = Self.optionNames(in: command.synopsis + "\n" + optionLines)
            #expect(!named.isEmpty || command.options.isEmpty)
            for name in named {
                let option = try #require(command.option(name), "\(command.name) --help names --\(name), which is not declared")
                var words = Self.words(giving: option)
                // A required option the line leaves out would be the error instead.
                for other in command.options where other.required && other.name != name { words += Self.words(giving: other) }
                #expect(throws: Never.self, "\(command.name) --\(name)") { _ = try Arguments(words, declared: command.options) }
            }
        }
    }

    @Test func namesAreUniqueWithinACommand() {
        for command in PushSimTool.commands {
            let names = command.options.map(\.name)
            expectEqual(Set(names).count, names.count, "\(command.name) declares an option twice")
        }
    }

    @Test func parsingFollowsTheDeclaration() throws {
        let declared = [
            CommandOption("set", .value("P=V"), repeatable: true, help: "x"),
            CommandOption("jobs", .value("N"), help: "x"),
            CommandOption("days", .value("N"), default: .value("7"), range: 1...10, help: "x"),
            CommandOption("json", .flag, help: "x"),
            CommandOption("device", .value("N"), required: true, help: "x"),
        ]
        let parsed = try Arguments(["f.yaml", "--set", "a=1", "--set=b=2", "--json", "--device", "3", "--", "--json"], declared: declared)
        expectEqual(parsed.positionals, ["f.yaml", "--json"])
        expectEqual(parsed.values("set"), ["a=1", "b=2"])
        #expect(parsed.flag("json") && parsed.value("device") == "3")
        #expect(try parsed.integerWithDefault("days") == 7 && !parsed.given("days"))
        #expect(parsed.value("jobs") == nil)
        func message(_ words: [String]) -> String? {
            do { _ = try Arguments(words, declared: declared); return nil } catch { return "\(error)" }
        }
        expectEqual(message(["--device", "1", "--jobs", "1", "--jobs", "2"]), "--jobs is given twice; give it once")
        expectEqual(message(["--json=yes", "--device", "1"]), "--json takes no value")
        expectEqual(message(["--device"]), "--device needs a value: --device N")
        expectEqual(message([]), "missing --device N")
        expectEqual(message(["--device", "1", "--jbos", "2"]), "unknown option --jbos (did you mean --jobs?)")
    }

    /// A declared range is checked by the parser, for a typed value, with the message that names
    /// the bounds; commands read the number without repeating the range.
    @Test func theParserChecksADeclaredRange() throws {
        let declared = [CommandOption.jobs, CommandOption("limit", .value("N"), default: .value("20"), range: 0...50, help: "x")]
        func message(_ words: [String]) -> String? {
            do { _ = try Arguments(words, declared: declared); return nil } catch { return "\(error)" }
        }
        expectEqual(message(["--jobs", "0"]), "--jobs needs a whole number from 1 to 1024, got '0'")
        expectEqual(message(["--jobs=1025"]), "--jobs needs a whole number from 1 to 1024, got '1025'")
        expectEqual(message(["--limit", "x"]), "--limit needs a whole number from 0 to 50, got 'x'")
        let parsed = try Arguments(["--jobs", "1024"], declared: declared)
        try expectEqual(parsed.integer("jobs"), 1024)
        try expectEqual(parsed.integerWithDefault("limit"), 20)
        #expect(try Arguments([], declared: declared).integer("jobs") == nil)
        // Every command's --jobs is the shared declaration, range included.
        for command in PushSimTool.commands {
            for option in command.options where option.name == "jobs" { expectEqual(option.range, 1...1024, "\(command.name)") }
        }
        let (status, out, err) = runPushsim(["run", "missing.yaml", "--jobs", "0"])
        #expect(status == ExitStatus.badInput.code && out.isEmpty)
        #expect(err.contains("--jobs needs a whole number from 1 to 1024, got '0'"))
    }

    /// Top-level help lists every exit status, number and meaning, from ExitStatus.
    @Test func theHelpListsTheExitStatuses() {
        expectEqual(ExitStatus.allCases.map(\.code), [0, 1, 2, 128])
        expectEqual(ExitStatus.signal(2), 130)
        expectEqual(ExitStatus.signal(15), 143)
        let help = runPushsim(["--help"]).out
        let lines = help.split(separator: "\n").map(String.init)
        let listed = lines.drop { $0 != "Exit status:" }.dropFirst()
        expectEqual(listed.count, ExitStatus.allCases.count)
        for (line, status) in zip(listed, ExitStatus.allCases) {
            #expect(line.hasPrefix("  \(status.shown) ") && line.hasSuffix(status.meaning), "\(line)")
        }
        #expect(help.contains("  128+N  ended by signal N"))
    }

    @Test func theHelpShowsDefaultsAndRequiredOptions() throws {
        let trace = try #require(PushSimTool.commands.first { $0.name == "trace" })
        #expect(trace.synopsis.contains(" --device N ") && !trace.synopsis.contains("[--device N]"))
        let bench = try #require(PushSimTool.commands.first { $0.name == "bench" })
        #expect(bench.help.contains("repetitions per rung (default 3)"))
        #expect(bench.help.split(separator: "\n").allSatisfy { $0.count <= 110 })
    }

    /// docs/research.md lists `pushsim sweep`'s options in a table: the same names as declared.
    @Test func theSweepTableInResearchMatchesTheDeclaration() throws {
        let text = try String(contentsOfFile: Shell.packageRoot + "/docs/research.md", encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `--") }
        let documented = Self.optionNames(in: rows.map { $0.split(separator: "|").first.map(String.init) ?? "" }.joined(separator: " "))
        let sweep = try #require(PushSimTool.commands.first { $0.name == "sweep" })
        expectEqual(documented, Set(sweep.options.map(\.name)))
    }
}
