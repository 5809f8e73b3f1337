// APNs' outages (apns.outages): in a window, APNs refuses every request of XIVA with 503 or cannot be reached.

extension DeviceWorld {
    /// Whether APNs is out for this phone at `arrival` (docs/model.md §9, APNs outages): the
    /// occurrence holding it belongs to an outage that concerns the phone. An outage for a share
    /// of the phones decides by the phone's draw for it, the outage's place among the phone's
    /// outages in the stream `apnsOutages`, made again at each question (nothing is kept).
    func apnsOutage(at arrival: Int64) -> Int? {
        let laid = parameters.apnsOutages
        guard let index = laid.index(holding: arrival, { $0.interval }) else { return nil }
        let outage = laid[index].outage
        let share = parameters.apnsOutageShares[outage]
        guard share < 1 else { return outage }
        var rng = RandomStream(seed: scenario.seed, device: armState.device, purpose: .apnsOutages)
        for _ in 0..<outage { _ = rng.nextUnit() }
        return rng.chance(share) ? outage : nil
    }

    /// A request of XIVA reaching APNs during an outage that concerns the phone: refused with
    /// 503, or unanswered, and retried as any refusal or missing answer; after the last attempt
    /// the copy is lost as `apns_outage`. Whether it was refused (true) is the caller's answer.
    @inline(never) mutating func apnsOutageRefuses(copy c: CopyIndex, at arrival: Int64) -> Bool {
        guard let outage = apnsOutage(at: arrival) else { return false }
        let letter = copies[c].letter.offset
        if parameters.apnsOutageUnreachable[outage] {
            ledger.apnsOutages.unanswered += counted(letter)
            retryOrGiveUp(copy: c, at: arrival, .apnsOutage, .refused(answer: "no answer: APNs unreachable (outage)"))
            // Nothing reached APNs: the console never saw the request.
            copies[c].console.set(.notReachingAPNs)
        } else {
            ledger.apnsOutages.refused += counted(letter)
            retryOrGiveUp(copy: c, at: arrival, .apnsOutage, .refused(answer: "503 ServiceUnavailable (APNs outage)"))
        }
        return true
    }
}
