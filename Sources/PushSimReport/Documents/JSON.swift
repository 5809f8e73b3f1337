// A minimal JSON value, written with sorted keys, integers as integers, doubles in shortest form (JSONTextWriter.swift).
import PushSimScenarioFile

/// A JSON document. Objects keep no order of their own: they are always written with sorted
/// keys, so output never depends on how a dictionary happens to iterate.
package indirect enum JSONValue: Equatable, Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case int(Int)
    case uint(UInt64)
    case double(Double)
    case bool(Bool)
    case null

    /// Compact JSON text.
    package var text: String {
        var writer = JSONTextWriter(indent: nil)
        writer.write(self, depth: 0)
        return writer.text
    }

    /// JSON text with two-space indentation.
    package var prettyText: String {
        var writer = JSONTextWriter(indent: "  ")
        writer.write(self, depth: 0)
        return writer.text
    }

    /// Shortest round-trip form (Swift's `description` of a Double); non-finite as null.
    package static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == 0 { return "0.0" }  // also folds -0.0
        return d.description
    }
}
