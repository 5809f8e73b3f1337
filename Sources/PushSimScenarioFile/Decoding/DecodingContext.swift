// What decoding needs beyond the node tree: the scenario file's place (traces are relative to it) and traces already read.
import Foundation
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
        // A sweep loads the scenario once per point, each time with a new context: the trace
        // read for an earlier load is reused while the file is the same (``FileIdentity``), so a 100 MB trace is not read again, and held again, per point.
        let file = FileIdentity.stable(path)
        let identity = file.map { "\($0.identity) \(key)" }
        if let identity, let file, let known = Self.recent.trace(identity), known.path == written,
           MailTraceReader.memoryNeeded(fileBytes: file.size, devices: devices) <= traceMemoryLimit {
            traces[key] = known
            return known
        }
        let trace = try MailTraceReader.read(written: written, resolvedPath: path, duration: duration, devices: devices,
                                             at: node, keyPath: keyPath, memoryLimit: traceMemoryLimit)
        traces[key] = trace
        if let identity { Self.recent.keep(trace, as: identity) }
        return trace
    }

    /// The traces read most recently in this process (a few: a sweep may vary `mail.trace`).
    private static let recent = RecentTraces()
}

/// A small process-wide memory of traces read, by file identity and shape.
private final class RecentTraces: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(identity: String, trace: MailTrace)] = []
    private let capacity = 4

    func trace(_ identity: String) -> MailTrace? {
        lock.lock(); defer { lock.unlock() }
        return entries.first { $0.identity == identity }?.trace
    }

    func keep(_ trace: MailTrace, as identity: String) {
        lock.lock(); defer { lock.unlock() }
        entries.removeAll { $0.identity == identity }
        entries.insert((identity, trace), at: 0)
        if entries.count > capacity { entries.removeLast(entries.count - capacity) }
    }
}
