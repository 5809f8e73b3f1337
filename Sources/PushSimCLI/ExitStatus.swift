// The exit statuses of `pushsim`, each named once with its meaning (docs/errors.md lists what leads to each).
import PushSimReport

/// What a command's exit status means. Shell scripts and CI depend on these numbers; `pushsim
/// --help` lists them from here.
package enum ExitStatus: CaseIterable {
    /// The command did its job.
    case success
    /// `check` or `merge` found a regression (the job ran; the result is worse).
    case regression
    /// Bad input or usage: nothing was written.
    case badInput
    /// Ended by a signal: 128 + its number.
    case signalled

    /// The status the process exits with; for `signalled`, the base the signal's number is added to.
    package var code: Int32 {
        switch self {
        case .success: return 0
        case .regression: return 1
        case .badInput: return 2
        case .signalled: return 128
        }
    }

    /// What the status tells a script, in the words `pushsim --help` prints.
    var meaning: String {
        switch self {
        case .success: return "success"
        case .regression: return "check or merge found a regression"
        case .badInput: return "bad input or usage; nothing was written"
        case .signalled: return "ended by signal N (130 Ctrl-C, 143 SIGTERM)"
        }
    }

    /// The status as help shows it: its number, or `128+N` for a signal.
    var shown: String { self == .signalled ? "\(code)+N" : "\(code)" }

    /// The exit status for signal `number`: 128 + its number (130 for SIGINT, 143 for SIGTERM).
    package static func signal(_ number: Int32) -> Int32 { signalled.code + number }

    /// The lines of top-level help that list every status with its meaning.
    static var helpLines: [String] {
        let width = allCases.map(\.shown.count).max() ?? 0
        return allCases.map { "  " + $0.shown + String(repeating: " ", count: width + 2 - $0.shown.count) + $0.meaning }
    }
}

extension ExitStatus {
    /// A check of one scenario: a regression is 1, identical or within tolerance 0.
    init(_ outcome: CheckOutcome) {
        self = outcome == .regression ? .regression : .success
    }

    /// A check of several scenarios: one that could not be checked makes it bad input (2),
    /// else a regression 1, else 0.
    init(_ verdict: CheckSuiteReport.Verdict) {
        switch verdict {
        case .pass: self = .success
        case .regression: self = .regression
        case .error: self = .badInput
        }
    }
}

