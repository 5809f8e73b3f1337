// The built pushsim with closed standard streams, an unwritable standard output, and signals during every kind of command.
import Foundation
import Testing
@testable import PushSimCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PushSimTestSupport

private let quickstart = SmallScenarios.path("quickstart")
private let small = "--set devices=4 --jobs 1"

/// Runs `script` in bash with the built `pushsim` first on PATH; throws when it is not built.
/// Every command in a script runs under `timeout`, so a hang fails the test instead of stalling it.
private func bash(_ script: String, in dir: TemporaryDirectory) throws -> (status: Int32, output: String, error: String) {
    let bin = try Shell.toolFolder(in: dir)
    return Shell.bash(["-c", script], in: dir.path, path: [bin])
}

@Suite(.serialized) struct StreamsAndSignalsTests {
    @Test func mergeOfAClosedStandardInputIsRefusedAtOnce() throws {
        let dir = TemporaryDirectory()
        let result = try bash("timeout -k 5 20 pushsim merge - <&-; echo \"status $?\"", in: dir)
        // 124 would be the timeout: the old hang, the signal pipe read as standard input.
        expectEqual(result.output, "status 2\n", "\(result.output) \(result.error)")
        #expect(result.error.contains("pushsim merge: standard input: cannot read the partial result: standard input is closed"), "\(result.error)")
    }

    @Test func closedOrFullOutputEndsEveryCommandWithStatus2() throws {
        let dir = TemporaryDirectory()
        let prepared = try bash("""
            pushsim run \(quickstart) \(small) --shard 0/1 --json > part.json &&
            pushsim run \(quickstart) \(small) --out base > /dev/null 2>&1 && echo ready
            """, in: dir)
        try #require(prepared.output == "ready\n", "could not prepare the inputs: \(prepared.error)")
        let commands = [
            "run \(quickstart) \(small) --no-write",
            "run \(quickstart) \(small) --out out",
            "sweep \(quickstart) \(small) --vary apns.loss=0,0.1 --no-write",
            "merge part.json",
            "check \(quickstart) \(small) --baseline base/summary.json",
            "validate \(quickstart)",
            "trace \(quickstart) --set devices=4 --device 0",
            "find \(quickstart) \(small) --fate delivered",
            "help run",
        ]
        for command in commands {
            // Exit statuses 240, 242, 227 were the signal pipe reading the output as a "signal".
            let closedBoth = try bash("timeout -k 5 60 pushsim \(command) >&- 2>&-; echo $?", in: dir)
            expectEqual(closedBoth.output, "2\n", "\(command) >&- 2>&-: \(closedBoth.output)")
            let closedOutput = try bash("timeout -k 5 60 pushsim \(command) >&-; echo $?", in: dir)
            expectEqual(closedOutput.output, "2\n", "\(command) >&-: \(closedOutput.output)")
            #expect(closedOutput.error.contains("cannot write to standard output: Bad file descriptor; the output is incomplete"),
                    "\(command): \(closedOutput.error)")
            if FileManager.default.fileExists(atPath: "/dev/full") {
                let full = try bash("timeout -k 5 60 pushsim \(command) > /dev/full; echo $?", in: dir)
                expectEqual(full.output, "2\n", "\(command) > /dev/full: \(full.output)")
                #expect(full.error.contains("cannot write to standard output: No space left on device"), "\(command): \(full.error)")
            }
        }
        // A closed standard error alone loses only the messages: the status is the command's.
        let quiet = try bash("timeout -k 5 60 pushsim validate \(quickstart) 2>&-; echo $?", in: dir)
        #expect(quiet.output.contains(": ok — 'quickstart'") && quiet.output.hasSuffix("\n0\n"), "\(quiet.output)")
    }

    @Test func helpThatCannotBeWrittenFails() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let dir = TemporaryDirectory()
        for command in ["help run", "--help", "run --help", "help"] {
            let result = try bash("timeout -k 5 20 pushsim \(command) > /dev/full; echo $?", in: dir)
            expectEqual(result.output, "2\n", "\(command): \(result.output)")
            #expect(result.error.contains("cannot write to standard output: No space left on device"), "\(command): \(result.error)")
        }
    }

    /// Starts `arguments`, signals it after a second, and expects the interruption's exit status and message.
    private func interrupt(_ arguments: [String], with signal: Int32, message: String) throws {
        let child = try PushsimChild(arguments)
        usleep(1_000_000)
        #expect(child.process.isRunning, "\(arguments) ended before it could be interrupted")
        kill(child.process.processIdentifier, signal)
        let ended = child.wait(upTo: 10)
        if !ended { kill(child.process.processIdentifier, SIGKILL); _ = child.wait(upTo: 5) }
        try #require(ended, "\(arguments) did not stop after the signal")
        expectEqual(child.process.terminationReason, .exit, "\(arguments) was killed by the signal's default action")
        expectEqual(child.process.terminationStatus, ExitStatus.signal(signal), "\(arguments)")
        let error = child.standardError
        #expect(error.contains(message), "\(arguments): \(error)")
    }

    @Test func aSignalStopsEveryKindOfCommandWith130Or143() throws {
        let dir = TemporaryDirectory()
        let long = dir.write("long.yaml", InterruptTests.longScenario)
        // A FIFO nobody writes: opening it blocks, as a scenario on a slow or stuck file system would.
        let stuck = dir.file("stuck.yaml")
        try #require(mkfifo(stuck, 0o644) == 0)
        try interrupt(["validate", stuck], with: SIGTERM, message: "pushsim: interrupted (SIGTERM): pushsim validate was not finished; nothing was written")
        try interrupt(["trace", stuck, "--device", "0"], with: SIGINT, message: "pushsim: interrupted (SIGINT): pushsim trace was not finished")
        try interrupt(["find", long, "--fate", "lost", "--jobs", "1"], with: SIGINT,
                      message: "pushsim: interrupted (SIGINT): the search of 'long' was not finished")
        try interrupt(["bench", "--devices", "1000000", "--days", "1", "--repetitions", "1", "--jobs", "1"], with: SIGTERM,
                      message: "pushsim: interrupted (SIGTERM): the bench was not finished; nothing was written")
        try interrupt(["merge", stuck], with: SIGTERM, message: "pushsim: interrupted (SIGTERM): the merge was not finished")
    }

    @Test func aBadBenchBaselineIsRefusedBeforeTheLadderRuns() throws {
        let dir = TemporaryDirectory()
        dir.write("empty.json", "{}")
        dir.write("other.json", "{\"rungs\": [{\"name\": \"7k\", \"letters_per_s\": 5}]}")
        dir.write("broken.json", "{\"rungs\": [")
        let cases = [("missing.json", "cannot read"), ("empty.json", "no \"rungs\" array"),
                     ("other.json", "no rung in common with this ladder (1M"), ("broken.json", "not valid JSON")]
        for (file, reason) in cases {
            // A 1M-device rung takes minutes in a debug build: a refusal after the ladder would time out.
            let started = Date()
            let result = try bash("timeout -k 5 30 pushsim bench --devices 1000000 --baseline \(file); echo $?", in: dir)
            #expect(Date().timeIntervalSince(started) < 10, "\(file)")
            expectEqual(result.output, "2\n", "\(file): \(result.output)")
            #expect(result.error.contains(reason), "\(file): \(result.error)")
            #expect(!result.error.contains("warm-up"), "\(file): the ladder started")
        }
    }
}
