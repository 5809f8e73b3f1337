// What stands where a result file is to go, and whether PushSim may put a new file there.
import Foundation
import PushSimScenarioFile

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every result file reaches its place by renaming a complete temporary file over the path,
/// which replaces whatever the path named. That is right for an earlier result (a regular
/// file) and wrong for anything else: renaming over `/dev/null`, a FIFO another program reads,
/// a socket or a device node would remove it and leave a plain file in its place. So a path
/// that names (through symbolic links) anything but a regular file is refused, before any work
/// and again under the writer's lock; nothing is ever written through such a node either,
/// since a results write must be whole or not at all, which a pipe or a device cannot promise.
enum OutputTarget {
    /// Why a result file cannot be written at `path`, or nil when nothing is there or a
    /// regular file is (the case of an earlier result, which is replaced).
    static func problem(at path: String) -> String? {
        var info = stat()
        // A dangling link or nothing at all: the new file simply takes the name.
        guard stat(path, &info) == 0 else { return nil }
        guard let kind = kind(of: info.st_mode) else {
            if let input = InputFiles.shared.input(replacedBy: path) {
                return "it is \(input.role) this command reads ('\(input.path)'), which the result would replace; give another path"
            }
            return nil
        }
        if kind == "a folder" { return "it is a folder, not a file" }
        return "it is \(kind), not a regular file (a result file is replaced whole, which would remove it); give the path of a file"
    }

    /// How a message names what a non-regular file is; nil for a regular file.
    static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }

    /// Whether an entry of a results folder is a FIFO, socket or device node: such a folder is
    /// updated file by file, so the node is never copied, dropped or replaced.
    static func isSpecial(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR, S_IFLNK: return false
        default: return true
        }
    }

    /// Refuses writing the files `names` into `folder` if one of them would replace something
    /// that is not a regular file (`given` is the folder as the user wrote it).
    static func check(_ names: [String], in folder: String, given: String) throws {
        for name in names {
            if let problem = problem(at: FilePath.join(folder, name)) {
                throw ResultsWriteError(description: "cannot write '\(FilePath.join(given, name))': \(problem)")
            }
        }
    }

    /// Refuses a write into `folder` that would replace or remove (as a stale result of the
    /// family `names`) a file this command reads as an input (``InputFiles``): a mail trace
    /// named `xiva-queue.csv` in its own `--out`, a part named `summary.json`.
    static func checkInputs(_ names: Set<String>, in folder: String, given: String) throws {
        for name in names.sorted() {
            if let input = InputFiles.shared.input(replacedBy: FilePath.join(folder, name)) {
                throw ResultsWriteError(description: "cannot write results to '\(given)': '\(FilePath.join(given, name))' is \(input.role) this command reads ('\(input.path)'), which the results would replace; choose another folder for the results")
            }
        }
    }
}
