// Which machine a bench measured on, so that a baseline from another machine is not read as a change of the build.
import Foundation
import PushSimExperiment

/// The machine a `pushsim bench` ran on: its processor, how many logical processors it
/// offers, and its system. Speed figures hold for one machine only (the bench ladder, at
/// about the same instruction counts, ran 2.2–2.7 times slower on one two-core cloud machine
/// than on another: docs/performance.md, The bench's machine), so a bench document records it and a
/// comparison with a baseline from another machine says so.
package struct BenchMachine: Sendable, Equatable {
    /// The processor's model name (Linux: /proc/cpuinfo's first `model name`), or "unknown".
    package var processor: String
    package var logicalProcessors: Int
    /// The operating system, its kernel's release and the architecture: "Linux 6.1.0 x86_64".
    package var system: String

    package init(processor: String, logicalProcessors: Int, system: String) {
        self.processor = processor
        self.logicalProcessors = logicalProcessors
        self.system = system
    }

    /// This machine.
    package static var current: BenchMachine {
        BenchMachine(processor: BenchProcess.processorModel() ?? "unknown",
                     logicalProcessors: ProcessInfo.processInfo.activeProcessorCount,
                     system: [PushSimVersion.operatingSystem, BenchProcess.kernelRelease(), PushSimVersion.architecture]
                        .compactMap { $0 }.joined(separator: " "))
    }

    /// How a report names it: "AMD EPYC, 2 logical processors, Linux 6.1.0 x86_64".
    package var summary: String {
        "\(processor), \(logicalProcessors) logical processor\(logicalProcessors == 1 ? "" : "s"), \(system)"
    }

    /// Whether figures measured on `other` compare with figures measured here: the same
    /// processor model and as many logical processors (the system's release may differ).
    package func measuresLike(_ other: BenchMachine) -> Bool {
        processor == other.processor && logicalProcessors == other.logicalProcessors
    }

    var json: JSONValue {
        .object(["processor": .string(processor), "logical_processors": .int(logicalProcessors), "system": .string(system)])
    }

    /// The `machine` object of a bench document; nil when it has none (documents written
    /// before it was recorded) or it is not one this version writes.
    static func read(_ value: JSONValue?) -> BenchMachine? {
        guard case .object(let members)? = value, case .string(let processor)? = members["processor"],
              let processors = BenchReport.number(members["logical_processors"]), processors >= 1, processors <= 1_000_000 else { return nil }
        let system: String
        if case .string(let text)? = members["system"] { system = text } else { system = "unknown" }
        return BenchMachine(processor: processor, logicalProcessors: Int(processors), system: system)
    }

    /// The line a comparison with a baseline starts with: whether the two were measured on
    /// the same kind of machine, and what a difference then means.
    package static func comparisonNote(baseline: BenchMachine?, now: BenchMachine) -> String {
        guard let baseline else {
            return "the baseline does not say which machine measured it (written before bench documents recorded it); this is \(now.summary): a drop may be the machine's, not the build's\n"
        }
        if baseline.measuresLike(now) { return "measured on the baseline's kind of machine: \(now.summary)\n" }
        return "the baseline was measured on \(baseline.summary); this is \(now.summary): the figures compare two machines, not only two builds — measure a baseline here (.ci/regenerate-bench) before reading a drop as the build's\n"
    }
}
