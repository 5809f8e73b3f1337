// Decoding `segments:` (docs/scenarios.md §2a, Populations): names, exact shares, devices B(i), sections resolved over the top level.
import PushSimCore

extension ScenarioDecoder {
    /// The segments of the file, each with its sections resolved over the top level's and its
    /// devices worked out from the shares; empty without `segments` (or with an empty list).
    static func segments(_ top: Fields, scenario: Scenario, topConnectivity: Fields, context: DecodingContext) throws -> [Scenario.Segment] {
        guard let node = top.value("segments"), !node.isEmpty else { return [] }
        guard case .sequence(let items) = node.kind else {
            throw ScenarioError(location: node.location, message: "`segments`: expected a list of segments such as `- {name: commuters, share: 60%}`, found \(node.foundDescription)")
        }
        if items.isEmpty { return [] }
        var segments: [Scenario.Segment] = []
        var shares: [DecimalShare] = []
        var shareNodes: [YAMLNode] = []
        var firstPlace: [String: SourceLocation] = [:]
        for (index, item) in items.enumerated() {
            // A shared section is a mistake of its own, clearer than "unknown key".
            if case .mapping(let entries) = item.kind, let shared = entries.first(where: { ScenarioSchema.sharedSections.contains($0.key) }) {
                throw ScenarioError(location: shared.keyLocation,
                                    message: "`segments[\(index)].\(shared.key)`: `\(shared.key)` is shared by every device and cannot be given in a segment; set it at the top level")
            }
            let fields = try Fields(item, path: "segments[\(index)]", keys: ScenarioSchema.segmentKeys)
            let nameNode = try fields.required("name", example: "name: commuters")
            let name = try string(nameNode, "segments[\(index)].name")
            try checkName(name, at: nameNode.location, path: "segments[\(index)].name")
            if name.contains(".") || name.contains("=") {
                throw ScenarioError(location: nameNode.location,
                                    message: "`segments[\(index)].name`: expected a name without `.` or `=` (it is part of the path `segments.NAME.KEY` that --set takes), found \(YAMLNode.doubleQuoted(name))")
            }
            // A look-up, not a scan of the earlier names: 10^5 segments must not take n² steps.
            if let first = firstPlace[name] {
                throw ScenarioError(location: nameNode.location,
                                    message: "duplicate segment name `\(name)` (first at line \(first.line), column \(first.column)): expected each segment's name once")
            }
            let path = "segments.\(name)"
            let shareNode = try fields.required("share", example: "share: 60%")
            _ = try value(shareNode, path + ".share", "a probability", ValueParsers.probability)
            shares.append(try value(shareNode, path + ".share", "a probability") { (t) throws(ValueParsers.Failure) in try DecimalShare(t) })
            shareNodes.append(shareNode)
            firstPlace[name] = nameNode.location

            let resolved = try segment(fields, path: path, name: name, scenario: scenario, topConnectivity: topConnectivity, context: context)
            var channel = scenario.channel
            if let node = fields.value("channel") { channel = try self.channel(node, path + ".channel") }
            segments.append(Scenario.Segment(name: name, share: shareNode.flowText, devices: 0..<0, mail: resolved.mail,
                                             connectivity: resolved.connectivity, device: resolved.device, extension: resolved.extension,
                                             channel: channel))
        }
        guard let common = SegmentShares.commonDenominator(shares) else {
            throw ScenarioError(location: node.location,
                                message: "`segments`: the shares' common denominator is more than 2^62, too large to add them exactly (\(segments.map(\.share).joined(separator: " + "))); expected fractions with smaller denominators")
        }
        if let passing = SegmentShares.firstPassingOne(shares, common: common) {
            let sum = SegmentShares.sum(Array(shares.prefix(passing + 1)), common: common)
            throw ScenarioError(location: shareNodes[passing].location,
                                message: "`segments.\(segments[passing].name).share`: the shares so far add up to \(DecimalShare.text(sum, denominator: common)), more than 1; expected shares that add up to exactly 1 (100%)")
        }
        let sum = SegmentShares.sum(shares, common: common)
        guard sum == common else {
            throw ScenarioError(location: node.location,
                                message: "`segments`: the shares add up to \(DecimalShare.text(sum, denominator: common)) (\(segments.map(\.share).joined(separator: " + "))); expected exactly 1 (100%)")
        }
        var lower = 0
        for (i, upper) in SegmentShares.boundaries(devices: scenario.devices, shares: shares, common: common).enumerated() {
            segments[i].devices = lower..<upper
            lower = upper
        }
        return segments
    }

    /// One segment's sections over the top level's.
    private static func segment(_ fields: Fields, path: String, name: String, scenario: Scenario,
                                topConnectivity: Fields, context: DecodingContext) throws -> Scenario {
        var resolved = scenario
        let named = Fields(renaming: fields, to: path)
        if let mailNode = fields.value("mail") {
            if case .mapping(let entries) = mailNode.kind, let trace = entries.first(where: { $0.key == "trace" }) {
                throw ScenarioError(location: trace.keyLocation, message: "`\(path).mail.trace`: `mail.trace` is top-level only; a trace names each letter's device already")
            }
            if scenario.mail.trace != nil, !mailNode.isEmpty {
                throw ScenarioError(location: fields.keyLocation("mail") ?? mailNode.location,
                                    message: "`\(path).mail`: with `mail.trace` the letters come from the trace, so a segment gives no `mail` keys")
            }
        }
        resolved.mail = try mail(named.section("mail", keys: ScenarioSchema.keys(ofSegmentSection: "mail")),
                                 base: scenario.mail, scenario: scenario, context: context)
        let connectivityFields = try named.section("connectivity")
        resolved.connectivity = try connectivity(connectivityFields, base: scenario.connectivity)
        try checkPair(resolved.connectivity, in: [connectivityFields, topConnectivity], segment: name)
        try checkWindowRange(resolved.connectivity.windows, runEnd: scenario.end, connectivityFields)
        resolved.device = try device(named.section("device"), base: scenario.device)
        resolved.extension = try `extension`(named.section("extension"), base: scenario.extension)
        return resolved
    }
}
