// What a sweep says before it runs when the command line's axes combine with the file's own `sweep:`.
import PushSimCore
import PushSimScenarioFile

package enum SweepAxesNote {
    /// The note, or nil when nothing combines: `--vary` axes given and at least one of the
    /// file's `sweep:` axes kept beside them (its path neither varied nor fixed with `--set`).
    /// It names both sides, the points and runs they make, the estimated work and memory, and
    /// how to run the `--vary` axes alone, so 5 asked points never silently become 40.
    package static func text(commandLine: [SweepAxis], kept: [SweepAxis], replications: Int,
                             estimates: [ResourceEstimate]) -> String? {
        guard !commandLine.isEmpty, !kept.isEmpty else { return nil }
        func list(_ axes: [SweepAxis]) -> String {
            axes.map { "`\($0.path)` (\($0.values.count) value\($0.values.count == 1 ? "" : "s"))" }.joined(separator: " × ")
        }
        let asked = SweepGrid.pointCount(commandLine) ?? 0
        let points = SweepGrid.pointCount(commandLine + kept) ?? 0
        let events = estimates.reduce(0) { $0 + $1.events } * Double(replications)
        let memory = estimates.map(\.memoryBytes).max() ?? 0
        let plural = replications == 1 ? "" : "s"
        let grid: String = "\(points) points, not \(asked), × \(replications) replication\(plural) = \(points * replications) runs"
        let seconds: Double = events / ResourceEstimate.Limits.eventsPerSecond
        let work: String = "about \(ResourceEstimate.count(events)) events (\(ResourceEstimate.time(seconds)) at 10 M events/s)"
        let head: String = "sweep: --vary \(list(commandLine)) combines with the file's own sweep: \(list(kept))"
        return head + ": " + grid + ", " + work + ", up to \(ResourceEstimate.bytes(memory)) of memory per run. "
            + "To run the --vary axes alone (\(asked) points), add --only-vary.\n"
    }
}
