// Sample statistics for closed-form tests: tolerances come from the sample, never from a guess.
import Foundation

/// The mean of a sample and the standard error of that mean.
package func meanAndStandardError(_ xs: [Double]) -> (mean: Double, se: Double) {
    let n = Double(xs.count)
    let mean = xs.reduce(0, +) / n
    let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
    return (mean, (variance / n).squareRoot())
}

/// A ratio of totals Σy / Σx over independent batches (e.g. devices), with its delta-method
/// standard error. Letters of one device are correlated; devices are not, so batching by device
/// gives an honest error bar.
package func ratioAndStandardError(numerators y: [Double], denominators x: [Double]) -> (ratio: Double, se: Double) {
    let n = Double(y.count)
    let total = x.reduce(0, +)
    let ratio = y.reduce(0, +) / total
    let meanX = total / n
    var residuals = 0.0
    for (yi, xi) in zip(y, x) { residuals += (yi - ratio * xi) * (yi - ratio * xi) }
    let variance = residuals / (n - 1)
    return (ratio, (variance / n).squareRoot() / meanX)
}

/// The standard error of a binomial proportion p from n independent trials.
package func binomialStandardError(_ p: Double, _ n: Int) -> Double {
    (p * (1 - p) / Double(n)).squareRoot()
}

/// True when `measured` is within `k` standard errors of `expected`.
package func within(_ measured: Double, _ expected: Double, standardErrors k: Double = 4, se: Double) -> Bool {
    abs(measured - expected) <= k * se
}

/// Prints a measured value against its closed form when PUSHSIM_REPORT is set (for reports).
package func report(_ name: String, measured: Double, se: Double, expected: Double) {
    guard ProcessInfo.processInfo.environment["PUSHSIM_REPORT"] != nil else { return }
    print(String(format: "CLOSED FORM %@: measured %.6f ± %.6f (1 SE), expected %.6f, z = %.2f",
                 name, measured, se, expected, se > 0 ? (measured - expected) / se : 0))
}
