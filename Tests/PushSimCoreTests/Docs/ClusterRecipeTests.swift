// The cluster recipes of docs/cluster/ run as written: Slurm with a stand-in sbatch (and on a real Slurm in CI: test-local.sh), Kubernetes with a stand-in kubectl.
import Foundation
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite(.serialized) struct ClusterRecipeTests {
    /// Behaves as Slurm does where the recipe depends on it: a task's --output file is opened
    /// before the task starts (a missing folder fails the task), array tasks get
    /// SLURM_ARRAY_TASK_ID and the #SBATCH --cpus-per-task, --export passes variables, and a job
    /// with --dependency=afterok:ID runs only when every task of ID succeeded; otherwise it is
    /// cancelled with --kill-on-invalid-dep=yes, or reported as waiting forever without it.
    static let standInSbatch = #"""
    #!/bin/bash
    set -u
    state=${SBATCH_STATE:?}
    parsable=0; array=""; dep=""; wrap=""; exports=""; output=""; kill=0; script=""
    while [ $# -gt 0 ]; do
      case "$1" in
        --parsable) parsable=1 ;;
        --array=*) array=${1#--array=} ;;
        --dependency=*) dep=${1#--dependency=} ;;
        --wrap=*) wrap=${1#--wrap=} ;;
        --export=*) exports=${1#--export=} ;;
        --output=*) output=${1#--output=} ;;
        --kill-on-invalid-dep=yes) kill=1 ;;
        --job-name=*|--cpus-per-task=*) ;;
        -*) echo "stand-in sbatch: unsupported option $1" >&2; exit 1 ;;
        *) script=$1 ;;
      esac
      shift
    done
    id=$(cat "$state/next" 2>/dev/null || echo 100); echo $((id + 1)) > "$state/next"
    [ $parsable = 1 ] && echo "$id" || echo "Submitted batch job $id"
    cpus=1
    if [ -n "$script" ]; then
      [ -z "$output" ] && output=$(sed -n 's/^#SBATCH --output=//p' "$script" | head -1)
      c=$(sed -n 's/^#SBATCH --cpus-per-task=//p' "$script" | head -1); [ -n "$c" ] && cpus=$c
    fi
    [ -z "$output" ] && output="slurm-%j.out"
    envs=(); IFS=, read -ra pairs <<< "$exports"
    for p in "${pairs[@]}"; do [ "$p" = ALL ] || envs+=("$p"); done
    if [ -n "$dep" ]; then
      after=${dep#afterok:}
      if [ "$(cat "$state/$after.status" 2>/dev/null)" != 0 ]; then
        if [ $kill = 1 ]; then echo cancelled > "$state/$id.status"; else echo waiting-forever > "$state/$id.status"; fi
        exit 0
      fi
    fi
    status=0
    run() {  # $1: log file; the rest: the command
      local log=$1; shift
      if [ ! -d "$(dirname "$log")" ]; then status=1; return; fi
      env "${envs[@]}" "$@" > "$log" 2>&1 || status=1
    }
    if [ -n "$array" ]; then
      for ((k = ${array%-*}; k <= ${array#*-}; k++)); do
        log=${output//%A/$id}; log=${log//%a/$k}; log=${log//%j/$id}
        run "$log" SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_JOB_ID=$id SLURM_CPUS_PER_TASK=$cpus bash "$script"
      done
    elif [ -n "$wrap" ]; then
      run "${output//%j/$id}" bash -c "$wrap"
    else
      run "${output//%j/$id}" SLURM_CPUS_PER_TASK=$cpus bash "$script"
    fi
    echo $status > "$state/$id.status"
    """#

    static let scenario = "name: cluster\nduration: 1d\ndevices: 30\nseed: 5\nconnectivity: {online: exponential(3h), offline: exponential(40m)}\n"

    private func slurm(_ dir: TemporaryDirectory, extraEnvironment: [String: String] = [:]) throws -> (status: Int32, output: String, error: String) {
        let bin = try Shell.toolFolder(in: dir)
        Shell.installScript("sbatch", Self.standInSbatch, in: bin)
        try FileManager.default.createDirectory(atPath: dir.file("state"), withIntermediateDirectories: true)
        try Shell.copy("docs/cluster/slurm", to: dir)
        dir.write("cluster.yaml", Self.scenario)
        return Shell.bash([dir.file("docs/cluster/slurm/submit.sh"), "cluster.yaml", "3"], in: dir.path, path: [bin],
                          environment: ["SBATCH_STATE": dir.file("state")].merging(extraEnvironment) { $1 })
    }

    @Test func theSlurmRecipeRunsEveryShardThenMergesIntoTheSingleRun() throws {
        let dir = TemporaryDirectory()
        let submitted = try slurm(dir)
        expectEqual(submitted.status, 0, "\(submitted.error)")
        let merged = try String(contentsOfFile: dir.file("results/cluster.json"), encoding: .utf8)
        let single = try BuiltTool.run(["run", "cluster.yaml", "--json", "--no-write"], in: dir.path)
        expectEqual(merged, single.output)
        #expect(FileManager.default.fileExists(atPath: dir.file("results/cluster/summary.json")))
        let logs = try FileManager.default.contentsOfDirectory(atPath: dir.file("logs")).sorted()
        expectEqual(logs.filter { $0.hasPrefix("shard-") }.count, 3)
        // Shard progress reaches the task's log.
        let log = try String(contentsOfFile: dir.file("logs/" + (logs.first { $0.hasPrefix("shard-") } ?? "")), encoding: .utf8)
        #expect(log.contains("shard 0/3 of 'cluster'") && log.contains("done"))
        try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.file("parts")).sorted(), ["part-0.json", "part-1.json", "part-2.json"])
    }

    @Test func aFailedShardCancelsTheMergeInsteadOfLeavingItWaiting() throws {
        let dir = TemporaryDirectory()
        let submitted = try slurm(dir, extraEnvironment: ["PUSHSIM_ARGS": "--set devices=0"])
        expectEqual(submitted.status, 0)
        #expect(!FileManager.default.fileExists(atPath: dir.file("results/cluster.json")))
        let statuses = try FileManager.default.contentsOfDirectory(atPath: dir.file("state")).filter { $0.hasSuffix(".status") }
        let texts = try statuses.map { try String(contentsOfFile: dir.file("state/" + $0), encoding: .utf8) }
        #expect(texts.contains("cancelled\n") && !texts.contains("waiting-forever\n"))
        // A failed task leaves no part that looks whole.
        #expect(!FileManager.default.fileExists(atPath: dir.file("parts/part-0.json")))
    }

    /// docs/cluster/slurm/test-local.sh runs the recipe on a real Slurm, in CI (.ci/run); a test
    /// cannot (it needs root and installs packages). Here what needs neither: it parses, refuses a
    /// missing binary with exit 2 and the way to build one before it touches anything, CI runs it,
    /// and its committed log is of a run where both checks passed.
    @Test func theRealSlurmTestParsesRefusesEarlyAndIsRunByCI() throws {
        let script = Shell.packageRoot + "/docs/cluster/slurm/test-local.sh"
        expectEqual(Shell.bash(["-n", script], in: Shell.packageRoot).status, 0)
        let dir = TemporaryDirectory()
        let missing = Shell.bash([script], in: dir.path, environment: ["PUSHSIM": dir.file("no-such-pushsim")])
        #expect(missing.status == 2 && missing.error.contains("swift build -c release --product pushsim"), "\(missing.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        let ci = try String(contentsOfFile: Shell.packageRoot + "/.ci/run", encoding: .utf8)
        let ciLines = ci.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(ciLines.contains("bash docs/cluster/slurm/test-local.sh") && ciLines.contains { $0.hasPrefix("release_tool_steps()") && $0.contains("slurm_recipe") })
        let log = try String(contentsOfFile: Shell.packageRoot + "/docs/cluster/slurm/test-local.log", encoding: .utf8)
        #expect(log.contains("check 1 passed") && log.contains("check 2 passed") && log.contains("PASS: the Slurm recipe on a real Slurm"))
    }

    static let standInKubectl = #"""
    #!/bin/bash
    # Records every call, and what was piped in for `apply -f -`.
    echo "kubectl $*" >> "$KUBECTL_LOG"
    if [ "${1:-}" = apply ] && [ "${3:-}" = - ]; then cat >> "$KUBECTL_LOG"; echo "---" >> "$KUBECTL_LOG"; fi
    if [ "${1:-}" = logs ]; then echo '{"runs":[],"scenario":"cluster","seed":5}'; fi
    exit 0
    """#

    @Test func theKubernetesRecipeWritesNOnceAndWaitsWithTimeouts() throws {
        let dir = TemporaryDirectory()
        let bin = dir.file("stand-ins")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        Shell.installScript("kubectl", Self.standInKubectl, in: bin)
        try Shell.copy("docs/cluster/kubernetes", to: dir)
        let result = Shell.bash([dir.file("docs/cluster/kubernetes/run.sh"), "/scenarios/commuters.yaml", "3"], in: dir.path,
                                path: [bin], environment: ["KUBECTL_LOG": dir.file("kubectl.log")])
        expectEqual(result.status, 0, "\(result.error)")
        #expect(result.output.contains("\"scenario\":\"cluster\""))
        let log = try String(contentsOfFile: dir.file("kubectl.log"), encoding: .utf8)
        for expected in ["pvc.yaml", "completions: 3", "parallelism: 3", "completionMode: Indexed",
                         "--shard ${JOB_COMPLETION_INDEX}/3", "pushsim run /scenarios/commuters.yaml",
                         "name: pushsim-commuters-merge", "pushsim merge /work/parts/part-*.json --out /work/results/commuters",
                         "claimName: pushsim-work"] {
            #expect(log.contains(expected), "missing \(expected)")
        }
        #expect(!log.contains("{{"), "a placeholder was left in a manifest")
        let waits = log.split(separator: "\n").filter { $0.hasPrefix("kubectl wait") }
        #expect(waits.count == 2 && waits.allSatisfy { $0.contains("--timeout=") })
        // N is written once, in run.sh: no manifest holds a shard count of its own.
        for file in ["shards.yaml", "merge.yaml", "pvc.yaml"] {
            let text = try String(contentsOfFile: dir.file("docs/cluster/kubernetes/" + file), encoding: .utf8)
            #expect(!text.contains("completions: 1") && !text.contains("/16"), "\(file) fixes N")
        }
    }

    @Test func theDockerfileCopiesWhatExistsAndItsSmokeTestPasses() throws {
        let text = try String(contentsOfFile: Shell.packageRoot + "/docs/cluster/Dockerfile", encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        // Every COPY from the build context names something in the repository.
        for line in lines where line.hasPrefix("COPY ") && !line.contains("--from=") {
            let sources = line.split(separator: " ").dropFirst().dropLast()
            for source in sources {
                #expect(FileManager.default.fileExists(atPath: Shell.packageRoot + "/" + source), "COPY \(source): not in the repository")
            }
        }
        // RUN steps are shell: they must at least parse.
        let runs = text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n").filter { $0.hasPrefix("RUN ") }
        #expect(runs.count >= 2)
        let dir = TemporaryDirectory()
        for (i, run) in runs.enumerated() {
            let file = dir.write("run-\(i).sh", String(run.dropFirst(4)) + "\n")
            expectEqual(Shell.bash(["-n", file], in: dir.path).status, 0, "\(run)")
        }
        // The image's smoke test, against this build and the repository's scenarios.
        let bin = try Shell.toolFolder(in: dir)
        let smoke = try #require(runs.last { $0.contains("pushsim validate") })
        let command = smoke.dropFirst(4).replacingOccurrences(of: "/scenarios/", with: Shell.packageRoot + "/scenarios/")
        expectEqual(Shell.bash(["-c", command], in: dir.path, path: [bin]).status, 0)
        #expect(text.contains("--static-swift-stdlib") && text.contains("-slim"))
    }
}
