// The provider API's answers: the settings the rest of the chain reads, declared with the mechanism.

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
