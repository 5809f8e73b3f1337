// The text pieces of report.html: escaping, number formats, the charts inlined, the style sheet,
// and what each cause of loss means.
import Foundation

enum HTMLText {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// `v` with `digits` decimals (no grouping), `-0` written `0`.
    static func fixed(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return v.isNaN ? "—" : (v > 0 ? "∞" : "−∞") }
        let s = String(format: "%.\(max(0, min(digits, 12)))f", v)
        return s.allSatisfy { "-0.".contains($0) } && s.hasPrefix("-") ? String(s.dropFirst()) : s
    }

    /// A whole number with thousands separated by commas (`559,901`), as the tables write it.
    static func grouped(_ v: Double) -> String {
        guard v.isFinite, abs(v) < 1e18 else { return fixed(v, 0) }
        let whole = Int64(v.rounded())
        let digits = String(whole.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return (whole < 0 ? "-" : "") + out
    }

    /// Seconds of simulated time as `4d17h21m5s` (zero parts left out; `0s` for none).
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e15 else { return fixed(seconds, 0) + "s" }
        var rest = Int64(seconds.rounded())
        var out = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= size || (unit == "s" && out.isEmpty) {
            out += "\(rest / size)\(unit)"
            rest %= size
            if rest == 0 { break }
        }
        return out
    }

    /// An SVG file's text for inside the page: without the XML declaration and the namespace
    /// attribute (HTML needs neither, and the page names no address at all), sized to the column.
    static func inlineSVG(_ svg: String) -> String {
        var text = Substring(svg)
        if text.hasPrefix("<?xml"), let end = text.range(of: "?>") { text = text[end.upperBound...] }
        var out = String(text).replacingFirst(" xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        out = out.replacingFirst("<svg ", with: "<svg role=\"img\" preserveAspectRatio=\"xMinYMin meet\" ")
        return out.trimmingNewlines
    }

    static let style = """
    :root{color-scheme:light}
    body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1a1a1a;background:#fff}
    main{max-width:62rem;margin:0 auto;padding:1rem 1.25rem 3rem}
    h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0 1rem}
    h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
    p.answer{font-size:1.1rem;background:#f3f6fa;border-left:4px solid #1f77b4;padding:.75rem 1rem;margin:0 0 .5rem}
    p.note{color:#555;font-size:.9rem}
    code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere}
    .table{overflow-x:auto;margin:.5rem 0 1rem}
    table{border-collapse:collapse;font-size:.92rem}
    th,td{border-bottom:1px solid #e3e3e3;padding:.3rem .6rem;text-align:left;vertical-align:top}
    td{font-variant-numeric:tabular-nums}
    thead th{border-bottom:2px solid #999}
    table.scenario{font-size:.8rem}
    table.scenario td,table.scenario th{padding:.1rem .5rem;overflow-wrap:anywhere}
    figure{margin:1rem 0;break-inside:avoid}
    figure svg{display:block;max-width:100%;height:auto}
    figcaption{color:#555;font-size:.85rem}
    span.n,td code,th code{white-space:nowrap}
    td code.command{white-space:normal}
    span.t{overflow-wrap:anywhere}
    @media (max-width:40rem){main{padding:.75rem}h1{font-size:1.3rem}table{font-size:.85rem}th[scope=row]{min-width:8rem}}
    @media print{main{max-width:none;padding:0}p.answer{background:none}.table{overflow:visible}h2{break-after:avoid}tr{break-inside:avoid}}
    """

    /// What each cause of loss means, in a sentence (docs/scenarios.md lists the rules).
    static let causeMeaning: [String: String] = [
        "xiva_drop": "XIVA dropped the letter before numbering it (an unknown subscription).",
        "xiva_outage": "XIVA was down when the letter came, and the outage dropped it.",
        "network_loss": "Its last copy was lost between XIVA and APNs.",
        "apns_replaced": "Its last copy was waiting in APNs' offline store and a newer push replaced it (APNs keeps one per app).",
        "apns_expired": "Its last copy expired in APNs' offline store before the phone came back.",
        "payload_too_large": "APNs refused the push as too large (413).",
        "throttled": "APNs kept answering “too many requests” (429) until XIVA's retries ran out.",
        "server_error": "APNs kept answering with a server error (5xx) until XIVA's retries ran out.",
        "alerts_off": "With the queue: the phone's extension never runs (alerts off), so the queue could not help.",
        "undetected_gap": "With the queue: its push was lost and no later push revealed the gap.",
        "retention_expired": "With the queue: the gap was re-requested, but XIVA no longer held the letter.",
        "extension_timeout": "With the queue: the gap was found, but the extension ran out of time before re-requesting it.",
        "unfinished": "The run ended while a copy was still stored, in transit or in an unfinished extension.",
        "no_store": "PushKit: the phone was offline, and the channel keeps nothing for later.",
        "callkit_unreported": "PushKit: the app did not report the push to CallKit, so the system no longer launches it.",
        "rejected": "Binary interface: APNs answered with an error packet and closed the connection.",
        "connection_discard": "Binary interface: written on a connection an earlier error had already closed.",
        "memory_kill": "With the queue: the system killed the extension for its memory before it re-requested the gap.",
    ]
}

private extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let r = range(of: target) else { return self }
        return replacingCharacters(in: r, with: replacement)
    }

    var trimmingNewlines: String {
        var s = Substring(self)
        while s.first == "\n" { s = s.dropFirst() }
        while s.last == "\n" { s = s.dropLast() }
        return String(s)
    }
}
