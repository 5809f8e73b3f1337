// Refusing what the binary interface does not simulate (docs/model.md §11): the HTTP/2 API's answers, and channels other than APNs.
import PushSimCore

extension ScenarioDecoder {
    /// The keys of the HTTP/2 API's answers (docs/model.md §9): the binary interface answers
    /// only errors, so with it none of them could act, and a file setting one would silently
    /// measure something else than it says.
    static let http2AnswerKeys: [(section: String, key: String, what: String)] = [
        ("apns", "token_limit", "the 429 TooManyRequests of a token sent to too often"),
        ("apns", "token_window", "the 429 TooManyRequests of a token sent to too often"),
        ("apns", "server_error", "a 5xx answer"),
        ("apns", "answer_loss", "an answer lost on the way back"),
        ("apns", "outages", "APNs' 503 or silence during an outage"),
        ("apns", "token_refresh", "the 429 or 403 of XIVA's provider token"),
        ("xiva", "retry", "XIVA's retry of a 429, a 5xx or a lost answer"),
    ]

    /// With `apns.interface: binary`, throws at the first HTTP/2 answer key (in the order of the
    /// list above) or channel other than `apns`. Segments cannot set `apns` or `xiva` keys
    /// (shared sections), only `channel`. The binary keys under HTTP/2 are allowed and unused, as
    /// `device.sleep` is without priority 5, so one file can be swept over `apns.interface`.
    static func checkInterfaceCombinations(_ top: Fields, _ scenario: Scenario) throws {
        guard scenario.apns.interface == .binary else { return }
        let sections = ["apns": try top.section("apns"), "xiva": try top.section("xiva")]
        for (section, key, what) in http2AnswerKeys {
            guard let fields = sections[section], let location = fields.keyLocation(key) else { continue }
            let path = fields.fullPath(key)
            throw ScenarioError(location: location, message: "`\(path)`: the binary interface answers only errors: `\(path)` is an HTTP/2 answer (\(what)); remove it, or set `apns.interface: http2`")
        }
        if scenario.channel != .apns, let location = top.keyLocation("channel") {
            throw ScenarioError(location: location, message: binaryChannelMessage("channel", scenario.channel))
        }
        if case .sequence(let items)? = top.value("segments")?.kind {
            for (index, item) in items.enumerated() {
                let fields = try Fields(item, path: "segments[\(index)]", keys: ScenarioSchema.segmentKeys)
                guard let location = fields.keyLocation("channel"), index < scenario.segments.count,
                      scenario.segments[index].channel != .apns else { continue }
                let segment = scenario.segments[index]
                throw ScenarioError(location: location, message: binaryChannelMessage("segments.\(segment.name).channel", segment.channel))
            }
        }
    }

    private static func binaryChannelMessage(_ path: String, _ channel: PushChannel) -> String {
        "`\(path)`: `apns.interface: binary` is APNs' legacy interface for alert pushes, so it needs `channel: apns`, found `\(channel.rawValue)`; set `channel: apns`, or `apns.interface: http2`"
    }
}
