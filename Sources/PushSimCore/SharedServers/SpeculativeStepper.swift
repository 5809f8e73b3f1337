// Steps a partition's worlds around its binary connection with every world running ahead on forecasts (BinarySpeculation.swift): the same decisions, in the same global order, as stopping every world at every push.

/// What running ahead did in one arm of a partition: forecasts checked, how many were wrong (a
/// replay each), stops at the connection, windows.
package struct SpeculationCounts: Equatable, Sendable {
    package var forecasts = 0
    package var wrongForecasts = 0
    package var stops = 0
    package var windows = 0

    /// Up to how many events into its arm a world writes on a forecast. A wrong forecast costs
    /// a replay of the world's arm so far; a stop costs a resume. So a world forecasts while
    /// the chance of a wrong forecast (the partition's so far, from a prior of 1 in 200) times
    /// its events so far stays under about what a resume costs, taken as 8 events: where
    /// forecasts are rarely wrong every write is forecast; on a slow connection, where many
    /// are, a world stops forecasting after its first events (docs/performance.md, Worlds
    /// running ahead of the binary connection).
    var eventsWorthAForecast: Int {
        Int(8 * Double(forecasts + 200) / Double(wrongForecasts + 1))
    }
}

extension CoupledWorlds {
    /// How far the worlds run ahead of the connection's checks: each world is resumed about
    /// once a window (and once per stop), and a window's entries are held and sorted at once.
    /// A day (docs/performance.md, Worlds running ahead of the binary connection, for the
    /// windows measured).
    package static let speculationWindow: Int64 = 86_400 * 1_000_000

    /// Runs one arm of every world (already begun, with `arm`) to its end around the binary
    /// connection `server`, with the outcomes ``step(server:finished:)`` gives, but without
    /// stopping a world at each first send: it writes on a forecast and runs on.
    ///
    /// Window after window of time, every world runs ahead to the window's end (or to an instant
    /// only the connection can decide, where it waits); then the connection takes the window's
    /// entries in (instant, world, write) order. A forecast it agrees with stands. A world
    /// waiting is decided and runs ahead again. A forecast it does not agree with sends its
    /// world back to the arm's start, to replay what was decided and have that write decided by
    /// the connection, which by then knows every earlier write of the partition: every world
    /// has run past the entry's instant, and every entry before it was taken. A world that ran
    /// out is finished once the window is swept (none of its entries is left).
    /// For a partition that shares nothing but the connection, whose worlds nobody watches and
    /// whose client is built in (a replay runs it again).
    @discardableResult
    package func stepAhead(arm: Arm, connection server: inout BinaryConnectionServer, window: Int64 = CoupledWorlds.speculationWindow,
                           finished: (Int) -> Void) -> SpeculationCounts {
        var counts = SpeculationCounts()
        let speculations = SpeculationRecords(worlds: count)
        // Each world's generation, beside its record: checked at every entry, so kept where
        // the sweep reads it without a miss on the record.
        var generations = [Int32](repeating: 0, count: count)
        let sweep = SpeculationSweep()
        // The connection, in a cell for the run: deciders write it in place.
        let partition = ConnectionCell(server.connection)
        let forecaster = ConnectionCell(server.connection)
        defer { server.connection = partition.connection }
        var unfinished = count
        var windowStart: Int64 = 0
        while unfinished > 0 {
            sweep.startWindow(start: windowStart, end: SimTime.saturatingSum(windowStart, max(1, window)))
            counts.windows += 1
            for i in 0..<count {
                // What the next worlds touch first, fetched while this one runs ahead, as the
                // stepper that stops at every push does (WorldPrefetch.swift).
                if i + 3 < count { HotMemory.fetchWorld(i + 3, of: worlds) }
                if i + 2 < count { HotMemory.fetchObjects(of: &worlds[i + 2]) }
                if i + 1 < count { HotMemory.fetchElements(of: &worlds[i + 1]) }
                let s = speculations[i]
                guard !s.waiting && s.ranTo < sweep.windowEnd else { continue }
                runAhead(i, s, partition, forecaster, sweep: sweep, forecastsUpTo: counts.eventsWorthAForecast)
            }
            sweep.startSweep()
            while let entry = sweep.next() {
                // A world that waits is resumed when its entry comes: its memory fetched a few
                // entries ahead, the world's own lines first, then what they point to.
                if let soon = sweep.upcoming(8), soon.kind == .stop { HotMemory.fetchWorld(Int(soon.world), of: worlds) }
                if let soon = sweep.upcoming(4), soon.kind == .stop {
                    HotMemory.fetchObjects(of: &worlds[Int(soon.world)])
                    HotMemory.fetchElements(of: &worlds[Int(soon.world)])
                }
                let i = Int(entry.world)
                guard entry.generation == generations[i] else { continue }
                if entry.kind != .stop { counts.forecasts += 1 }
                // A plain forecast needs nothing of the world's record, not even a reference to it.
                if entry.kind == .plainForecast && partition.connection.writeIfAcceptedAtOnce(joiningAt: entry.time) { continue }
                let s = speculations[i]
                switch entry.kind {
                case .plainForecast:
                    break
                case .unusualForecast:
                    let forecast = s.takeUnusualForecast()
                    var trial = partition.connection
                    if trial.write(joiningAt: entry.time, malformed: forecast.malformed, errorDelay: { forecast.errorDelay }) == forecast.forecast {
                        partition.connection = trial
                        s.record(forecast.forecast, sequence: forecast.sequence, plain: trial.plainOutcome(joiningAt: entry.time))
                        continue
                    }
                case .stop:
                    counts.stops += 1
                    s.waiting = false
                    var decider = RecordedDecider(partition: partition, speculation: s)
                    worlds[i].settleBinaryOutbox(at: entry.time, with: &decider)
                    runAhead(i, s, partition, forecaster, sweep: sweep, forecastsUpTo: counts.eventsWorthAForecast)
                    continue
                }
                // The forecast was wrong: the world runs its arm again up to this write.
                counts.wrongForecasts += 1
                s.startReplay(before: Int(entry.sequence))
                generations[i] = s.generation
                worlds[i].restartArm(arm)
                runAhead(i, s, partition, forecaster, sweep: sweep, forecastsUpTo: counts.eventsWorthAForecast)
            }
            for i in sweep.ranOut where speculations[i].ranTo == Int64.max && !speculations[i].finished {
                speculations[i].finished = true
                unfinished -= 1
                finished(i)
            }
            InternalChecks.require(unfinished == 0 || sweep.windowEnd < Int64.max, "worlds left after the last window")
            guard sweep.windowEnd < Int64.max else { break }
            windowStart = sweep.windowEnd
        }
        return counts
    }

    /// Runs world i on until it must wait (an instant only the connection can decide), has
    /// written past the window's end, or has run out. A replay's new write is decided on the
    /// `partition`'s connection; forecasts start from it, in `forecaster`.
    private func runAhead(_ i: Int, _ s: BinarySpeculation, _ partition: ConnectionCell, _ forecaster: ConnectionCell,
                          sweep: SpeculationSweep, forecastsUpTo events: Int) {
        // Whatever it adds while the window is swept is one run, in time order.
        defer { sweep.closeRun() }
        // Forecasts start from the partition's connection as it is now.
        var forecasterIsFresh = false
        // The deciders hold only references: made once, not at every instant.
        var recorded = RecordedDecider(partition: partition, speculation: s)
        var forecast = ForecastDecider(speculation: s, forecaster: forecaster, sweep: sweep, world: Int32(i))
        while let now = worlds[i].runUntilItSends() {
            if s.replaying {
                worlds[i].settleBinaryOutbox(at: now, with: &recorded)
                if s.catchingUp && s.writesTaken > s.replayBefore { s.catchingUp = false }
                // The write it caught up with changed the connection.
                forecasterIsFresh = false
                continue
            }
            s.ranTo = now
            guard worlds[i].ledgerCell.events <= events && worlds[i].binaryOutboxHoldsOnlyFirstSends() else {
                s.waiting = true
                sweep.add(SweepEntry(time: now, world: Int32(i), sequence: Int32(truncatingIfNeeded: s.writesTaken),
                                     generation: s.generation, kind: .stop))
                return
            }
            if !forecasterIsFresh {
                forecaster.connection = partition.connection
                forecasterIsFresh = true
            }
            worlds[i].settleBinaryOutbox(at: now, with: &forecast)
            if now >= sweep.windowEnd { return }
        }
        s.ranTo = Int64.max
        sweep.ranOut.append(i)
    }
}
