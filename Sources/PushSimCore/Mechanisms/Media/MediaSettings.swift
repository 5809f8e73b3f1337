// Media attachments: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let mediaLetters = StreamPurpose(frozen: 28)    // which letters carry an attachment, and its size (extension.media)
    package static let mediaDownloads = StreamPurpose(frozen: 29)  // per extension run: a cache hit, the bandwidth (extension.media)
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// Media attachments: a size per letter, drawn and kept; a download draw per run.
    package static func mediaLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, peakL = c.peakLetters, armCount = c.armCount
        if let media = s.extension.media {
            return MechanismLoad(key: "extension.media", eventsPerDevice: L * eventsPerLoopStep * (1 + armCount * media.share),
                                 bytesPerDevice: 8 * peakL, fix: "lower extension.media.share or mail.rate")
        }
        return nil
    }
}
