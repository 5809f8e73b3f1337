// Where commands write: standard output and error, or memory in tests.
import Foundation

/// The output of a command. The real one writes to the process's streams; tests capture.
public final class Console: @unchecked Sendable {
    public private(set) var standardOutput = ""
    public private(set) var standardError = ""
    private let live: Bool
    private let lock = NSLock()
    /// Whether standard error is a terminal (progress lines are shown only then).
    public let errorIsTerminal: Bool

    /// A console that writes to the process's own streams.
    public static func process() -> Console {
        Console(live: true, errorIsTerminal: isatty(STDERR_FILENO) != 0)
    }

    /// A console that keeps everything in memory.
    public static func capturing() -> Console { Console(live: false, errorIsTerminal: false) }

    init(live: Bool, errorIsTerminal: Bool) {
        self.live = live
        self.errorIsTerminal = errorIsTerminal
    }

    public func out(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        if live { FileHandle.standardOutput.write(Data(text.utf8)) } else { standardOutput += text }
    }

    public func err(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        if live { FileHandle.standardError.write(Data(text.utf8)) } else { standardError += text }
    }
}
