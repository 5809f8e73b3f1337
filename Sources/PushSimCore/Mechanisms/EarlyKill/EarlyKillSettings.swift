// Early kills: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let extensionKills = StreamPurpose(frozen: 16)  // whether the system kills an extension run early (extension.early_kill)
}
