// One axis of a parameter sweep, as a scenario's `sweep:` section declares it.

/// A key and the values a sweep runs it through, kept in the file syntax so that each value can
/// be applied as a `--set PATH=VALUE` override (every value was checked to decode that way).
package struct SweepAxis: Sendable, Hashable {
    /// The dotted key path, as `--set` takes it (`queue.repeat_max_count`).
    package var path: String
    /// The values in file order, each in the one-line file syntax (`5`, `exponential(3h)`, `[{start: 8h, end: 9h}]`).
    package var values: [String]

    package init(path: String, values: [String]) {
        self.path = path; self.values = values
    }
}
