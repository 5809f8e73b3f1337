// Invariant checks of the engine, compiled in only with `-DPUSHSIM_INTERNAL_CHECKS` (as swift-collections' COLLECTIONS_INTERNAL_CHECKS).

/// The engine's invariants (the heap's order, no step before the clock, the ledger's
/// identities, each letter's state) checked while it runs. Off in release builds and in the
/// plain `swift test`, where they would cost the hot loop; `.ci/run` runs the tests once more
/// with them compiled in (`swift test --scratch-path .build/checks -Xswiftc -DPUSHSIM_INTERNAL_CHECKS`),
/// so a broken invariant stops the run at the step that broke it, not at a wrong count later.
package enum InternalChecks {
    #if PUSHSIM_INTERNAL_CHECKS
    package static let enabled = true
    #else
    package static let enabled = false
    #endif

    /// Stops the process with `message` when `condition` does not hold, in checking builds only;
    /// compiles to nothing otherwise (neither argument is evaluated).
    @inline(__always) package static func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                                                  file: StaticString = #fileID, line: UInt = #line) {
        #if PUSHSIM_INTERNAL_CHECKS
        precondition(condition(), "PushSim internal check: \(message())", file: file, line: line)
        #endif
    }
}
