// `pushsim report`: report.html for a results folder that `run`, `sweep`, `optimize`,
// `calibrate` or `merge --out` wrote (folders written before report.html existed included).
import Foundation
import PushSimExperiment
import PushSimScenarioFile
import PushSimReport

enum ReportCommand {
    static let spec = CommandSpec(
        name: "report", summary: "write report.html for a results folder",
        operands: "DIR…",
        operandHelp: [("DIR", """
            a folder holding summary.json (run, merge --out), sweep.json, optimize.json or
            calibrate.json, and the charts written beside it; several folders of sweeps
            with --out: their charts drawn together
            """)],
        about: """
        Writes DIR/report.html: one self-contained page (no network, no other file, no
        script) with the answer in words, the key table, the charts, and how the results
        were made (DIR may be a folder of figures drawn together, with its together.json). `run`, `sweep`, `optimize` and `calibrate` write the same page with
        their results; this makes it for a folder they wrote earlier or `merge --out` filled.
        With several folders, each a sweep of the same one axis (a population each), it
        writes to --out every sweep chart once, with a line per folder (named by its
        scenario; its off arm dashed): one figure for a paper instead of one per population,
        with together.json (each folder's scenario, version, commit, client, seeds and key
        figures) and report.html showing the figures and how they were made.
        """,
        options: [
            CommandOption("out", .value("DIR"), help: """
                with several sweep folders: where their figures go (loss_rate.svg, …, together.json, report.html; the folder is created)
                """),
            CommandOption("plain", .flag, help: """
                with several sweep folders: the figures in the plain style for a paper
                """),
        ],
        examples: ["pushsim report results/quickstart",
                   "pushsim report results/repeat-max-count/office results/repeat-max-count/nights --out figures"],
        run: run)

    /// The most a results file is read: larger is not a folder PushSim wrote.
    static let maxFileBytes = 256 << 20

    static func run(_ arguments: Arguments, _ console: Console) throws -> Int32 {
        if arguments.positionals.count > 1, let out = arguments.value("out") {
            return try together(arguments.positionals, out: out, plain: arguments.flag("plain"), console)
        }
        guard arguments.positionals.count == 1 else {
            throw InputError.usage("expected one results folder, got \(arguments.positionals.count) "
                                   + "(several sweep folders are drawn together with --out DIR)")
        }
        if arguments.value("out") != nil || arguments.flag("plain") {
            throw InputError.usage("--out and --plain draw several sweep folders together; give two or more")
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

    /// The folder `path` names, symbolic links resolved: two spellings of one folder compare equal.
    static func realPath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// `report DIR DIR… --out OUT`: the sweeps' charts with a line per folder.
    static func together(_ directories: [String], out: String, plain: Bool, _ console: Console) throws -> Int32 {
        // The figures are named as a sweep's own charts (loss_rate.svg, …): written into one of
        // the folders read, they would replace that sweep's charts. One folder twice draws one
        // population as two.
        var seen: [String: String] = [:]
        for directory in directories where FileTree.isFolder(directory) {
            let place = realPath(directory)
            if let earlier = seen[place] {
                throw InputError.refused("'\(directory)' is given twice (as '\(earlier)' too): give each sweep folder once")
            }
            seen[place] = directory
        }
        if FileTree.isFolder(out), let folder = seen[realPath(out)] {
            throw InputError.refused("cannot write the figures to '\(out)' (--out): it is the sweep folder '\(folder)' read here, whose own charts (loss_rate.svg, …) they would replace; give another folder")
        }
        var sources: [SweepOverlay.Source] = []
        var documents: [(folder: String, name: String, sweep: JSONValue)] = []
        for directory in directories {
            let path = (directory as NSString).appendingPathComponent("sweep.json")
            guard FileTree.isFolder(directory), FileManager.default.fileExists(atPath: path) else {
                throw InputError.refused("\(directory): no sweep.json here (give folders `pushsim sweep --out` wrote)")
            }
            let bytes: [UInt8]
            do { bytes = try BoundedInput.read(path: path, limit: maxFileBytes, role: "a results file") } catch {
                throw InputError.refused("\(path): cannot read it: \(error.reason)")
            }
            let document: JSONValue
            do { document = try JSONValue.parse(String(decoding: bytes, as: UTF8.self)) } catch {
                throw InputError.refused("\(path): not a JSON document PushSim wrote: \(error)")
            }
            guard let result = SweepResult(sweepJSON: document) else {
                throw InputError.refused("\(path): not a sweep's JSON document (no scenario, axes and points)")
            }
            if let wrong = SweepOverlay.implausibleValue(in: result) {
                throw InputError.refused("\(path): \(wrong): not a document PushSim wrote; run the sweep again")
            }
            // Two folders of one scenario are told apart by their folder's name.
            let folder = (directory as NSString).standardizingPath.split(separator: "/").last.map(String.init) ?? directory
            let name = sources.contains { $0.name == result.scenario } || directories.count != Set(directories).count
                ? folder : result.scenario
            sources.append(SweepOverlay.Source(name: sources.contains { $0.name == name } ? directory : name, result: result))
            documents.append((directory, sources[sources.count - 1].name, document))
        }
        let overlay = SweepOverlay(sources: sources, kind: "populations")
        if let refusal = overlay.refusal { throw InputError.refused("cannot draw these sweeps together: \(refusal)") }
        let charts = overlay.charts(plain: plain)
        // Beside the figures: what they were drawn from, and the page that shows them.
        let together = SweepsTogether.document(sources: documents, kind: overlay.kind, axis: sources.first?.result.axes.first?.path,
                                               figures: charts.map(\.name))
        let files = HTMLReport.adding(to: charts + [(SweepsTogether.name, together.prettyText + "\n")])
        try ResultsWriter.write(files, to: out, replacing: Set(files.map(\.name)))
        for file in files { console.out((out as NSString).appendingPathComponent(file.name) + "\n") }
        return ExitStatus.success.code
    }
}
