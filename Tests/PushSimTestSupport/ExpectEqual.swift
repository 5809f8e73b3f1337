// Equality expectations without a macro to expand and type-check at every call.
import Testing

/// Records an issue at the caller's line when `actual` and `expected` differ, as
/// `#expect(actual == expected)` would, naming both values and the comment.
///
/// `#expect` is a macro: each use expands into a closure around its operator that the compiler
/// type-checks again, about 18 ms of the test build per equality on this project's machine
/// (against about 1 ms for a call of this function). Equalities are most of the tests'
/// expectations, so they use this; other conditions keep `#expect`, whose expansion shows the
/// values of their parts.
package func expectEqual<Value: Equatable>(
    _ actual: Value, _ expected: Value, _ comment: @autoclosure () -> Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard actual != expected else { return }
    var text = "Expectation failed: \(String(reflecting: actual)) == \(String(reflecting: expected))"
    if let comment = comment() { text += ": \(comment)" }
    Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
}
