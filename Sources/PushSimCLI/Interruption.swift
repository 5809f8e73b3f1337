// Ctrl-C and SIGTERM: stop at once, remove temporary files, leave earlier results alone, say what was not finished.
import Foundation
import PushSimReport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT and SIGTERM into a clean stop: exit status 130 (SIGINT) or 143 (SIGTERM),
/// every registered temporary file removed, and a line on standard error naming what was not
/// finished.
///
/// How: the signal handler itself only writes the signal number to a pipe (`write` is
/// async-signal-safe; locks, allocation and Swift runtime calls are not). A dedicated thread
/// waits on the pipe and does the real work outside signal context: it takes the results
/// writer's lock (so a write being committed finishes whole, and no new one starts), removes
/// the temporary files, prints the message and ends the process with `_exit`. The simulation
/// needs no cancellation checks: the process stops within milliseconds wherever it is, and
/// since results reach their folder only by renaming complete files, nothing half written can
/// be left behind.
package final class Interruption: @unchecked Sendable {
    package static let shared = Interruption()

    private let lock = NSLock()
    private var installed = false
    private var task = ""
    private var total = 0
    private var done = 0
    private var unit = ""
    private var phase = ""
    private var consequence = ""
    /// Whether the task under way can stop early with what it has (`optimize`): then the first
    /// SIGINT only asks it to (``stopRequested``), and a second one stops at once.
    private var stopsEarly = false
    private var earlyStopAsked = false

    /// The common start of a command that writes a results folder: checks the destination
    /// (creating missing parents, and that none of `names` there is a FIFO, device or the like)
    /// unless nothing is written, installs the handlers, and announces the task, so an
    /// interruption can say what was not finished. Pair with `end()`.
    package func beginWriting(_ task: String, total: Int, unit: String, directory: String, writes: Bool,
                              names: Set<String>, family: Set<String> = [],
                              files: [(path: String, option: String)] = []) throws {
        try ResultsWriter.checkOutputs(folder: writes ? directory : nil, names: names, family: family, files: files)
        install()
        begin(task, total: total, unit: unit,
              consequence: writes ? "no results were written; '\(directory)' is as it was" : "nothing was written")
    }

    /// Installs the handlers (once per process; later calls do nothing).
    package func install() {
        lock.lock(); defer { lock.unlock() }
        guard !installed else { return }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        // Never 0, 1 or 2, even if a standard stream was closed and not occupied
        // (StandardStreams): the pipe must not be read as input or written as output.
        fds = fds.map(Interruption.aboveStandardStreams)
        interruptionPipe = fds[1]
        installed = true
        let reader = fds[0]
        let thread = Thread { [self] in
            var signalNumber: Int32 = 0
            while true {
                let n = read(reader, &signalNumber, MemoryLayout<Int32>.size)
                if n < 0 && errno == EINTR { continue }
                guard n == MemoryLayout<Int32>.size else { return }
                if signalNumber == SIGINT && askEarlyStop() { continue }
                stop(signal: signalNumber)
            }
        }
        thread.name = "pushsim-interruption"
        thread.start()
        _ = signal(SIGINT, interruptionHandler)
        _ = signal(SIGTERM, interruptionHandler)
        // A parent may have started us with these signals blocked (a process spawned from a
        // dispatch worker thread inherits its full mask): unblock them on this thread, which
        // every thread it creates later inherits.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// `fd` moved to a descriptor above 2 (closed on exec), or `fd` itself when it is already.
    private static func aboveStandardStreams(_ fd: Int32) -> Int32 {
        guard fd <= STDERR_FILENO else { return fd }
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1)
        guard moved >= 0 else { return fd }
        close(fd)
        return moved
    }

    /// Starts describing a task for the message: `the run of 'x'`, `total` units of `unit`.
    /// `consequence` says what an interruption leaves (`no results were written; … unchanged`).
    package func begin(_ task: String, total: Int, unit: String, consequence: String) {
        lock.lock(); defer { lock.unlock() }
        self.task = task; self.total = total; self.done = 0; self.unit = unit
        self.phase = ""; self.consequence = consequence
    }

    /// The task under way may stop early with what it has: the first Ctrl-C sets
    /// ``stopRequested`` (the task checks it between steps, then finishes its output and exits
    /// 130), a second Ctrl-C or a SIGTERM stops at once as for any task. Until `end()`.
    package func allowEarlyStop() {
        lock.lock(); defer { lock.unlock() }
        stopsEarly = true; earlyStopAsked = false
    }

    /// Whether Ctrl-C asked the task to stop with what it has (``allowEarlyStop()``).
    package var stopRequested: Bool {
        lock.lock(); defer { lock.unlock() }
        return earlyStopAsked
    }

    /// Turns a first SIGINT into a request when the task allows it; false when it must stop now.
    private func askEarlyStop() -> Bool {
        lock.lock()
        guard stopsEarly && !earlyStopAsked else { lock.unlock(); return false }
        earlyStopAsked = true
        lock.unlock()
        let text = Array("pushsim: stopping after the current run with what is done (Ctrl-C again to stop at once)\n".utf8)
        text.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress { _ = write(STDERR_FILENO, base, buffer.count) }
        }
        return true
    }

    /// Counts finished units (called from any thread).
    package func advance(by count: Int) {
        lock.lock(); done &+= count; lock.unlock()
    }

    /// Names the step under way now (`writing the results`) and what stopping now leaves.
    package func update(phase: String, consequence: String) {
        lock.lock(); defer { lock.unlock() }
        self.phase = phase; self.consequence = consequence
    }

    /// The task is over: nothing is left unfinished. If a signal arrived while it ran (its
    /// stop waiting for a write to finish), the command must not end normally and race the stop
    /// to the exit: wait here for the stop to end the process with 130 or 143.
    package func end() {
        // A SIGINT the task was allowed to answer by stopping early does not end the process:
        // wait only until the interruption thread has decided which it was.
        while signalReceived != 0 && !stopRequested { usleep(10_000) }
        lock.lock(); defer { lock.unlock() }
        task = ""
        stopsEarly = false
    }

    /// The line printed when interrupted.
    package func message(signal: Int32) -> String {
        lock.lock(); defer { lock.unlock() }
        let name = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)"
        guard !task.isEmpty else { return "pushsim: interrupted (\(name))\n" }
        var text = "pushsim: interrupted (\(name)): \(task) was not finished"
        if !phase.isEmpty {
            text += " (\(phase))"
        } else if total > 0 {
            text += " (\(min(done, total)) of \(total) \(unit) done)"
        }
        if !consequence.isEmpty { text += "; \(consequence)" }
        // Written straight to the descriptor, not through Console: made inert here.
        return TerminalText.sanitized(text + "\n")
    }

    /// The exit status for a signal: 128 + its number (130 for SIGINT, 143 for SIGTERM).
    package static func exitStatus(signal: Int32) -> Int32 { ExitStatus.signal(signal) }

    private func stop(signal: Int32) -> Never {
        // Waits for a results commit under way, removes what is left, and keeps further writes out.
        TemporaryFiles.shared.removeAll(keepingWritesOut: true)
        Interruption.writeToStandardError(message(signal: signal))
        _exit(Interruption.exitStatus(signal: signal))
    }

    /// Writes `text` straight to the descriptor of standard error (no buffering: the process
    /// ends right after), the whole of it unless the descriptor refuses.
    static func writeToStandardError(_ text: String) {
        Array(text.utf8).withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = write(STDERR_FILENO, base + offset, buffer.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
}

/// The write end of the pipe the signal handler writes to (set once, before the handler is installed).
nonisolated(unsafe) private var interruptionPipe: Int32 = -1

/// Set by the signal handler (a plain store of a word: safe in a handler), read by `end()`.
nonisolated(unsafe) private var signalReceived: Int32 = 0

/// The signal handler: async-signal-safe, it only notes the signal and writes its number to the pipe.
private func interruptionHandler(_ signalNumber: Int32) {
    signalReceived = signalNumber
    var number = signalNumber
    let savedErrno = errno
    _ = write(interruptionPipe, &number, MemoryLayout<Int32>.size)
    errno = savedErrno
}
