// What `extension.media` counted (docs/model.md §8), declared once.

/// Extension runs that downloaded an attachment, those the download pushed past the deadline,
/// and those that found it in the cache (no download).
package struct MediaCounters: CounterSet {
    package var downloads = 0
    package var overruns = 0
    package var cacheHits = 0
    /// Runs the system killed at the memory limit, and the letters of their gaps whose recovery died with them.
    package var memoryKills = 0
    package var recoveriesLost = 0
    package init() {}

    /// Extension runs of a letter with an attachment.
    package var attachmentRuns: Int { downloads + cacheHits }

    /// Shown once a run downloaded an attachment or found it cached.
    package static let group = CounterGroup("extension.media", json: "media", place: .queueBlock,
                                            shown: { $0.media.attachmentRuns > 0 }, isEmpty: { $0.media == MediaCounters() }, [
        Counter("media_downloads", \.media.downloads, json: "downloads", label: "  attachments downloaded"),
        Counter("media_overruns", \.media.overruns, json: "overruns", label: "  downloads past the deadline"),
        Counter("media_cache_hits", \.media.cacheHits, json: "cache_hits", label: "  attachments found in the cache"),
        Counter("media_memory_kills", \.media.memoryKills, json: "memory_kills", label: "  runs killed at the memory limit"),
        Counter("media_recoveries_lost", \.media.recoveriesLost, json: "recoveries_lost", label: "  gap letters whose recovery they lost",
                arms: .queueArm),
    ])
}
