// Parallel runs: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let saveDelays = StreamPurpose(frozen: 18)      // when a parallel extension run writes the saved position (extension.save_delay)
}
