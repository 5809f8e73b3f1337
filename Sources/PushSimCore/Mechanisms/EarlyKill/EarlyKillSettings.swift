// Early kills: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let extensionKills = StreamPurpose(frozen: 16)  // whether the system kills an extension run early (extension.early_kill)
}
