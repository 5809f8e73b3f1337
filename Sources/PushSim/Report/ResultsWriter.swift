// Writes result files atomically: a temporary file in the same folder, flushed to disk, then a rename.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why results could not be written (exit status 2; nothing half written).
public struct ResultsWriteError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

public enum ResultsWriter {
    /// Checks, before any work, that results can be written to `directory`: it is a folder (or
    /// does not exist yet), and its nearest existing folder accepts a file. With
    /// `createParents` false (an explicit `--out`), the folder's parent must already exist:
    /// a typo in a path should not silently create a tree of folders.
    /// Nothing is left behind by the check.
    public static func checkDestination(_ directory: String, createParents: Bool) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        var existing = directory
        if fm.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ResultsWriteError(description: "cannot write results to '\(directory)': it is a file, not a folder; choose another --out")
            }
        } else {
            // The nearest ancestor that exists.
            var missing: [String] = []
            var path = FilePath.normalized(directory)
            if path.isEmpty { path = "." }
            while !fm.fileExists(atPath: path, isDirectory: &isDirectory) {
                missing.append(path)
                let parent = FilePath.parent(of: path)
                if parent == path || parent.isEmpty { path = parent.isEmpty ? "." : parent; break }
                path = parent
            }
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ResultsWriteError(description: "cannot write results to '\(directory)': '\(path)' is a file, not a folder")
            }
            if !createParents && missing.count > 1 {
                let parent = FilePath.parent(of: directory)
                throw ResultsWriteError(description: "cannot write results to '\(directory)': the folder '\(parent)' does not exist; create it first or choose another --out")
            }
            existing = path
        }
        // Permissions alone do not tell (root, read-only file systems, quotas): try it.
        let probe = FilePath.join(existing, ".pushsim-probe.\(TemporaryFiles.shared.uniqueTag()).tmp")
        TemporaryFiles.shared.remember(probe)
        defer { unlink(probe); TemporaryFiles.shared.forget(probe) }
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            throw ResultsWriteError(description: "cannot write results to '\(directory)': '\(existing)' is not writable (\(String(cString: strerror(errno))))")
        }
        close(fd)
    }

    /// Writes every file into `directory` (created if missing, parents too). Each file is first
    /// written whole to a temporary name in the same folder and flushed to disk, and only when
    /// all are written are they renamed over the old ones, so a reader sees the old file or the
    /// new one, never half of one. If any write fails (a full disk, a read-only folder), the
    /// temporary files and any folder created here are removed, nothing is renamed, and the
    /// old results stay as they were. Interruption waits for a write under way (see
    /// ``TemporaryFiles/removeAll(keepingWritesOut:)``), so a set of files is replaced whole.
    public static func write(_ files: [(name: String, contents: String)], to directory: String) throws {
        try TemporaryFiles.shared.writing {
            try writeUnlocked(files, to: directory)
        }
    }

    private static func writeUnlocked(_ files: [(name: String, contents: String)], to directory: String) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        var created: [String] = []
        if fm.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ResultsWriteError(description: "cannot write results: '\(directory)' is a file, not a folder")
            }
        } else {
            // Remember which folders this creates, to take them away again on failure.
            var path = directory
            while !path.isEmpty, !fm.fileExists(atPath: path) {
                created.append(path)
                let parent = FilePath.parent(of: path)
                if parent == path { break }
                path = parent
            }
            do { try fm.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                removeEmptyFolders(created)
                throw ResultsWriteError(description: "cannot create the results folder '\(directory)': \(reason(error))")
            }
        }
        var temporaries: [(temporary: String, final: String)] = []
        func cleanUp() {
            for t in temporaries {
                unlink(t.temporary)
                TemporaryFiles.shared.forget(t.temporary)
            }
            removeEmptyFolders(created)
        }
        let tag = TemporaryFiles.shared.uniqueTag()
        for file in files {
            let final = FilePath.join(directory, file.name)
            let temporary = FilePath.join(directory, ".\(file.name).\(tag).tmp")
            TemporaryFiles.shared.remember(temporary)
            temporaries.append((temporary, final))
            if let problem = writeWhole(Array(file.contents.utf8), to: temporary) {
                cleanUp()
                throw ResultsWriteError(description: "cannot write '\(final)': \(problem); the earlier results are unchanged")
            }
        }
        for (index, t) in temporaries.enumerated() {
            if rename(t.temporary, t.final) != 0 {
                let message = String(cString: strerror(errno))
                cleanUp()
                let done = temporaries[..<index].map(\.final)
                throw ResultsWriteError(description: "cannot write '\(t.final)': \(message)"
                                        + (done.isEmpty ? "; the earlier results are unchanged" : "; already replaced: \(done.joined(separator: ", "))"))
            }
            TemporaryFiles.shared.forget(t.temporary)
        }
        // Make the renames themselves durable.
        let folder = open(directory, O_RDONLY)
        if folder >= 0 { fsync(folder); close(folder) }
    }

    /// Writes `bytes` to a new file at `path` and flushes it to disk; the reason on failure.
    static func writeWhole(_ bytes: [UInt8], to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { return "\(String(cString: strerror(errno))) (the folder is not writable)" }
        var problem: String?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = systemWrite(fd, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    problem = String(cString: strerror(errno)) + (errno == ENOSPC ? " (the disk is full)" : "")
                    return
                }
                if n == 0 { problem = "nothing could be written (the disk may be full)"; return }
                offset += n
            }
        }
        if problem == nil && fsync(fd) != 0 && errno != EINVAL {
            problem = String(cString: strerror(errno))
        }
        if close(fd) != 0 && problem == nil { problem = String(cString: strerror(errno)) }
        return problem
    }

    /// Removes the folders this writer created, deepest first, if they are (still) empty.
    private static func removeEmptyFolders(_ created: [String]) {
        for path in created { rmdir(path) }
    }

    static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

/// `write(2)`, named apart from ``ResultsWriter/write(_:to:)``.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// The temporary files being written right now, so an interrupted run can remove them, and
/// the lock that makes writing a set of results one step as far as an interruption can see.
public final class TemporaryFiles: @unchecked Sendable {
    public static let shared = TemporaryFiles()
    private var paths: [String] = []
    private let lock = NSLock()
    private let writeLock = NSLock()

    private var counter = 0

    /// A name part no other temporary file of any process has now: the process id and a counter.
    func uniqueTag() -> String {
        lock.lock(); defer { lock.unlock() }
        counter += 1
        return "\(getpid()).\(counter)"
    }

    func remember(_ path: String) { lock.lock(); paths.append(path); lock.unlock() }
    func forget(_ path: String) { lock.lock(); paths.removeAll { $0 == path }; lock.unlock() }

    /// The paths registered now (for tests).
    public var pending: [String] { lock.lock(); defer { lock.unlock() }; return paths }

    /// Runs `body` (a whole results write) so that an interruption waits for it to end.
    func writing<T>(_ body: () throws -> T) rethrows -> T {
        writeLock.lock(); defer { writeLock.unlock() }
        return try body()
    }

    /// Removes every temporary file still registered (called on SIGINT / SIGTERM). It first
    /// waits for a write under way to finish or fail; with `keepingWritesOut` it then keeps
    /// every later write waiting, for a process that is about to exit.
    public func removeAll(keepingWritesOut: Bool = false) {
        writeLock.lock()
        lock.lock(); let pending = paths; paths.removeAll(); lock.unlock()
        for path in pending { unlink(path) }
        if !keepingWritesOut { writeLock.unlock() }
    }
}
