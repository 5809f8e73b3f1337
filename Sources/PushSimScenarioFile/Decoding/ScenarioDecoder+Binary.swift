// Decoding the legacy binary interface's `apns` keys (docs/model.md §11): interface, malformed, error_delay, connection_rate, feedback_delay.
import PushSimCore

extension ScenarioDecoder {
    /// The `apns` keys of the binary interface; `xiva.resend_buffer` is read with the `xiva` section.
    static func binaryInterface(_ fields: Fields, into apns: inout Scenario.Apns) throws {
        try fields.decode("interface", "http2 or binary", anyStyle: true, suggesting(ApnsInterface.self)) { apns.interface = $0 }
        try fields.decode("malformed", "a probability", ValueParsers.probability) { apns.malformed = $0 }
        try fields.decode("error_delay", "a distribution", ValueParsers.distribution) { apns.errorDelay = $0 }
        if let node = fields.value("connection_rate") {
            apns.connectionRatePerMicrosecond = try rateOrForever(node, fields.fullPath("connection_rate"), example: "1000/s",
                                                                  noun: "rate", stopped: "a connection that writes nothing would hold every notification",
                                                                  step: "one write")
        }
        try fields.decode("feedback_delay", "a duration or `forever`", ValueParsers.durationOrForever) { apns.feedbackDelay = $0 }
    }
}
