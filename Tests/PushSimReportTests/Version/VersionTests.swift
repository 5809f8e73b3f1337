// The version a paper can cite: the commit read from the checkout's files, the version rule's
// written traces (CHANGELOG, CITATION.cff, the documented package pin) kept equal to the constant.
import Foundation
import Testing
@testable import PushSimReport
import PushSimTestSupport

@Suite struct VersionTests {
    static func text(_ relative: String) -> String {
        (try? String(contentsOfFile: Shell.packageRoot + "/" + relative, encoding: .utf8)) ?? ""
    }

    @Test func theCommitIsTheCheckoutsHead() {
        let git = Shell.bash(["-c", "git rev-parse HEAD"], in: Shell.packageRoot)
        guard git.status == 0 else { return }  // sources outside a git checkout: nothing to compare
        expectEqual(PushSimVersion.commit, git.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aCloneAWorktreePackedRefsAndADetachedHead() throws {
        let dir = TemporaryDirectory()
        let a = String(repeating: "a1", count: 20), b = String(repeating: "b2", count: 20), c = String(repeating: "c3", count: 20)
        let fm = FileManager.default
        // A clone whose branch is a loose ref.
        try fm.createDirectory(atPath: dir.file("clone/.git/refs/heads"), withIntermediateDirectories: true)
        dir.write("clone/.git/HEAD", "ref: refs/heads/main\n")
        dir.write("clone/.git/refs/heads/main", a + "\n")
        expectEqual(GitCheckout(root: dir.file("clone")).head, a)
        // The same branch packed (after `git gc`).
        try fm.removeItem(atPath: dir.file("clone/.git/refs/heads/main"))
        dir.write("clone/.git/packed-refs", "# pack-refs with: peeled fully-peeled sorted\n\(c) refs/heads/other\n\(b) refs/heads/main\n")
        expectEqual(GitCheckout(root: dir.file("clone")).head, b)
        // A worktree: `.git` a file naming its folder, whose `commondir` holds the shared refs.
        try fm.createDirectory(atPath: dir.file("clone/.git/worktrees/wt"), withIntermediateDirectories: true)
        dir.write("clone/.git/worktrees/wt/HEAD", "ref: refs/heads/other\n")
        dir.write("clone/.git/worktrees/wt/commondir", "../..\n")
        try fm.createDirectory(atPath: dir.file("wt"), withIntermediateDirectories: true)
        dir.write("wt/.git", "gitdir: \(dir.file("clone/.git/worktrees/wt"))\n")
        expectEqual(GitCheckout(root: dir.file("wt")).head, c)
        // A detached HEAD names the commit itself.
        dir.write("clone/.git/HEAD", a + "\n")
        expectEqual(GitCheckout(root: dir.file("clone")).head, a)
        // Not a checkout, or a HEAD that names nothing readable: no commit claimed.
        #expect(GitCheckout(root: dir.file("nowhere")).head == nil)
        dir.write("clone/.git/HEAD", "ref: refs/heads/missing\n")
        #expect(GitCheckout(root: dir.file("clone")).head == nil)
        dir.write("clone/.git/HEAD", "ref: ../../etc/passwd\n")
        #expect(GitCheckout(root: dir.file("clone")).head == nil)
    }

    @Test func versionLinesNameVersionCommitAndToolchain() {
        let lines = PushSimVersion.description.split(separator: "\n").map(String.init)
        expectEqual(lines.count, 3)
        #expect(lines.first == "pushsim \(PushSimVersion.current)")
        #expect(lines.dropFirst().first == "commit \(PushSimVersion.commit)")
        expectEqual(lines.last?.hasPrefix("Swift 6."), true)
    }

    /// The rule's written traces: the CHANGELOG's newest section, CITATION.cff and the pins the
    /// docs show name the version the code reports.
    @Test func changelogCitationAndPinNameTheCurrentVersion() {
        let version = PushSimVersion.current
        let newest = Self.text("CHANGELOG.md").split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(newest?.hasPrefix("## \(version)") == true, "CHANGELOG.md's newest section is \(newest ?? "none")")
        #expect(Self.text("CITATION.cff").contains("\nversion: \"\(version)\"\n"))
        for doc in ["docs/client.md", "docs/ci.md"] {
            let pins = Self.text(doc).components(separatedBy: "exact: \"").dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(!pins.isEmpty, "\(doc) shows no pin")
            for pin in pins { expectEqual(String(pin), version, "\(doc) pins \(pin), the version is \(version)") }
        }
        #expect(Self.text("README.md").contains(version))
    }

    @Test func resultsRecordTheCommit() throws {
        let provenance = Provenance(seed: 1, yaml: "", scenario: .object([:]))
        expectEqual(provenance.commit, PushSimVersion.commit)
        #expect(RunSummary.provenanceMarkdown(yaml: "", seed: 1).contains("(commit \(PushSimVersion.commit))"))
    }
}
