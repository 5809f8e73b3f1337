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
    /// More than `limit` bytes: reading stopped there.
    case tooLarge(limit: Int)
    case unreadable(reason: String)

    /// The reason, to follow `SOURCE: cannot read …:` in a message.
    package var reason: String {
        switch self {
        case .missing: return "no such file"
        case .notAFile: return "it is a folder, not a file"
        case .tooLarge(let limit): return "it holds more than \(BoundedInput.size(limit)), the most this input can be"
        case .unreadable(let reason): return reason
        }
    }
}

package enum BoundedInput {
    /// Reads the file at `path` (a regular file, a pipe, a device) up to `limit` bytes;
    /// refuses more rather than reading on. Memory used: at most `limit` plus one chunk.
    package static func read(path: String, limit: Int) throws(BoundedInputError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw errno == ENOENT ? .missing : errno == EISDIR ? .notAFile : .unreadable(reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { throw .notAFile }
        return try read(fd: fd, limit: limit)
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
