// The temporary files and folders being written right now, so that an interruption can remove them.
import Foundation

/// The temporary paths of writes under way, so an interrupted process can remove them, and the
/// lock that makes writing a set of results one step as far as an interruption can see.
package final class TemporaryFiles: @unchecked Sendable {
    package static let shared = TemporaryFiles()
    private var paths: [String] = []
    private let lock = NSLock()
    private let writeLock = NSLock()

    private var counter = 0

    /// A name part no other temporary file of any process has now: the process id and a counter.
    /// Orphan cleaning reads the process id back from it (``ResultsOrphans``).
    func uniqueTag() -> String {
        lock.lock(); defer { lock.unlock() }
        counter += 1
        return "\(getpid()).\(counter)"
    }

    func remember(_ path: String) { lock.lock(); paths.append(path); lock.unlock() }
    func forget(_ path: String) { lock.lock(); paths.removeAll { $0 == path }; lock.unlock() }

    /// The paths registered now (for tests).
    package var pending: [String] { lock.lock(); defer { lock.unlock() }; return paths }

    /// Runs `body` (a whole results write) so that an interruption waits for it to end.
    func writing<T>(_ body: () throws -> T) rethrows -> T {
        writeLock.lock(); defer { writeLock.unlock() }
        return try body()
    }

    /// Removes every temporary file or folder still registered (called on SIGINT / SIGTERM).
    /// It first waits for a write under way to finish or fail; with `keepingWritesOut` it then
    /// keeps every later write waiting, for a process that is about to exit.
    package func removeAll(keepingWritesOut: Bool = false) {
        writeLock.lock()
        lock.lock(); let pending = paths; paths.removeAll(); lock.unlock()
        for path in pending { FileTree.removeTree(path) }
        if !keepingWritesOut { writeLock.unlock() }
    }
}
