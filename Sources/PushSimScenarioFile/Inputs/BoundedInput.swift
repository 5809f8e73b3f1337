// Reading an input file or standard input whole, but never more than a cap: /dev/zero cannot fill memory.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an input could not be read whole.
package enum BoundedInputError: Error, Equatable, Sendable {
    case missing
    /// A folder (or something else that is not a stream of bytes).
    case notAFile
    /// More than `limit` bytes: reading stopped there (`size`: the file's, where it told one).
    case tooLarge(limit: Int, size: Int? = nil)
    case unreadable(reason: String)
    /// A device, a pipe or a socket where a regular file is needed.
    case notRegular
    /// Its size or modification time moved while it was read: another program is writing it.
    case changedWhileRead

    /// The reason, to follow `SOURCE: cannot read …:` in a message.
    package var reason: String {
        switch self {
        case .missing: return "no such file"
        case .notAFile: return "it is a folder, not a file"
        case .tooLarge(let limit, _): return "it holds more than \(BoundedInput.size(limit)), the most this input can be"
        case .unreadable(let reason): return reason
        case .notRegular: return "it is not a regular file"
        case .changedWhileRead: return "it changed while it was read (another program is writing it); read it again once it is complete"
        }
    }
}

package enum BoundedInput {
    /// Reads the file at `path` (a regular file, a pipe, a device) up to `limit` bytes;
    /// refuses more rather than reading on. Memory used: at most `limit` plus one chunk.
    /// With `role` ("the scenario file"), the file is recorded as an input (``InputFiles``), so
    /// no result is written over it.
    package static func read(path: String, limit: Int, role: String? = nil) throws(BoundedInputError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw errno == ENOENT ? .missing : errno == EISDIR ? .notAFile : .unreadable(reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        if let role { InputFiles.shared.record(fd: fd, role: role, path: path) }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { throw .notAFile }
        return try read(fd: fd, limit: limit)
    }

    /// Reads the regular file at `path` (a symbolic link is followed) whole, with `read(2)` into
    /// memory rather than mapping it: a mapped file that shrinks underneath kills the reader with
    /// SIGBUS, a read one only ends early, and the size and modification time taken before and
    /// after tell that it changed. A device or a pipe is `.notRegular`: it has no size to check
    /// and may never end.
    package static func readRegularFile(path: String, limit: Int, role: String? = nil) throws(BoundedInputError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw errno == ENOENT ? .missing : errno == EISDIR ? .notAFile : .unreadable(reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        if let role { InputFiles.shared.record(fd: fd, role: role, path: path) }
        var before = stat()
        guard fstat(fd, &before) == 0 else { throw .unreadable(reason: String(cString: strerror(errno))) }
        if (before.st_mode & S_IFMT) == S_IFDIR { throw .notAFile }
        guard (before.st_mode & S_IFMT) == S_IFREG else { throw .notRegular }
        guard before.st_size <= limit else { throw .tooLarge(limit: limit, size: Int(before.st_size)) }
        let bytes = try read(fd: fd, limit: limit)
        var after = stat()
        guard fstat(fd, &after) == 0, after.st_size == before.st_size, bytes.count == Int(before.st_size),
              after.st_mtim.tv_sec == before.st_mtim.tv_sec, after.st_mtim.tv_nsec == before.st_mtim.tv_nsec else {
            throw .changedWhileRead
        }
        return bytes
    }

    /// Reads standard input up to `limit` bytes.
    package static func readStandardInput(limit: Int) throws(BoundedInputError) -> [UInt8] {
        try read(fd: STDIN_FILENO, limit: limit)
    }

    static func read(fd: Int32, limit: Int) throws(BoundedInputError) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = 1 << 16
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let n = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, chunk) }
            if n < 0 {
                if errno == EINTR { continue }
                throw errno == EISDIR ? .notAFile : .unreadable(reason: String(cString: strerror(errno)))
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else { throw .tooLarge(limit: limit) }
            bytes.append(contentsOf: buffer[0..<n])
        }
    }

    /// `64 MiB`, `16 MiB`, `512 KiB`.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

/// `read(2)`, named apart from ``BoundedInput/read(path:limit:)``.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
