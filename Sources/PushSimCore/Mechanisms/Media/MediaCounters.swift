// What `extension.media` counted (docs/model.md §8), declared once.

/// Extension runs that downloaded an attachment, those the download pushed past the deadline,
/// and those that found it in the cache (no download).
package struct MediaCounters: CounterSet {
    package var downloads = 0
    package var overruns = 0
    package var cacheHits = 0
    package init() {}

    /// Extension runs of a letter with an attachment.
    package var attachmentRuns: Int { downloads + cacheHits }

    /// Shown once a run downloaded an attachment or found it cached.
    package static let group = CounterGroup("extension.media", json: "media", place: .queueBlock,
                                            shown: { $0.media.attachmentRuns > 0 }, isEmpty: { $0.media == MediaCounters() }, [
        Counter("media_downloads", \.media.downloads, json: "downloads", label: "  attachments downloaded"),
        Counter("media_overruns", \.media.overruns, json: "overruns", label: "  downloads past the deadline"),
        Counter("media_cache_hits", \.media.cacheHits, json: "cache_hits", label: "  attachments found in the cache"),
    ])
}
