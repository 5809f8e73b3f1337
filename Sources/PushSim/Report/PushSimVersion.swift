// The version of this PushSim: partial results carry it, and merge refuses parts of another version.

public enum PushSimVersion {
    /// Raised with every release whose results or formats may differ from the one before.
    public static let current = "2.0.0-dev"
}
