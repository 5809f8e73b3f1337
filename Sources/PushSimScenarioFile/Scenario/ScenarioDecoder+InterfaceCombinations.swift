// Refusing the keys the chosen APNs interface does not simulate (docs/model.md §11): HTTP/2 answers under binary, binary keys under HTTP/2.
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
        ("xiva", "retry", "XIVA's retry of a 429, a 5xx or a lost answer"),
    ]

    /// The keys only the binary interface reads (docs/model.md §11).
    static let binaryOnlyKeys: [(section: String, key: String)] = [
        ("apns", "malformed"), ("apns", "error_delay"), ("apns", "connection_rate"), ("apns", "feedback_delay"),
        ("xiva", "resend_buffer"),
    ]

    /// Throws at the first key (in the order of the lists above) or channel that `apns.interface`
    /// rules out. Segments cannot set `apns` or `xiva` keys (shared sections), only `channel`.
    static func checkInterfaceCombinations(_ top: Fields, _ scenario: Scenario) throws {
        let sections = ["apns": try top.section("apns"), "xiva": try top.section("xiva")]
        switch scenario.apns.interface {
        case .binary:
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
        case .http2:
            for (section, key) in binaryOnlyKeys {
                guard let fields = sections[section], let location = fields.keyLocation(key) else { continue }
                let path = fields.fullPath(key)
                throw ScenarioError(location: location, message: "`\(path)` applies to `apns.interface: binary`, and the interface is http2 (the default): set `apns.interface: binary`, or remove `\(path)`")
            }
        }
    }

    private static func binaryChannelMessage(_ path: String, _ channel: PushChannel) -> String {
        "`\(path)`: `apns.interface: binary` is APNs' legacy interface for alert pushes, so it needs `channel: apns`, found `\(channel.rawValue)`; set `channel: apns`, or `apns.interface: http2`"
    }
}
