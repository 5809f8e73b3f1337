// The exit statuses of `pushsim`, named once (docs/errors.md lists what leads to each).

/// What a command's exit status means. Shell scripts and CI depend on these numbers.
package enum ExitStatus {
    /// The command did its job.
    package static let success: Int32 = 0
    /// `check` or `merge` found a regression (the job ran; the result is worse).
    package static let regression: Int32 = 1
    /// Bad input or usage: nothing was written.
    package static let badInput: Int32 = 2
    /// Ended by a signal: 128 + its number (130 for SIGINT, 143 for SIGTERM).
    package static func signal(_ number: Int32) -> Int32 { 128 + number }
}
