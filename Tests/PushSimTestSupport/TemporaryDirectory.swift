// Test support: a fresh temporary folder per test, and small scenario texts.
import Foundation

/// A temporary folder removed when the value is dropped.
package final class TemporaryDirectory {
    package let path: String

    package init() {
        let base = NSTemporaryDirectory() + "pushsim-test-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = base
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `name` inside the folder and returns its path.
    @discardableResult
    package func write(_ name: String, _ text: String) -> String {
        let file = (path as NSString).appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        return file
    }

    package func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Every file below the folder, relative paths, sorted.
    package var listing: [String] {
        (FileManager.default.subpaths(atPath: path) ?? []).sorted()
    }
}

/// A small scenario that runs in well under a second in debug builds.
package let smallScenarioText = """
# a small scenario for tests
name: small
seed: 3
duration: 2d
drain: 1d
devices: 50
mail:
  rate: 30/d
connectivity:
  online: exponential(2h)
  offline: exponential(30m)
apns:
  latency: lognormal(150ms, 3s)
device:
  clear_after: exponential(1h)
queue:
  repeat_max_count: 5
"""

/// Every file below `folder` with its contents, to compare before and after a command.
package func snapshot(_ folder: String) -> [String: Data] {
    var files: [String: Data] = [:]
    for path in FileManager.default.subpaths(atPath: folder) ?? [] {
        files[path] = FileManager.default.contents(atPath: folder + "/" + path) ?? Data()
    }
    return files
}
