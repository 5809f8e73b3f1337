// Where commands write: standard output and error, or memory in tests.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The output of a command. The real one writes to the process's streams; tests capture.
///
/// Everything printed passes through ``TerminalText/sanitized(_:)``, so a name or path from an
/// untrusted file can never drive the terminal. Writes use `write(2)` directly: a failure (a
/// full disk behind `> file`, `/dev/full`, a closed pipe) is remembered, never a trap, and the
/// command ends with a message and a non-zero status (see ``PushSimTool/main(_:console:)``).
package final class Console: @unchecked Sendable {
    package private(set) var standardOutput = ""
    package private(set) var standardError = ""
    private let live: Bool
    private let lock = NSLock()
    /// Whether standard error is a terminal (progress lines are shown only then).
    package let errorIsTerminal: Bool
    /// Why writing to standard output failed, if it did (the first failure).
    package private(set) var outputFailure: String?

    /// A console that writes to the process's own streams.
    package static func process() -> Console {
        Console(live: true, errorIsTerminal: isatty(STDERR_FILENO) != 0)
    }

    /// A console that keeps everything in memory.
    package static func capturing() -> Console { Console(live: false, errorIsTerminal: false) }

    init(live: Bool, errorIsTerminal: Bool) {
        self.live = live
        self.errorIsTerminal = errorIsTerminal
    }

    package func out(_ text: String) {
        let safe = TerminalText.sanitized(text)
        lock.lock(); defer { lock.unlock() }
        guard live else { standardOutput += safe; return }
        // After one failure the rest would be a hole in the middle: write nothing more.
        guard outputFailure == nil else { return }
        outputFailure = Console.writeAll(safe, to: STDOUT_FILENO)
    }

    package func err(_ text: String) {
        let safe = TerminalText.sanitized(text)
        lock.lock(); defer { lock.unlock() }
        if live { _ = Console.writeAll(safe, to: STDERR_FILENO) } else { standardError += safe }
    }

    /// Records an output failure (tests use it to play a full disk).
    func failOutput(_ reason: String) {
        lock.lock(); defer { lock.unlock() }
        if outputFailure == nil { outputFailure = reason }
    }

    /// Writes all of `text`; the reason when it could not.
    static func writeAll(_ text: String, to fd: Int32) -> String? {
        var bytes = Array(text.utf8)
        var offset = 0
        return bytes.withUnsafeMutableBytes { buffer -> String? in
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = write(fd, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno)) + (errno == ENOSPC ? " (the disk is full)" : "")
                }
                if n == 0 { return "nothing could be written" }
                offset += n
            }
            return nil
        }
    }
}
