// Reading the scenario named on a command line, with the overrides every command shares.
import PushSimCore
import PushSimScenarioFile

/// The options that pick and adjust a scenario: FILE, `--set PATH=VALUE`…, `--seed N`.
struct ScenarioInput {
    /// Loads the scenario of the single positional FILE, applying `--set` and then `--seed`.
    /// Whether `text` is a `--seed`: decimal digits only, as the scenario's `seed` takes them
    /// (`UInt64("+5")` and `UInt64("-0")` read, and were then refused as `--set:1:6: seed`).
    static func isSeed(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) } && UInt64(text) != nil
    }

    static func load(_ arguments: Arguments) throws -> (Scenario, [SweepAxis]) {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw InputError.usage(arguments.positionals.isEmpty ? "missing the scenario FILE"
                             : "expected one scenario FILE, got \(arguments.positionals.count)")
        }
        var overrides = arguments.values("set")
        if let seed = arguments.value("seed") {
            guard ScenarioInput.isSeed(seed) else { throw InputError.usage("--seed needs an unsigned 64-bit integer, got '\(seed)'") }
            overrides.append("seed=\(seed)")
        }
        // A trace too big for --max-memory is refused from its size, before it is read
        // (docs/errors.md §7); commands without the option get the machine's default.
        let limits = try ResourceGuard.limits(arguments)
        return try ScenarioLoader.loadWithSweep(path: path, overrides: overrides, traceMemoryLimit: limits.maxMemoryBytes)
    }

    /// The arm `--queue on|off` picks: on by default, unless the scenario's queue.mode is off.
    static func arm(_ arguments: Arguments, scenario: Scenario) throws -> Arm {
        guard let text = arguments.value("queue") else { return scenario.queue.mode == .off ? .off : .on }
        guard let arm = Arm(rawValue: text) else { throw InputError.usage("--queue takes on or off, got '\(text)'") }
        return arm
    }

    /// The default number of threads: every core of the machine.
    static var defaultJobs: Int { max(1, ProcessInfoShim.cores) }
}

import Foundation
enum ProcessInfoShim { static var cores: Int { ProcessInfo.processInfo.activeProcessorCount } }
