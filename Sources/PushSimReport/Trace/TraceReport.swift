// The text of `pushsim trace`: one device's timeline, one line per event, in a time window.
import Foundation
import PushSimCore
import PushSimScenarioFile
import PushSimExperiment

/// A device's timeline as a person reads it.
package enum TraceReport {
    /// Reads a `--from` / `--to` value in the duration syntax (`8h`, `1d2h30m`, `0`).
    package static func parseTime(_ text: String) throws -> SimTime {
        do { return try ValueParsers.duration(text) } catch { throw SweepError(error.message) }
    }

    /// The entries in time order (a note may be made ahead of time, such as when the user will
    /// clear a notification; ties keep the order the simulation made them in), within
    /// [from, to] — both ends included.
    package static func window(_ entries: [TraceEntry], from: Int64? = nil, to: Int64? = nil) -> [TraceEntry] {
        let low = from ?? Int64.min, high = to ?? Int64.max
        let kept = entries.enumerated().filter { (_, entry) in entry.time >= low && entry.time <= high }
        let ordered = kept.sorted { (a, b) in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }
        return ordered.map { $0.element }
    }

    /// A letter as the trace names it: `#n` for the device's n-th letter, counted from 1, so
    /// that without XIVA drops letter #n carries position n.
    package static func letterLabel(_ index: Int) -> String { "#\(index + 1)" }

    /// The hour of day of instant t (docs/model.md §5, Time of day): `h(t) = floor((t mod 1d) / 1h)`, as `h07`.
    package static func hourLabel(_ microseconds: Int64) -> String {
        let h = Int(max(microseconds, 0) % SimTime.day / SimTime.hour)
        return h < 10 ? "h0\(h)" : "h\(h)"
    }

    /// One line per entry: time, hour of day, lane, letter (`#12`, or blank for device-wide
    /// events), text.
    package static func text(_ entries: [TraceEntry]) -> String {
        let laneWidth = TraceLane.allCases.map(\.rawValue.count).max() ?? 7
        let letterWidth = max(3, (entries.compactMap(\.letter).max().map { letterLabel($0).count } ?? 3))
        var out = ""
        for entry in entries {
            let letter = entry.letter.map(letterLabel) ?? ""
            out += formatTime(entry.time) + "  " + hourLabel(entry.time) + "  "
                + entry.lane.rawValue.padding(toLength: laneWidth, withPad: " ", startingAt: 0) + "  "
                + letter.padding(toLength: letterWidth, withPad: " ", startingAt: 0) + "  "
                + entry.text + "\n"
        }
        return out
    }

    /// `d2 08:40:00.150`: the day (time 0 is midnight of day 0), then the time of day to the
    /// millisecond. Sub-millisecond parts are cut, not rounded, so order on screen is kept.
    package static func formatTime(_ microseconds: Int64) -> String {
        let t = max(microseconds, 0)
        let day = t / SimTime.day
        var rest = t % SimTime.day
        let hours = rest / SimTime.hour; rest %= SimTime.hour
        let minutes = rest / SimTime.minute; rest %= SimTime.minute
        let seconds = rest / SimTime.second; rest %= SimTime.second
        let millis = rest / SimTime.millisecond
        return "d\(day) " + String(format: "%02d:%02d:%02d.%03d", Int(hours), Int(minutes), Int(seconds), Int(millis))
    }

    /// The segment a device belongs to, for a trace's title (`· segment commuters`); empty
    /// without segments.
    package static func segmentLabel(_ scenario: Scenario, device: Int) -> String {
        scenario.segmentIndex(ofDevice: device).map { " · segment \(scenario.segments[$0].name)" } ?? ""
    }

    /// The closing lines: how each of the device's letters ended, counted.
    package static func footer(_ ledger: Ledger) -> String {
        var out = "letters \(ledger.letters): delivered \(ledger.delivered), summarized \(ledger.summarized), lost \(ledger.lost)"
        let causes = LossCause.allCases.filter { ledger.count(of: $0) > 0 }.map { "\($0.key) \(ledger.count(of: $0))" }
        if !causes.isEmpty { out += " (" + causes.joined(separator: ", ") + ")" }
        out += "; duplicates \(ledger.duplicates)"
        if ledger.reRequests + ledger.summaries > 0 {
            out += "; re-requests \(ledger.reRequests), re-sent \(ledger.resent), summaries \(ledger.summaries)"
        }
        return out + "\n"
    }
}
