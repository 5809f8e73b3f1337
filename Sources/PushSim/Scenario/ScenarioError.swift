// The one error type of scenario reading: where the input is wrong, and what was expected there.

/// A bad scenario file or `--set` override.
///
/// Every message says what was expected and what was found. Errors in a `--set` argument carry
/// the file name `--set`, line 1, and the column within the whole `PATH=VALUE` argument, so the
/// same `file:line:column: message` form points at the offending character there too.
public struct ScenarioError: Error, CustomStringConvertible, Sendable {
    /// nil only when there is no text to point into (an unreadable file).
    public var location: SourceLocation?
    public var message: String

    public init(location: SourceLocation?, message: String) {
        self.location = location; self.message = message
    }

    /// `file:line:column: message`.
    public var description: String {
        guard let location else { return message }
        return "\(location): \(message)"
    }

    /// The file name errors in `--set` arguments carry.
    public static let overrideFile = "--set"
}
