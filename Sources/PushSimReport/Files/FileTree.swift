// Small file-system operations the results writer needs, on POSIX calls (no Foundation path code).
import Foundation
import PushSimScenarioFile

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Listing, removing and mirroring folders with plain system calls, so that no path reaches
/// Foundation's path handling (which traps on some short relative paths on Linux).
package enum FileTree {
    /// What `lstat` says a path is.
    enum Kind { case missing, folder, file, link, other }

    static func kind(_ path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// Whether `path` is a folder, or a symbolic link to one.
    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names in a folder (without `.` and `..`), sorted; nil when it cannot be listed.
    static func names(in folder: String) -> [String]? {
        guard let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Removes `path` and everything below it (links are removed, never followed).
    static func removeTree(_ path: String) {
        if kind(path) == .folder {
            for name in names(in: path) ?? [] { removeTree(FilePath.join(path, name)) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Makes `destination` (which must not exist) hold what `source` holds: files as hard
    /// links (copies where links are refused), folders recreated, symbolic links recreated.
    /// The reason on failure.
    static func mirror(_ source: String, to destination: String) -> String? {
        switch kind(source) {
        case .folder:
            var info = stat()
            let mode = stat(source, &info) == 0 ? info.st_mode & 0o7777 : 0o755
            guard mkdir(destination, mode) == 0 else { return "\(destination): \(String(cString: strerror(errno)))" }
            for name in names(in: source) ?? [] {
                if let problem = mirror(FilePath.join(source, name), to: FilePath.join(destination, name)) { return problem }
            }
            return nil
        case .file:
            if link(source, destination) == 0 { return nil }
            return copy(source, to: destination)
        case .link:
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(source, &buffer, buffer.count - 1)
            guard n >= 0 else { return "\(source): \(String(cString: strerror(errno)))" }
            buffer[n] = 0
            return symlink(buffer, destination) == 0 ? nil : "\(destination): \(String(cString: strerror(errno)))"
        case .other:
            // A FIFO, socket or device node is not PushSim's to drop: linked, or the write fails.
            // (Folders holding one are updated in place, so this is only a race with another program.)
            return link(source, destination) == 0 ? nil : "\(source): \(String(cString: strerror(errno)))"
        case .missing:
            return nil   // something that vanished is not carried
        }
    }

    /// Copies a regular file's bytes and mode; the reason on failure.
    static func copy(_ source: String, to destination: String) -> String? {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return "\(source): \(String(cString: strerror(errno)))" }
        defer { close(input) }
        var info = stat()
        let mode = fstat(input, &info) == 0 ? info.st_mode & 0o7777 : 0o644
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard output >= 0 else { return "\(destination): \(String(cString: strerror(errno)))" }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return "\(source): \(String(cString: strerror(errno)))" }
            if n == 0 { return nil }
            var offset = 0
            while offset < n {
                let m = buffer.withUnsafeBytes { bytes in bytes.baseAddress.map { write(output, $0 + offset, n - offset) } ?? -1 }
                if m < 0 { if errno == EINTR { continue }; return "\(destination): \(String(cString: strerror(errno)))" }
                offset += m
            }
        }
    }

    /// Flushes a folder's entries (new names, renames) to disk.
    static func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    /// Whether a process with this id is running (or exists but is not ours to signal).
    static func isAlive(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}
