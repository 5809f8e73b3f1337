// `pushsim trace --svg`: one device's timeline as swim lanes on a time axis, arrows for pushes.
import Foundation
import PushSimCore

/// Swim lanes (backend, XIVA, APNs, device, user) over a time axis. Each event is a dot in its
/// lane (hover for its text); a letter's consecutive events in different lanes are joined by an
/// arrow, so a push can be followed down the chain; offline periods shade the device lane.
package struct TraceSVG {
    package var title: String
    package var entries: [TraceEntry]
    package var from: Int64
    package var to: Int64
    /// Whether the device was online at `from` (connectivity entries flip it from there).
    package var onlineAtStart: Bool

    package init(title: String, entries: [TraceEntry], from: Int64, to: Int64, onlineAtStart: Bool) {
        self.title = title; self.entries = entries; self.from = from; self.to = max(to, from + 1)
        self.onlineAtStart = onlineAtStart
    }

    static let left = 90.0, right = 1160.0, top = 70.0, laneHeight = 80.0

    /// The colours of event dots, in drawing order: a later kind is drawn over an earlier one
    /// at the same spot, so a loss (red) is never hidden under the grey "stored" dot of the
    /// push that replaced it.
    static let kinds: [(color: String, meaning: String)] = TraceEventKind.allCases.map { kind in
        switch kind {
        case .other: return (color(of: kind), "other event")
        case .shown: return (color(of: kind), "shown to the user")
        case .queueWork: return (color(of: kind), "the queue at work (gap, re-request, summary, deadline)")
        case .loss: return (color(of: kind), "a copy lost")
        }
    }

    package var svg: String {
        let lanes = TraceLane.allCases
        let bottom = Self.top + Double(lanes.count) * Self.laneHeight
        let width = Self.right + 70, height = bottom + 86
        func x(_ t: Int64) -> Double { Self.left + Double(t - from) / Double(to - from) * (Self.right - Self.left) }
        func laneY(_ lane: TraceLane) -> Double {
            Self.top + (Double(lanes.firstIndex(of: lane) ?? 0) + 0.5) * Self.laneHeight
        }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        var out = SVGText.documentStart(width: Int(width), height: Int(height), title: title, fontSize: 11) + """
        <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#1f77b4"/></marker></defs>
        <rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="#ffffff"/>
        <text x="\(f(Self.left))" y="28" font-size="16" font-weight="bold">\(SVGText.escape(title))</text>
        <text x="\(f(Self.left))" y="48" fill="#555555">\(SVGText.escape("\(TraceReport.formatTime(from)) to \(TraceReport.formatTime(to)) · PushSim \(PushSimVersion.current) · hover a dot for the event"))</text>
        <rect class="plot-area" x="\(f(Self.left))" y="\(f(Self.top))" width="\(f(Self.right - Self.left))" height="\(f(bottom - Self.top))" fill="none"/>

        """
        // Offline periods on the device lane.
        var online = onlineAtStart
        var since = from
        var offline: [(Int64, Int64)] = []
        for entry in entries {
            guard case .connectivity(let nowOnline) = entry.event else { continue }
            if !online && nowOnline { offline.append((since, entry.time)) }
            if online && !nowOnline { since = entry.time }
            online = nowOnline
        }
        if !online { offline.append((since, to)) }
        let deviceTop = laneY(.device) - Self.laneHeight / 2
        for (start, end) in offline {
            out += "<rect class=\"offline\" x=\"\(f(x(start)))\" y=\"\(f(deviceTop))\" width=\"\(f(max(1, x(end) - x(start))))\" height=\"\(f(Self.laneHeight))\" fill=\"#dddddd\"/>\n"
        }
        // Lanes.
        for lane in lanes {
            let y = laneY(lane)
            out += "<line x1=\"\(f(Self.left))\" y1=\"\(f(y))\" x2=\"\(f(Self.right))\" y2=\"\(f(y))\" stroke=\"#bbbbbb\" stroke-dasharray=\"2 3\"/>\n"
            out += "<text class=\"lane\" x=\"\(f(Self.left - 10))\" y=\"\(f(y + 4))\" text-anchor=\"end\" font-size=\"13\">\(lane.label)</text>\n"
        }
        // Time axis: about eight ticks on a round step.
        let span = to - from
        let steps: [Int64] = [SimTime.millisecond, 10 * SimTime.millisecond, 100 * SimTime.millisecond, SimTime.second,
                              10 * SimTime.second, SimTime.minute, 10 * SimTime.minute, SimTime.hour, 3 * SimTime.hour,
                              6 * SimTime.hour, SimTime.day, 7 * SimTime.day]
        let step = steps.first { span / $0 <= 10 } ?? (span / 8)
        out += "<line x1=\"\(f(Self.left))\" y1=\"\(f(bottom))\" x2=\"\(f(Self.right))\" y2=\"\(f(bottom))\" stroke=\"#333333\"/>\n"
        // The multiples of the step in [from, to], counted: stepping past `to` could pass the clock's end.
        let firstTick = step > 0 ? Int64(SimTime.binCount(span: max(0, from), bin: step)) : 1
        let lastTick = step > 0 ? to / step : 0
        for k in stride(from: firstTick, through: lastTick, by: 1) {
            let tick = k * step
            out += "<line x1=\"\(f(x(tick)))\" y1=\"\(f(bottom))\" x2=\"\(f(x(tick)))\" y2=\"\(f(bottom + 5))\" stroke=\"#333333\"/>\n"
            out += "<text x=\"\(f(x(tick)))\" y=\"\(f(bottom + 18))\" text-anchor=\"middle\">\(SVGText.escape(TraceSVG.tickLabel(tick, step: step)))</text>\n"
        }
        out += "<text x=\"\(f((Self.left + Self.right) / 2))\" y=\"\(f(bottom + 42))\" text-anchor=\"middle\" font-size=\"12\">time (day, time of day; time 0 is midnight)</text>\n"
        // Arrows: a letter's consecutive events that change lane.
        var last: [Int: TraceEntry] = [:]
        for entry in entries {
            guard let letter = entry.letter else { continue }
            if let previous = last[letter], previous.lane != entry.lane {
                out += "<line class=\"push\" x1=\"\(f(x(previous.time)))\" y1=\"\(f(laneY(previous.lane)))\" x2=\"\(f(x(entry.time)))\" y2=\"\(f(laneY(entry.lane)))\" stroke=\"#1f77b4\" stroke-opacity=\"0.6\" marker-end=\"url(#arrow)\"/>\n"
            }
            last[letter] = entry
        }
        // Events, one layer per kind, losses last (on top).
        for kind in Self.kinds {
            for entry in entries where TraceSVG.color(entry.event) == kind.color {
                let tip = "\(TraceReport.formatTime(entry.time)) \(entry.lane.rawValue) \(entry.letter.map { TraceReport.letterLabel($0) + " " } ?? "")\(entry.text)"
                out += "<circle class=\"event\" cx=\"\(f(x(entry.time)))\" cy=\"\(f(laneY(entry.lane)))\" r=\"3.5\" fill=\"\(kind.color)\"><title>\(SVGText.escape(tip))</title></circle>\n"
            }
        }
        // Legend, under the axis: what the colours, the shading and the arrows mean.
        out += "<g class=\"legend\">\n"
        var lx = Self.left
        let ly = bottom + 68
        for kind in Self.kinds.reversed() {
            out += "<circle cx=\"\(f(lx + 4))\" cy=\"\(f(ly - 4))\" r=\"4\" fill=\"\(kind.color)\"/>\n"
            out += "<text x=\"\(f(lx + 12))\" y=\"\(f(ly))\">\(SVGText.escape(kind.meaning))</text>\n"
            lx += 12 + SVGText.estimatedWidth(kind.meaning, fontSize: 11) + 18
        }
        out += "<rect x=\"\(f(lx))\" y=\"\(f(ly - 10))\" width=\"16\" height=\"12\" fill=\"#dddddd\"/>\n"
        out += "<text x=\"\(f(lx + 20))\" y=\"\(f(ly))\">device offline</text>\n"
        lx += 20 + SVGText.estimatedWidth("device offline", fontSize: 11) + 18
        out += "<line x1=\"\(f(lx))\" y1=\"\(f(ly - 4))\" x2=\"\(f(lx + 22))\" y2=\"\(f(ly - 4))\" stroke=\"#1f77b4\" marker-end=\"url(#arrow)\"/>\n"
        out += "<text x=\"\(f(lx + 28))\" y=\"\(f(ly))\">a letter moving down the chain</text>\n"
        out += "</g>\n"
        out += "</svg>\n"
        return out
    }

    /// A tick's label with the precision its step needs: `d1 07:00` on an hourly axis,
    /// `d1 07:00:05` for seconds, milliseconds only when the step is below a second.
    static func tickLabel(_ t: Int64, step: Int64) -> String {
        let full = TraceReport.formatTime(t)   // dD hh:mm:ss.mmm
        if step >= SimTime.minute { return String(full.dropLast(7)) }
        if step >= SimTime.second { return String(full.dropLast(4)) }
        return full
    }

    /// Red for losses, orange for the queue's work, green for what the user sees, grey
    /// otherwise: the event declares its kind (``TraceEvent/kind``), the chart its colour.
    static func color(_ event: TraceEvent) -> String {
        color(of: event.kind)
    }

    static func color(of kind: TraceEventKind) -> String {
        switch kind {
        case .other: return "#555555"
        case .shown: return "#2ca02c"
        case .queueWork: return "#ff7f0e"
        case .loss: return "#d62728"
        }
    }
}

extension TraceLane {
    /// The lane's name on the chart.
    var label: String {
        switch self {
        case .backend: return "backend"
        case .xiva: return "XIVA"
        case .apns: return "APNs"
        case .device: return "device"
        case .user: return "user"
        }
    }
}
