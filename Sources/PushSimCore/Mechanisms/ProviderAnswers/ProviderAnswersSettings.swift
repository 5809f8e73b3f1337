// The provider API's answers: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let payloadSizes = StreamPurpose(frozen: 19)    // each letter's payload size (mail.payload_size)
    package static let apnsAnswers = StreamPurpose(frozen: 21)     // whether APNs answers 5xx or its answer is lost (apns.server_error, apns.answer_loss)
    package static let retries = StreamPurpose(frozen: 22)         // retried pushes: backoff, network loss and APNs latency (xiva.retry)
}

/// `xiva.retry` (docs/model.md §9, Retries): XIVA sends one push at most `attempts` times,
/// waiting a `backoff` draw after each refusal or missing answer.
package struct XivaRetry: Hashable, Sendable {
    package var attempts: Int
    package var backoff: Distribution
    package init(attempts: Int, backoff: Distribution) { self.attempts = attempts; self.backoff = backoff }
}

/// Its cost in the resource estimate (``CostModel/mechanismLoads(_:_:)``).
extension CostModel {
    /// XIVA's retries: each refused or unanswered send is sent again, up to attempts − 1 times.
    package static func retryLoad(_ s: Scenario, _ c: LoadInput) -> MechanismLoad? {
        let L = c.letters, peakL = c.peakLetters, armCount = c.armCount
        if let retry = s.xiva.retry, retry.attempts > 1 {
            let p = min(1, s.apns.loss + s.apns.serverError + s.apns.answerLoss + (s.apns.tokenLimit == nil ? 0 : 1)
                           + (s.apns.outages.isEmpty ? 0 : 1) + (s.apns.tokenRefresh == nil ? 0 : 1))
            var extra = 0.0, power = 1.0
            for _ in 1..<retry.attempts { power *= p; extra += power }
            return MechanismLoad(key: "xiva.retry", eventsPerDevice: armCount * eventsPerExtraSend * L * extra,
                                 bytesPerDevice: bytesPerExtraCopy * peakL * extra,
                                 fix: "lower xiva.retry.attempts, or the refusals (apns.loss, apns.server_error, apns.answer_loss, apns.token_limit)")
        }
        return nil
    }
}
