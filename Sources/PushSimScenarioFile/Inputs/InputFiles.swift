// The files this process has read as inputs, so that no result file is written over one of them.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every input a command reads (the scenario file, its mail trace, the parts of a merge) is
/// recorded here by its device and inode. A result file reaches its place by a rename, which
/// would replace an input given as an output path (`trace q.yaml --svg q.yaml`, a scenario
/// named `summary.json` in its own `--out`): ``OutputTarget`` refuses such a path instead.
package final class InputFiles: @unchecked Sendable {
    package static let shared = InputFiles()

    private struct Entry { var device: UInt64; var inode: UInt64; var role: String; var path: String }
    private let lock = NSLock()
    private var entries: [Entry] = []

    /// Records the open file `fd`, read from `path` as `role` ("the scenario file").
    package func record(fd: Int32, role: String, path: String) {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        lock.lock(); defer { lock.unlock() }
        let entry = Entry(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), role: role, path: path)
        if !entries.contains(where: { $0.device == entry.device && $0.inode == entry.inode && $0.path == path }) {
            entries.append(entry)
        }
    }

    /// The input that a file renamed to `path` would replace, as `(role, path)`; nil when none.
    /// `path` is taken as it is (a symbolic link at its end is what a rename replaces, not its
    /// target); an input counts only while its own path still names it, so a file removed
    /// since (and its inode reused) is no input.
    package func input(replacedBy path: String) -> (role: String, path: String)? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        lock.lock(); let candidates = entries; lock.unlock()
        for entry in candidates where entry.device == UInt64(info.st_dev) && entry.inode == UInt64(info.st_ino) {
            var now = stat()
            if stat(entry.path, &now) == 0, UInt64(now.st_dev) == entry.device, UInt64(now.st_ino) == entry.inode {
                return (entry.role, entry.path)
            }
        }
        return nil
    }
}

/// What a file read earlier in this process must still be for what was read from it to be
/// reused (a sweep loads its scenario and its mail trace once per point).
package enum FileIdentity {
    /// The regular file at `path` as device, inode, size and modification time, or nil when it
    /// is not a regular file or was modified in the last two seconds: file times tick coarsely
    /// (a few milliseconds), so a file rewritten at the same size within one tick of a read
    /// could look unchanged; one last modified seconds before the read cannot.
    package static func stable(_ path: String) -> (identity: String, size: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard info.st_mtim.tv_sec < now.tv_sec - 1 else { return nil }
        return ("\(info.st_dev) \(info.st_ino) \(info.st_size) \(info.st_mtim.tv_sec) \(info.st_mtim.tv_nsec)", Int64(info.st_size))
    }
}
