// The version of PushSim that made a result, recorded beside it; partial results of another version do not merge (CHANGELOG.md lists what each one changed).

package enum PushSimVersion {
    /// Semantic version: the major number moves with the scenario format's version
    /// (docs/scenarios.md), the minor with user-visible additions, the patch with fixes.
    package static let current = "2.0.0"
}
