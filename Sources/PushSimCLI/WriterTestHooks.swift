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
///   without `renameat2(RENAME_EXCHANGE)`;
/// - `PUSHSIM_TEST_STOP_AFTER_RUNS=N:kill` — a sweep or an optimization kills itself with
///   SIGKILL once it has computed and stored N runs (``RunStore``), as a crash would;
///   `N:int` — it sends itself SIGINT there, as Ctrl-C would.
///
/// Unset (always, outside tests) they change nothing.
enum WriterTestHooks {
    static func install(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if environment["PUSHSIM_TEST_NO_EXCHANGE"] == "1" { ResultsWriter.exchangeFolders = false }
        if let stop = environment["PUSHSIM_TEST_STOP_AFTER_RUNS"] {
            let parts = stop.split(separator: ":").map(String.init)
            if parts.count == 2, let runs = Int(parts[0]), ["kill", "int"].contains(parts[1]) {
                let signal = parts[1] == "kill" ? SIGKILL : SIGINT
                RunStore.storedHook = { stored in
                    // SIGINT is handled on another thread: wait for it so no further run starts
                    // (a task that stops early, as `optimize`, goes on and stops before its next run).
                    guard stored == runs else { return }
                    _ = Foundation.kill(getpid(), signal)
                    for _ in 0..<300 { usleep(10_000) }
                }
            }
        }
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
