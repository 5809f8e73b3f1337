// The extension's memory limit (extension.media.memory_limit): a run whose decoded attachment passes it is killed.

extension DeviceWorld {
    /// The system kills the run (docs/model.md §8, The extension's memory limit): crash logs
    /// read "exceeded mem limit: ActiveHard 24 MB (fatal)". As at the deadline, the push is shown
    /// with its original content. The gap check and its save were made when the run started
    /// (rule 5, before the attachment), so the save stands; a summary or re-request the run had
    /// still to make never is, and its gap's letters are lost with cause `memory_kill`.
    mutating func extensionKilledForMemory(run r: RunIndex, at now: Int64) {
        let run = ext.runs[r]
        let letter = copies[run.copy].letter.offset
        ledger.media.memoryKills += counted(letter)
        note(.device, letter, .extensionKilledForMemory, at: now)
        present(letter: letter, at: now)
        // A run still waiting for its client ends here: a wake after this finds nothing to do.
        if run.action == .waiting { ext.runs[r].action = .show }
        guard run.action != .show else { return }
        for slot in gapSlots(of: run) { recoveryLostToMemoryKill(slot: slot) }
        if _slowPath(parameters.client == .stateful) {
            for slots in moreGapSlots(ofRun: r) { for slot in slots { recoveryLostToMemoryKill(slot: slot) } }
        }
    }

    /// The letter in slot `slot` of XIVA's table was in the gap of a killed run: never asked for.
    mutating func recoveryLostToMemoryKill(slot: Int) {
        let gapLetter = xiva.letterAtPosition[slot].offset
        letterStates[gapLetter].gapFate = .memoryKill
        ledger.media.recoveriesLost += counted(gapLetter)
    }
}
