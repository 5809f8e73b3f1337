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

    package init(share: Double, size: Distribution, bandwidth: Distribution, cacheHit: Double = 0) {
        self.share = share; self.size = size; self.bandwidth = bandwidth; self.cacheHit = cacheHit
    }
}
