// The resolved scenario written back in the file syntax: every key, defaults included (`validate --print`, provenance).
import PushSimCore

/// A resolved scenario as a tree of keys and values in the file syntax, in the contract's key
/// order. The same tree is printed as a scenario file (`pushsim validate FILE --print`) and
/// stored in results (docs/scenarios.md, "What a run records"), so both say the same thing.
///
/// Version-1 keys are always present, defaults included. Version-2 keys (warm-up, daily
/// profile, bursts, trace, per-device windows, segments, APNs' keep_older/keep_window/
/// duplicate, XIVA's outages, outage_mode, capacity, queue_timeout, partitions) appear only
/// when they differ from their defaults, so that a version-1 scenario resolves to exactly the
/// keys version 1 knows.
package enum ScenarioPrinter {
    /// One value of the tree.
    package indirect enum Node: Equatable, Sendable {
        /// A value in the file syntax (`40/d`, `lognormal(150ms, 3s)`), never quoted.
        case scalar(String)
        /// Free text (a name, a description, a path): quoted in the file where the reader needs it.
        case text(String)
        case mapping([Entry])
        case list([Node])
    }

    package struct Entry: Equatable, Sendable {
        package var key: String
        package var value: Node
        package init(_ key: String, _ value: Node) { self.key = key; self.value = value }
    }

    /// The resolved scenario as a scenario file that reads back to the same ``Scenario``.
    package static func yaml(_ scenario: Scenario) -> String { yaml(entries(scenario)) }

    /// Entries (as ``entries(_:)`` gives them) as a scenario file.
    package static func yaml(_ entries: [Entry]) -> String {
        var out = ""
        for entry in entries { write(entry, indent: "", to: &out) }
        return out
    }

    /// A sweep file's `sweep:` section as written back (values are kept in the one-line file
    /// syntax, so each reads back as it was given); empty without axes.
    package static func sweepSection(_ axes: [SweepAxis]) -> String {
        guard !axes.isEmpty else { return "" }
        return "sweep:\n" + axes.map { "  \($0.path): [\($0.values.joined(separator: ", "))]\n" }.joined()
    }

    /// The resolved scenario's top-level keys, in the contract's order.
    package static func entries(_ s: Scenario) -> [Entry] {
        var top: [Entry] = [
            Entry("name", .text(s.name)),
            Entry("description", .text(s.description)),
            Entry("seed", .scalar(String(s.seed))),
            Entry("duration", .scalar(s.duration.description)),
            Entry("drain", .scalar(s.drain.description)),
            Entry("devices", .scalar(String(s.devices))),
        ]
        if s.warmup != .zero { top.append(Entry("warmup", .scalar(s.warmup.description))) }
        top.append(Entry("mail", .mapping(mail(s.mail))))
        top.append(Entry("connectivity", .mapping(connectivity(s.connectivity))))
        top.append(Entry("xiva", .mapping(xiva(s.xiva))))
        var apns: [Entry] = [
            Entry("loss", .scalar(decimal(s.apns.loss))),
            Entry("latency", .scalar(s.apns.latency.description)),
            Entry("expiration", .scalar(s.apns.expiration.description)),
        ]
        let defaults = Scenario.Apns()
        if s.apns.keepOlder != defaults.keepOlder || s.apns.keepWindow != defaults.keepWindow {
            apns.append(Entry("keep_older", .scalar(decimal(s.apns.keepOlder))))
            apns.append(Entry("keep_window", .scalar(s.apns.keepWindow.description)))
        }
        if s.apns.duplicate != defaults.duplicate { apns.append(Entry("duplicate", .scalar(decimal(s.apns.duplicate)))) }
        if let limit = s.apns.tokenLimit {
            apns.append(Entry("token_limit", .scalar(String(limit))))
            apns.append(Entry("token_window", .scalar(s.apns.tokenWindow.description)))
        }
        if s.apns.serverError != 0 { apns.append(Entry("server_error", .scalar(decimal(s.apns.serverError)))) }
        if s.apns.answerLoss != 0 { apns.append(Entry("answer_loss", .scalar(decimal(s.apns.answerLoss)))) }
        if s.apns.lowPriorityShare != 0 {
            apns.append(Entry("priority", .scalar(s.apns.lowPriorityShare == 1 ? "5" : decimal(s.apns.lowPriorityShare))))
        }
        if s.apns.interface != defaults.interface { apns.append(Entry("interface", .scalar(s.apns.interface.rawValue))) }
        if s.apns.malformed != defaults.malformed { apns.append(Entry("malformed", .scalar(decimal(s.apns.malformed)))) }
        if s.apns.errorDelay != defaults.errorDelay { apns.append(Entry("error_delay", .scalar(s.apns.errorDelay.description))) }
        if let rate = s.apns.connectionRatePerMicrosecond { apns.append(Entry("connection_rate", .scalar(self.rate(rate)))) }
        if s.apns.feedbackDelay != defaults.feedbackDelay { apns.append(Entry("feedback_delay", .scalar(s.apns.feedbackDelay.description))) }
        top.append(Entry("apns", .mapping(apns)))
        top.append(Entry("device", .mapping(device(s.device))))
        top.append(Entry("extension", .mapping(extensionSection(s.extension))))
        top.append(Entry("queue", .mapping([
            Entry("mode", .scalar(s.queue.mode.rawValue)),
            Entry("repeat_max_count", .scalar(String(s.queue.repeatMaxCount))),
            Entry("collapse_id", .scalar(s.queue.collapseId ? "true" : "false")),
            Entry("client", .scalar(s.queue.client.rawValue)),
        ])))
        if s.recovery != .queue { top.append(Entry("recovery", .scalar(s.recovery.rawValue))) }
        top += channelEntries(s)
        if !s.segments.isEmpty {
            // Each segment with its resolved sections whole: what its devices actually ran.
            top.append(Entry("segments", .list(s.segments.map { segment in
                .mapping([
                    Entry("name", .text(segment.name)),
                    Entry("share", .scalar(segment.share)),
                ] + (segment.channel != s.channel ? [Entry("channel", .scalar(segment.channel.rawValue))] : []) + [
                    Entry("mail", .mapping(mail(segment.mail))),
                    Entry("connectivity", .mapping(connectivity(segment.connectivity))),
                    Entry("device", .mapping(device(segment.device))),
                    Entry("extension", .mapping(extensionSection(segment.extension))),
                ])
            })))
        }
        return top
    }

    // MARK: Sections

    private static func mail(_ m: Scenario.Mail) -> [Entry] {
        let size = m.payloadSize.map { [Entry("payload_size", .scalar($0.byteDescription))] } ?? []
        if let trace = m.trace { return [Entry("trace", .text(trace.path))] + size }
        var out = [Entry("rate", .scalar(rate(m.ratePerMicrosecond)))]
        if let profile = m.dailyProfile { out.append(Entry("daily_profile", .list(profile.map { .scalar(decimal($0)) }))) }
        if let b = m.bursts {
            out.append(Entry("bursts", .mapping([
                Entry("rate", .scalar(rate(b.ratePerMicrosecond))),
                Entry("size", .scalar(String(b.size))),
                Entry("spread", .scalar(b.spread.description)),
            ])))
        }
        return out + size
    }

    /// Version 1's keys always; the shared server's only when they differ from the defaults.
    private static func xiva(_ x: Scenario.Xiva) -> [Entry] {
        var out = [
            Entry("drop", .scalar(decimal(x.drop))),
            Entry("latency", .scalar(x.latency.description)),
            Entry("retention", .scalar(x.retention.description)),
            Entry("request_latency", .scalar(x.requestLatency.description)),
            Entry("request_error", .scalar(decimal(x.requestError))),
            Entry("resend_latency", .scalar(x.resendLatency.description)),
        ]
        let defaults = Scenario.Xiva()
        if !x.outages.isEmpty {
            out.append(Entry("outages", .list(x.outages.map { o in
                .mapping([Entry("start", .scalar(o.start.description)), Entry("end", .scalar(o.end.description))]
                         + (o.every.map { [Entry("every", .scalar($0.description))] } ?? []))
            })))
        }
        if x.outageMode != defaults.outageMode { out.append(Entry("outage_mode", .scalar(x.outageMode.rawValue))) }
        if let capacity = x.capacityPerMicrosecond { out.append(Entry("capacity", .scalar(rate(capacity)))) }
        if x.queueTimeout != defaults.queueTimeout { out.append(Entry("queue_timeout", .scalar(x.queueTimeout.description))) }
        if x.partitions != defaults.partitions { out.append(Entry("partitions", .scalar(String(x.partitions)))) }
        if x.resendBuffer != defaults.resendBuffer { out.append(Entry("resend_buffer", .scalar(String(x.resendBuffer)))) }
        if let retry = x.retry {
            out.append(Entry("retry", .mapping([Entry("attempts", .scalar(String(retry.attempts))),
                                                Entry("backoff", .scalar(retry.backoff.description))])))
        }
        return out
    }

    private static func connectivity(_ c: Scenario.Connectivity) -> [Entry] {
        var out: [Entry] = []
        // Absent means "always online between windows": there is no word for it, so it is left out.
        if let online = c.online { out.append(Entry("online", .scalar(online.description))) }
        if let offline = c.offline { out.append(Entry("offline", .scalar(offline.description))) }
        out.append(Entry("windows", .list(c.windows.map(window))))
        return out
    }

    private static func window(_ w: OfflineWindow) -> Node {
        var out = [Entry("start", .scalar(w.start.description))]
        if let length = w.length { out.append(Entry("length", .scalar(length.description))) }
        else { out.append(Entry("end", .scalar(w.end.description))) }
        if let every = w.every { out.append(Entry("every", .scalar(every.description))) }
        if w.spread != .zero { out.append(Entry("spread", .scalar(w.spread.description))) }
        return .mapping(out)
    }

    private static func device(_ d: Scenario.Device) -> [Entry] {
        var out = [Entry("alerts_off", .scalar(decimal(d.alertsOff))),
                   Entry("clear_after", .scalar(d.clearAfter?.description ?? "forever"))]
        if let appOpen = d.appOpen { out.append(Entry("app_open", .scalar(appOpen.description))) }
        if d.idChangeRatePerMicrosecond != 0 { out.append(Entry("id_change", .scalar(rate(d.idChangeRatePerMicrosecond)))) }
        if d.uninstallRatePerMicrosecond != 0 { out.append(Entry("uninstall", .scalar(rate(d.uninstallRatePerMicrosecond)))) }
        if let sleep = d.sleep {
            out.append(Entry("sleep", .mapping([Entry("awake", .scalar(sleep.awake.description)),
                                                Entry("asleep", .scalar(sleep.asleep.description))])))
        }
        if d.reinstallRatePerMicrosecond != 0 {
            out.append(Entry("reinstall", .scalar(rate(d.reinstallRatePerMicrosecond))))
            out.append(Entry("reinstall_delay", .scalar(d.reinstallDelay.description)))
        }
        if !d.doze.isEmpty { out.append(Entry("doze", .list(d.doze.map(window)))) }
        return out
    }

    /// The channel and its sections, only where they differ from the defaults (APNs, no
    /// CallKit failures, FCM's documented limits), so a scenario without them prints as before.
    private static func channelEntries(_ s: Scenario) -> [Entry] {
        var out: [Entry] = []
        if s.channel != .apns { out.append(Entry("channel", .scalar(s.channel.rawValue))) }
        let pushkitDefaults = Scenario.PushKit(), fcmDefaults = Scenario.FCM()
        var pushkit: [Entry] = []
        if s.pushkit.reportFailure != pushkitDefaults.reportFailure { pushkit.append(Entry("report_failure", .scalar(decimal(s.pushkit.reportFailure)))) }
        if s.pushkit.cutOffAfter != pushkitDefaults.cutOffAfter { pushkit.append(Entry("cut_off_after", .scalar(String(s.pushkit.cutOffAfter)))) }
        if !pushkit.isEmpty { out.append(Entry("pushkit", .mapping(pushkit))) }
        var fcm: [Entry] = []
        if s.fcm.ttl != fcmDefaults.ttl { fcm.append(Entry("ttl", .scalar(s.fcm.ttl.description))) }
        if s.fcm.collapseKeys != fcmDefaults.collapseKeys { fcm.append(Entry("collapse_keys", .scalar(String(s.fcm.collapseKeys)))) }
        if s.fcm.priority != fcmDefaults.priority { fcm.append(Entry("priority", .scalar(s.fcm.priority.rawValue))) }
        if !fcm.isEmpty { out.append(Entry("fcm", .mapping(fcm))) }
        return out
    }

    private static func extensionSection(_ e: Scenario.Extension) -> [Entry] {
        var out = [Entry("deadline", .scalar(e.deadline.description)),
                   Entry("processing", .scalar(e.processing.description))]
        if e.earlyKill != 0 { out.append(Entry("early_kill", .scalar(decimal(e.earlyKill)))) }
        if e.concurrency != .serial { out.append(Entry("concurrency", .scalar(e.concurrency.rawValue))) }
        if let saveDelay = e.saveDelay { out.append(Entry("save_delay", .scalar(saveDelay.description))) }
        if let media = e.media {
            out.append(Entry("media", .mapping([
                Entry("share", .scalar(decimal(media.share))),
                Entry("size", .scalar(media.size.byteDescription)),
                Entry("bandwidth", .scalar(quantity(media.bandwidth, unit: "bit/s"))),
                Entry("cache_hit", .scalar(decimal(media.cacheHit))),
            ])))
        }
        return out
    }

    /// A distribution of sizes or bandwidths in its base unit (`B`, `bit/s`), which reads back exactly.
    private static func quantity(_ d: Distribution, unit: String) -> String {
        switch d {
        case .constant(let t): return decimal(Double(t.microseconds)) + unit
        case .exponential(let mean): return "exponential(\(decimal(mean))\(unit))"
        case .uniform(let a, let b): return "uniform(\(decimal(a))\(unit), \(decimal(b))\(unit))"
        case .lognormal(let median, let p99): return "lognormal(\(decimal(median))\(unit), \(decimal(p99))\(unit))"
        }
    }

    // MARK: Values

    /// A string as the reader reads it back: plain when that is safe, double-quoted otherwise.
    static func string(_ text: String) -> String {
        let plainSafe = !text.isEmpty && text.unicodeScalars.allSatisfy { s in
            ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "-" || s == "_" || s == "."
        } && !["true", "false"].contains(text) && text.first != "-" && text.first != "."
        return plainSafe ? text : YAMLNode.doubleQuoted(text)
    }

    /// A finite non-negative Double in plain decimal digits (the reader takes no exponent), the
    /// shortest that reads back to the same Double.
    package static func decimal(_ x: Double) -> String {
        let shortest = "\(x)"
        guard let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }),
              let exponent = Int(shortest[shortest.index(after: e)...]) else {
            return shortest.hasSuffix(".0") ? String(shortest.dropLast(2)) : shortest
        }
        // d.ddd e±n → move the point n places.
        let mantissa = String(shortest[..<e].filter { $0 != "." })
        let pointAfter = 1 + exponent   // digits before the point
        if pointAfter <= 0 { return "0." + String(repeating: "0", count: -pointAfter) + mantissa }
        if pointAfter >= mantissa.count { return mantissa + String(repeating: "0", count: pointAfter - mantissa.count) }
        return String(mantissa.prefix(pointAfter)) + "." + String(mantissa.dropFirst(pointAfter))
    }

    /// A rate per microsecond as `COUNT/UNIT`, with the largest unit whose count reads back to
    /// exactly the same rate (`40/d`), or per microsecond, which always does.
    package static func rate(_ perMicrosecond: Double) -> String {
        let units = [("d", SimTime.day), ("h", SimTime.hour), ("m", SimTime.minute), ("s", SimTime.second)]
        // A whole count in the unit that makes it smallest: 20/s rather than 1728000/d, 60/d
        // rather than 2.5/h.
        for (unit, size) in units.reversed() {
            let count = (perMicrosecond * Double(size)).rounded()
            if count >= 1, count < 1e15, count / Double(size) == perMicrosecond { return decimal(count) + "/" + unit }
        }
        for (unit, size) in units {
            // The product carries rounding noise (60/d comes back as 60.00000000000001): the
            // count with the fewest decimals that still reads back exactly is the one written.
            let count = perMicrosecond * Double(size)
            var scale = 1.0
            for _ in 0...12 {
                let rounded = (count * scale).rounded() / scale
                if rounded > 0, rounded / Double(size) == perMicrosecond { return decimal(rounded) + "/" + unit }
                scale *= 10
            }
        }
        return decimal(perMicrosecond) + "/us"
    }

    // MARK: Writing

    private static func write(_ entry: Entry, indent: String, to out: inout String) {
        switch entry.value {
        case .scalar(let text):
            out += indent + entry.key + ": " + text + "\n"
        case .text(let text):
            out += indent + entry.key + ": " + string(text) + "\n"
        case .mapping(let entries):
            out += indent + entry.key + ":\n"
            for e in entries { write(e, indent: indent + "  ", to: &out) }
        case .list(let items):
            if items.isEmpty { out += indent + entry.key + ": []\n"; return }
            if items.allSatisfy({ if case .scalar = $0 { return true } else { return false } }) {
                let texts = items.map { if case .scalar(let t) = $0 { return t } else { return "" } }
                out += indent + entry.key + ": [" + texts.joined(separator: ", ") + "]\n"
                return
            }
            out += indent + entry.key + ":\n"
            for item in items {
                // Block style: a value with a comma (uniform(6h, 9h)) cannot stand in a flow mapping.
                guard case .mapping(let entries) = item else { continue }
                for (n, e) in entries.enumerated() {
                    var lines = ""
                    write(e, indent: indent + "    ", to: &lines)
                    if n == 0 { lines = indent + "  - " + lines.dropFirst(indent.count + 4) }
                    out += lines
                }
            }
        }
    }
}
