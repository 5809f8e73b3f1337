// Writes result files atomically: a temporary file in the same folder, then a rename.
import Foundation

/// Why results could not be written (exit status 2; nothing half written).
public struct ResultsWriteError: Error, CustomStringConvertible {
    public var description: String
}

public enum ResultsWriter {
    /// Writes every file into `directory` (created if missing). Each file is first written
    /// whole to a temporary name in the same folder and then renamed over the old one, so a
    /// reader sees the old file or the new one, never half of one. If any write fails, the
    /// temporary files are removed and nothing is renamed.
    public static func write(_ files: [(name: String, contents: String)], to directory: String) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ResultsWriteError(description: "cannot write results: '\(directory)' is a file, not a folder")
            }
        } else {
            do { try fm.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw ResultsWriteError(description: "cannot create the results folder '\(directory)': \(reason(error))")
            }
        }
        var temporaries: [(temporary: String, final: String)] = []
        func cleanUp() {
            for t in temporaries {
                try? fm.removeItem(atPath: t.temporary)
                TemporaryFiles.shared.forget(t.temporary)
            }
        }
        for file in files {
            let final = (directory as NSString).appendingPathComponent(file.name)
            let temporary = (directory as NSString).appendingPathComponent(".\(file.name).\(getpid()).tmp")
            TemporaryFiles.shared.remember(temporary)
            temporaries.append((temporary, final))
            guard fm.createFile(atPath: temporary, contents: Data(file.contents.utf8)) else {
                cleanUp()
                throw ResultsWriteError(description: "cannot write '\(final)': the folder is not writable or the disk is full")
            }
        }
        for t in temporaries {
            if rename(t.temporary, t.final) != 0 {
                let message = String(cString: strerror(errno))
                cleanUp()
                throw ResultsWriteError(description: "cannot write '\(t.final)': \(message)")
            }
            TemporaryFiles.shared.forget(t.temporary)
        }
    }

    static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

/// The temporary files being written right now, so an interrupted run can remove them.
public final class TemporaryFiles: @unchecked Sendable {
    public static let shared = TemporaryFiles()
    private var paths: [String] = []
    private let lock = NSLock()

    func remember(_ path: String) { lock.lock(); paths.append(path); lock.unlock() }
    func forget(_ path: String) { lock.lock(); paths.removeAll { $0 == path }; lock.unlock() }

    /// Removes every temporary file still registered (called on SIGINT / SIGTERM).
    public func removeAll() {
        lock.lock(); let pending = paths; paths.removeAll(); lock.unlock()
        for path in pending { unlink(path) }
    }
}
