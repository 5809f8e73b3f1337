// Descriptors 0, 1 and 2 taken before anything else opens one, so a closed stream stays closed in effect.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process started with standard input, output or error closed (`<&-`, `>&-`, `2>&-`) gives
/// the next descriptor it opens that number: the signal pipe would become "standard input"
/// (`merge -` reading its own signals, blocked forever, SIGTERM swallowed), a result file
/// "standard error", and messages would land in them. ``occupy()`` runs first in `main` and
/// puts `/dev/null` on every closed one, opened the wrong way round (write-only as input,
/// read-only as output), so the stream still behaves as closed: reading standard input and
/// writing standard output fail with EBADF, which is reported like any other failed read or
/// write (exit status 2), and messages to a closed standard error are dropped.
package enum StandardStreams {
    /// The descriptors (of 0, 1, 2) that were closed when the process started.
    nonisolated(unsafe) package private(set) static var closedAtStart: Set<Int32> = []

    /// Occupies each closed standard descriptor. Call before anything opens a file or pipe.
    package static func occupy() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            closedAtStart.insert(fd)
            let opened = open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY)
            if opened >= 0 && opened != fd {
                dup2(opened, fd)
                close(opened)
            }
        }
    }

    /// Whether standard input was closed at start (`<&-`): `merge -` refuses it by name.
    package static var inputWasClosed: Bool { closedAtStart.contains(STDIN_FILENO) }
}
