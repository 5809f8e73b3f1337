// Decoding the provider's side of APNs (docs/scenarios.md §2a): payload sizes, uninstalls, the API's answers, retries.
import PushSimCore

extension ScenarioDecoder {
    /// `mail.payload_size`: a distribution of bytes.
    static func payloadSize(_ fields: Fields, into mail: inout Scenario.Mail) throws {
        try fields.decode("payload_size", "a distribution of sizes", ValueParsers.byteDistribution) { mail.payloadSize = $0 }
    }

    /// `device.uninstall`: a rate per device.
    static func uninstall(_ fields: Fields, into device: inout Scenario.Device) throws {
        try fields.decode("uninstall", "a rate", ValueParsers.rate) { device.uninstallRatePerMicrosecond = $0 }
        try sleep(fields, into: &device)
        try lowPower(fields, into: &device)
        try backgroundSync(fields, into: &device)
        try focusSummary(fields, into: &device)
    }

    /// The `apns` keys of the provider API's answers.
    static func providerAnswers(_ fields: Fields, into apns: inout Scenario.Apns) throws {
        try fields.decode("token_limit", "an integer ≥ 1", { (t) throws(ValueParsers.Failure) in
            // The limit is a ring of the last accepted instants per device: keep it a push count, not a memory hazard.
            try ValueParsers.integer(t, in: 1...100_000)
        }) { apns.tokenLimit = $0 }
        try fields.decode("token_window", "a duration greater than 0", { (t) throws(ValueParsers.Failure) in
            let window = try ValueParsers.duration(t)
            guard window.microseconds > 0 else { throw ValueParsers.Failure("expected a duration greater than 0, found `\(t)`") }
            return window
        }) { apns.tokenWindow = $0 }
        try fields.decode("server_error", "a probability", ValueParsers.probability) { apns.serverError = $0 }
        try fields.decode("answer_loss", "a probability", ValueParsers.probability) { apns.answerLoss = $0 }
        try fields.decode("priority", "10, 5, or a share of letters at 5 such as `30%` or `1/3`", priority) { apns.lowPriorityShare = $0 }
        try timeSensitive(fields, into: &apns)
    }

    /// `10` (every letter at 10), `5` (every letter at 5), or the share at 5 as a probability.
    static func priority(_ text: String) throws(ValueParsers.Failure) -> Double {
        if text == "10" { return 0 }
        if text == "5" { return 1 }
        if !text.contains("%") && !text.contains(".") && !text.contains("/") {
            throw ValueParsers.Failure("expected 10, 5, or a share of letters at priority 5 such as `30%`, `0.3` or `1/3`, found `\(text)`")
        }
        return try ValueParsers.probability(text)
    }

    /// `device.sleep: {awake, asleep}`, both distributions, both required.
    static func sleep(_ fields: Fields, into device: inout Scenario.Device) throws {
        guard let node = fields.value("sleep") else { return }
        let path = fields.fullPath("sleep")
        let sleep = try Fields(node, path: path, keys: ScenarioSchema.sleepKeys)
        func period(_ key: String) throws -> Distribution {
            let law = try value(sleep.required(key, example: "\(key): exponential(1h)"), path + "." + key, "a distribution with a mean of at least 1s") { (t) throws(ValueParsers.Failure) in
                // Each period is a flip of the timeline: shorter than a second would flood it.
                let law = try ValueParsers.distribution(t)
                guard law.mean >= Double(SimTime.second) else {
                    throw ValueParsers.Failure("expected a distribution with a mean of at least 1s, found `\(t)`")
                }
                return law
            }
            return law
        }
        device.sleep = DeviceSleep(awake: try period("awake"), asleep: try period("asleep"))
    }

    /// `xiva.retry: {attempts, backoff}`.
    static func retry(_ fields: Fields, into xiva: inout Scenario.Xiva) throws {
        guard let node = fields.value("retry") else { return }
        let path = fields.fullPath("retry")
        let retry = try Fields(node, path: path, keys: ScenarioSchema.retryKeys)
        let attempts = try value(retry.required("attempts", example: "attempts: 3"), path + ".attempts", "an integer from 1 to 100") { (t) throws(ValueParsers.Failure) in
            // Each attempt is an event: a hundred sends of one push is already no retry policy.
            try ValueParsers.integer(t, in: 1...100)
        }
        var policy = XivaRetry(attempts: attempts, backoff: .constant(SimTime(microseconds: SimTime.second)))
        try retry.decode("backoff", "a distribution", ValueParsers.distribution) { policy.backoff = $0 }
        xiva.retry = policy
    }
}
