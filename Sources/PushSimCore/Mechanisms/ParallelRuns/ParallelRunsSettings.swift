// Parallel runs: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let saveDelays = StreamPurpose(frozen: 18)      // when a parallel extension run writes the saved position (extension.save_delay)
}
