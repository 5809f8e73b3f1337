// Helpers shared by the scenario tests: catching the located error an input produces.
@testable import PushSimScenarioFile
@testable import PushSimCore

/// The error reading `text` as a document throws, or nil if it reads.
package func readError(_ text: String) -> ScenarioError? {
    do { _ = try YAMLReader.read(text: text, file: "t.yaml"); return nil } catch {
        return error as? ScenarioError
    }
}

/// The error decoding `text` as a scenario throws, or nil if it decodes.
package func scenarioError(_ text: String, overrides: [String] = []) -> ScenarioError? {
    do { _ = try ScenarioLoader.parseWithSweep(text: text, file: "t.yaml", overrides: overrides); return nil } catch {
        return error as? ScenarioError
    }
}

/// `line:column` of an error, for exact location assertions.
package func place(_ error: ScenarioError?) -> String {
    guard let location = error?.location else { return "none" }
    return "\(location.file):\(location.line):\(location.column)"
}

/// The smallest valid scenario; tests add lines to it.
package let minimalScenario = "name: t\nduration: 1d\ndevices: 10\n"

package extension YAMLNode {
    /// The scalar's text, or nil.
    var text: String? {
        if case .scalar(let text, _) = kind { return text }
        return nil
    }
    var style: ScalarStyle? {
        if case .scalar(_, let style) = kind { return style }
        return nil
    }
    var items: [YAMLNode]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }
    var keys: [String]? {
        if case .mapping(let entries) = kind { return entries.map(\.key) }
        return nil
    }
}

/// The error loading the scenario file at `path` throws, or nil if it loads.
package func loadError(_ path: String, overrides: [String] = []) -> ScenarioError? {
    do { _ = try ScenarioLoader.load(path: path, overrides: overrides); return nil } catch {
        return error as? ScenarioError
    }
}
