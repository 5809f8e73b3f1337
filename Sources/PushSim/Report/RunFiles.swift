// The files a run's results folder holds, made in one place for run, merge and check --update.

public enum RunFiles {
    /// The files of a run's set: a set write replaces these and keeps the folder's others (a
    /// sweep's files, notes a person put there).
    public static let family: Set<String> = ["summary.json", "summary.md"]

    /// `summary.json` and `summary.md` of `result`; `size` gives the table's title its size line.
    public static func summary(_ result: RunResult, size: RunSize) -> [(name: String, contents: String)] {
        [("summary.json", result.json.prettyText + "\n"), ("summary.md", ReportTable(result, size: size).markdown)]
    }
}
