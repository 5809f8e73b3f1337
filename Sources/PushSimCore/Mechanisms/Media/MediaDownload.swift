// Media attachments (extension.media): the extension downloads a letter's attachment before it shows the push.

extension DeviceWorld {
    /// Which letters carry an attachment and its size, from a stream of their own, the same in
    /// both arms: one draw per letter, a size for those that carry one.
    @inline(never) mutating func drawAttachments() {
        guard let media = parameters.media, let size = parameters.mediaSize else { return }
        var rng = RandomStream(seed: scenario.seed, device: armState.device, purpose: .mediaLetters)
        draws.mediaBytes.removeAll(keepingCapacity: true)
        for _ in 0..<draws.letters.count {
            draws.mediaBytes.append(rng.chance(media.share) ? max(1, size.sample(&rng)) : 0)
        }
    }

    /// A run's processing with its attachment's download added (docs/model.md §8): a run of a
    /// letter with an attachment finds it cached with probability `cache_hit`; otherwise it
    /// downloads `size` at a bandwidth drawn for this run (stream `mediaDownloads`), taking
    /// size × 8 / bandwidth. A download that takes the run past its deadline counts as an overrun.
    /// An attachment whose decoded size passes `memory_limit` sets `killedAfter` to the time from
    /// the run's start to its decoding, the end of its download (at once when cached): the system
    /// kills the run then (MemoryLimit.swift).
    @inline(never) mutating func withMediaDownload(_ processing: Int64, letter: Int, at now: Int64, killedAfter: inout Int64) -> Int64 {
        guard letter < draws.mediaBytes.count, draws.mediaBytes[letter] > 0, let media = parameters.media,
              let bandwidth = parameters.mediaBandwidth else { return processing }
        let overLimit = media.exceedsMemoryLimit(bytes: draws.mediaBytes[letter])
        if armState.streams.mechanismStreams.mediaDownloads.chance(media.cacheHit) {
            ledger.media.cacheHits += counted(letter)
            if overLimit { killedAfter = 0 }
            return processing
        }
        let bitsPerSecond = max(1, bandwidth.sample(&armState.streams.mechanismStreams.mediaDownloads))
        let download = SimTime.rounding(Double(draws.mediaBytes[letter]) * 8 / Double(bitsPerSecond) * Double(SimTime.second)).microseconds
        let total = later(processing, download)
        ledger.media.downloads += counted(letter)
        let deadline = parameters.deadline.microseconds
        // Killed at the download's end (at or before the deadline), the run never times out.
        let killed = overLimit && download <= deadline
        if processing <= deadline && total > deadline && !killed { ledger.media.overruns += counted(letter) }
        note(.device, letter, .attachmentDownloaded(bytes: draws.mediaBytes[letter], in: SimTime(microseconds: download)), at: now)
        if overLimit { killedAfter = download }
        return total
    }
}
