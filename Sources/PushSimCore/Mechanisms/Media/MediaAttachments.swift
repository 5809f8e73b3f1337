// Media attachments (extension.media): which letters carry one, how big, how fast it downloads, how often it is cached.

/// Letters whose notification shows an attachment the extension downloads before it shows the
/// push (docs/model.md §8, Media attachments). `size` is a distribution of bytes and
/// `bandwidth` of bits per second, held as ``Distribution``s whose "microseconds" are those units.
package struct MediaAttachments: Sendable, Equatable {
    /// The share of letters with an attachment.
    package var share: Double
    package var size: Distribution
    package var bandwidth: Distribution
    /// Probability a run finds the attachment in the cache already (no download).
    package var cacheHit: Double = 0
    /// The extension's memory limit in bytes (docs/model.md §8, The extension's memory limit):
    /// a run whose decoded attachment passes it is killed; nil: no limit.
    package var memoryLimit: Int64? = nil
    /// Decoded bytes per downloaded byte: an attachment of `size` bytes takes `size × decode_factor` in memory.
    package var decodeFactor: Double = 10

    package init(share: Double, size: Distribution, bandwidth: Distribution, cacheHit: Double = 0,
                 memoryLimit: Int64? = nil, decodeFactor: Double = 10) {
        self.share = share; self.size = size; self.bandwidth = bandwidth; self.cacheHit = cacheHit
        self.memoryLimit = memoryLimit; self.decodeFactor = decodeFactor
    }

    /// Whether an attachment of `bytes` passes the memory limit once decoded.
    package func exceedsMemoryLimit(bytes: Int64) -> Bool {
        guard let limit = memoryLimit, bytes > 0 else { return false }
        return Double(bytes) * decodeFactor > Double(limit)
    }
}
