// A test hook in the real executable: kill or fail the results writer between two of its steps.
import Foundation
import PushSimReport

/// Tests of whole result sets must kill a real `pushsim` process in the middle of a write,
/// which no timing can hit reliably. These environment variables, read once at start, make the
/// writer stop at a named step (``ResultsWriteStep``):
///
/// - `PUSHSIM_TEST_WRITER_STEP=STEP:kill` — the process kills itself with SIGKILL there, as a
///   crash or `kill -9` would; `STEP:term` — it sends itself SIGTERM there (the interruption
///   waits for the write, then exits 143); `STEP:fail` — the write fails there with an error;
/// - `PUSHSIM_TEST_NO_EXCHANGE=1` — folders are replaced with two renames, as on file systems
///   without `renameat2(RENAME_EXCHANGE)`.
///
/// Unset (always, outside tests) they change nothing.
enum WriterTestHooks {
    static func install(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if environment["PUSHSIM_TEST_NO_EXCHANGE"] == "1" { ResultsWriter.exchangeFolders = false }
        guard let setting = environment["PUSHSIM_TEST_WRITER_STEP"] else { return }
        let parts = setting.split(separator: ":").map(String.init)
        guard parts.count == 2, let step = ResultsWriteStep(rawValue: parts[0]) else { return }
        let action = parts[1]
        ResultsWriter.stepHook = { reached in
            guard reached == step else { return }
            if action == "kill" { _ = Foundation.kill(getpid(), SIGKILL) }
            if action == "term" { _ = Foundation.kill(getpid(), SIGTERM); return }
            throw ResultsWriteError(description: "the test hook failed the write at step '\(step.rawValue)'")
        }
    }
}
