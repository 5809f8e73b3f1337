// What decoding needs beyond the node tree: the scenario file's place (traces are relative to it) and traces already read.
import PushSimCore

/// The scenario file being decoded, and the traces read for it so far: a sweep decodes the
/// document once per value, and a trace file can be large, so each is read once per shape.
final class DecodingContext {
    /// The scenario file as named in errors; a trace path is relative to its folder.
    let scenarioFile: String
    /// Lookups only, never iterated: keyed by resolved path, duration and devices.
    private var traces: [String: MailTrace] = [:]

    /// The most bytes reading one trace may take (``MailTraceReader/memoryNeeded(fileBytes:devices:)``).
    let traceMemoryLimit: Double

    init(scenarioFile: String = "", traceMemoryLimit: Double = .infinity) {
        self.scenarioFile = scenarioFile
        self.traceMemoryLimit = traceMemoryLimit
    }

    /// A trace path as written, resolved against the scenario file's folder.
    func resolve(_ written: String) -> String {
        if written.hasPrefix("/") { return written }
        let folder = FilePath.parent(of: scenarioFile)
        return folder == "." ? written : FilePath.join(folder, written)
    }

    func trace(written: String, at node: YAMLNode, keyPath: String, duration: SimTime, devices: Int) throws -> MailTrace {
        let path = resolve(written)
        let key = "\(duration.microseconds) \(devices) \(path)"
        if let known = traces[key], known.path == written { return known }
        let trace = try MailTraceReader.read(written: written, resolvedPath: path, duration: duration, devices: devices,
                                             at: node, keyPath: keyPath, memoryLimit: traceMemoryLimit)
        traces[key] = trace
        return trace
    }
}
