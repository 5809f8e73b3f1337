// `pushsim report`: report.html for a results folder that `run`, `sweep`, `optimize`,
// `calibrate` or `merge --out` wrote (folders written before report.html existed included).
import Foundation
import PushSimScenarioFile
import PushSimReport

enum ReportCommand {
    static let spec = CommandSpec(
        name: "report", summary: "write report.html for a results folder",
        operands: "DIR",
        operandHelp: [("DIR", """
            a folder holding summary.json (run, merge --out), sweep.json, optimize.json or
            calibrate.json, and the charts written beside it
            """)],
        about: """
        Writes DIR/report.html: one self-contained page (no network, no other file, no
        script) with the answer in words, the key table, the charts, and how the results
        were made. `run`, `sweep`, `optimize` and `calibrate` write the same page with
        their results; this makes it for a folder they wrote earlier or `merge --out` filled.
        """,
        options: [],
        examples: ["pushsim report results/quickstart"],
        run: run)

    /// The most a results file is read: larger is not a folder PushSim wrote.
    static let maxFileBytes = 256 << 20

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        guard arguments.positionals.count == 1 else {
            throw InputError.usage("expected one results folder, got \(arguments.positionals.count)")
        }
        let directory = arguments.positionals[0]
        guard FileTree.isFolder(directory) else {
            throw InputError.refused("\(directory): not a folder (give the folder `pushsim run --out` or `sweep --out` wrote)")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        guard let document = HTMLReport.documents.first(where: names.contains) else {
            throw InputError.refused("\(directory): no results here: expected one of \(HTMLReport.documents.joined(separator: ", "))")
        }
        var files: [(name: String, contents: String)] = []
        for name in [document] + names.filter({ $0.hasSuffix(".svg") }) {
            let path = (directory as NSString).appendingPathComponent(name)
            let bytes: [UInt8]
            do { bytes = try BoundedInput.read(path: path, limit: maxFileBytes, role: "a results file") } catch {
                throw InputError.refused("\(path): cannot read it: \(error.reason)")
            }
            files.append((name, String(decoding: bytes, as: UTF8.self)))
        }
        let html: String?
        do { html = try HTMLReport.page(for: files, command: nil) } catch {
            throw InputError.refused("\((directory as NSString).appendingPathComponent(document)): not a JSON document PushSim wrote: \(error)")
        }
        guard let html else { throw InputError.refused("\(directory): no results here") }
        try ResultsWriter.write([(HTMLReport.name, html)], to: directory, replacing: [HTMLReport.name])
        console.out("\((directory as NSString).appendingPathComponent(HTMLReport.name))\n")
        return ExitStatus.success.code
    }
}
