// Media attachments: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let mediaLetters = StreamPurpose(frozen: 28)    // which letters carry an attachment, and its size (extension.media)
    package static let mediaDownloads = StreamPurpose(frozen: 29)  // per extension run: a cache hit, the bandwidth (extension.media)
}
