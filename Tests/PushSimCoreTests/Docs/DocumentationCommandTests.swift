// Every shell block of README.md and docs/ parses, and its `pushsim` commands run as pasted.
import Foundation
import Testing
@testable import PushSimCore
import PushSimTestSupport

/// The fenced shell blocks (```sh, ```bash, ```shell) of a Markdown file, in order.
enum ShellBlocks {
    static let documents: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: Shell.packageRoot + "/docs")) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    static func blocks(in markdown: String) -> [String] {
        var blocks: [String] = [], current: [String]? = nil
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, ["```sh", "```bash", "```shell"].contains(line.trimmingCharacters(in: .whitespaces)) {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append((current ?? []).joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(String(line))
            }
        }
        return blocks
    }

    /// The block's commands, continuation lines joined, comments and blank lines dropped.
    static func commands(in block: String) -> [String] {
        var out: [String] = [], pending = ""
        for line in block.split(separator: "\n") {
            let text = String(line)
            if text.hasSuffix("\\") { pending += text.dropLast() + " "; continue }
            let command = (pending + text).trimmingCharacters(in: .whitespaces)
            pending = ""
            if !command.isEmpty && !command.hasPrefix("#") { out.append(command) }
        }
        return out
    }

    /// Whether a command is cheap to run here: PushSim's own commands (a release-build path is
    /// run with the debug build), and shell around them; not builds, benchmarks, checks against
    /// committed baselines, or tools this machine has not got.
    static func runnable(_ command: String) -> Bool {
        let words = command.split(whereSeparator: { " ;|&()".contains($0) }).map(String.init)
        guard let first = words.first, first == "pushsim" || first == "for" || first == ".build/release/pushsim" else { return false }
        let elsewhere: Set<String> = ["swift", "git", "bash", "parallel", "sbatch", "kubectl", "docker", "valgrind"]
        return !words.contains { elsewhere.contains($0) } && !command.contains("pushsim check") && !command.contains("pushsim bench")
    }
}

@Suite(.serialized) struct DocumentationCommandTests {
    @Test func everyShellBlockParses() throws {
        let dir = TemporaryDirectory()
        var count = 0
        for document in ShellBlocks.documents {
            let text = try String(contentsOfFile: Shell.packageRoot + "/" + document, encoding: .utf8)
            for (i, block) in ShellBlocks.blocks(in: text).enumerated() {
                let file = dir.write("block.sh", block)
                let parsed = Shell.bash(["-n", file], in: dir.path)
                expectEqual(parsed.status, 0, "\(document), shell block \(i + 1) does not parse: \(parsed.error)\n\(block)")
                count += 1
            }
        }
        #expect(count >= 10)
    }

    /// A document's runnable commands, in order, in a copy of the repository whose scenarios are
    /// cut to six devices (the commands are the documents' own; only the sizes shrink).
    @Test(arguments: ShellBlocks.documents)
    func pushsimCommandsRunAsPasted(document: String) throws {
        let text = try String(contentsOfFile: Shell.packageRoot + "/" + document, encoding: .utf8)
        let commands = ShellBlocks.blocks(in: text).flatMap(ShellBlocks.commands).filter(ShellBlocks.runnable)
        guard !commands.isEmpty else { return }
        let dir = TemporaryDirectory()
        let bin = try Shell.toolFolder(in: dir)
        try Shell.copy("scenarios", to: dir)
        for file in try FileManager.default.contentsOfDirectory(atPath: dir.file("scenarios")) where file.hasSuffix(".yaml") {
            let path = dir.file("scenarios/" + file)
            let original = try String(contentsOfFile: path, encoding: .utf8)
            let small = original.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasPrefix("devices:") ? "devices: 6" : String(line)
            }.joined(separator: "\n")
            try small.write(toFile: path, atomically: true, encoding: .utf8)
        }
        for command in commands {
            let pasted = command.replacingOccurrences(of: ".build/release/pushsim", with: "pushsim")
            let result = Shell.bash(["-e", "-o", "pipefail", "-c", pasted], in: dir.path, path: [bin])
            expectEqual(result.status, 0, "\(document): `\(command)` exited \(result.status): \(result.error.suffix(400))")
        }
    }

    @Test func commandsAreFoundAndFiltered() {
        let block = "# comment\npushsim run a.yaml \\\n    --json\nswift build\nN=8\n"
        expectEqual(ShellBlocks.commands(in: block), ["pushsim run a.yaml      --json", "swift build", "N=8"])
        #expect(ShellBlocks.runnable("pushsim run a.yaml") && !ShellBlocks.runnable("swift run -c release pushsim run a"))
        #expect(!ShellBlocks.runnable("seq 0 3 | parallel pushsim run x") && !ShellBlocks.runnable("pushsim check --all"))
        expectEqual(ShellBlocks.blocks(in: "x\n```sh\na\nb\n```\n```json\n{}\n```\n"), ["a\nb\n"])
    }

    @Test func theDocumentsHoldCommandsToRun() throws {
        var runnable: [String] = []
        for document in ShellBlocks.documents {
            let text = try String(contentsOfFile: Shell.packageRoot + "/" + document, encoding: .utf8)
            runnable += ShellBlocks.blocks(in: text).flatMap(ShellBlocks.commands).filter(ShellBlocks.runnable)
        }
        #expect(runnable.count >= 12, "\(runnable)")
        #expect(runnable.contains { $0.contains("'connectivity.windows=[{start: 8h, end: 9h}]'") })
    }
}
