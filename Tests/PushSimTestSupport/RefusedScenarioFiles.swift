// The one check that bad scenario files are refused through the command line: exit 2, the place on standard error, nothing written.
import Foundation
import Testing

/// Writes each `(text, place)` as a file in a fresh folder, runs `pushsim run` on it with an
/// output folder, and expects exit status 2, `place` (`t.yaml:LINE:COLUMN`, renamed to the
/// file written) on standard error, and no output folder.
package func expectRefusedThroughTheCommandLine(_ files: [(text: String, place: String)], label: String,
                                                sourceLocation: SourceLocation = #_sourceLocation) throws {
    let folder = NSTemporaryDirectory() + "pushsim-\(label)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for (n, bad) in files.enumerated() {
        let file = folder + "/t\(n).yaml"
        _ = FileManager.default.createFile(atPath: file, contents: Data(bad.text.utf8))
        let result = runPushsim(["run", file, "--jobs", "1", "--out", folder + "/out"])
        #expect(result.status == 2, sourceLocation: sourceLocation)
        #expect(result.err.contains("t\(n).yaml:" + bad.place.dropFirst("t.yaml:".count)), "\(result.err)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"), sourceLocation: sourceLocation)
    }
}
