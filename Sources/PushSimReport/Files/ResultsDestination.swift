// Where a set of results goes: the --out path resolved and checked before any work.
import Foundation
import PushSimScenarioFile

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A results folder, checked: every problem the write could meet on the path itself (empty,
/// too long, a part too long, a file in the way, a dangling or looping symbolic link, no
/// permission) is found here, before a run starts, and named.
struct ResultsDestination {
    /// How the set is replaced. `swap`: written whole into a sibling folder, then exchanged
    /// with the old one (one rename). `inPlace`, where a sibling cannot be swapped in (the
    /// folder is the current directory or holds it, is a mount point or `/`, or its parent is
    /// not writable): file by file, each atomic, under the same lock.
    enum Mode: Equatable { case swap, inPlace }

    /// The path as the user gave it (for messages).
    var given: String
    /// The folder to write: the real path when it exists (symbolic links resolved), else the
    /// given path, normalized.
    var target: String
    /// The folder that holds `target`, and `target`'s own name in it.
    var parent: String
    var name: String
    var exists: Bool
    var mode: Mode
    /// Folders that do not exist yet, from `target`'s parent upwards: created by the write.
    var missingParents: [String]

    static let pathMax = Int(PATH_MAX) - 1
    static let nameMax = Int(NAME_MAX)

    static func error(_ given: String, _ why: String) -> ResultsWriteError {
        ResultsWriteError(description: "cannot write results to '\(given)': \(why)")
    }

    /// Resolves and checks `directory`. With `createParents` false, only the folder itself may be missing.
    static func resolve(_ directory: String, createParents: Bool = true) throws -> ResultsDestination {
        guard !directory.isEmpty else { throw error(directory, "the path is empty; give a folder, such as --out results/NAME") }
        let bytes = directory.utf8.count
        guard bytes <= pathMax else {
            throw error(String(directory.prefix(60)) + "…", "the path is \(bytes) bytes, longer than the system allows (\(pathMax))")
        }
        let path = FilePath.normalized(directory)
        for part in path.split(separator: "/") where part.utf8.count > nameMax {
            throw error(directory, "the part '\(part.prefix(40))…' is \(part.utf8.count) bytes, longer than a file name can be (\(nameMax))")
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFLNK {
                if stat(path, &info) != 0 {
                    let target = linkTarget(path)
                    throw errno == ELOOP
                        ? error(directory, "it is a symbolic link in a loop ('\(path)' → '\(target)' → …); remove the link or choose another --out")
                        : error(directory, "it is a symbolic link to '\(target)', which does not exist; create that folder, remove the link, or choose another --out")
                }
            }
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                let kind = (info.st_mode & S_IFMT) == S_IFREG ? "a file" : OutputTarget.kind(of: info.st_mode) ?? "a file"
                throw error(directory, "it is \(kind), not a folder; choose another --out")
            }
            guard let real = realPath(path) else { throw error(directory, "its real path cannot be found (\(String(cString: strerror(errno))))") }
            var destination = ResultsDestination(given: directory, target: real, parent: FilePath.parent(of: real),
                                                 name: FilePath.lastComponent(of: real), exists: true, mode: .swap, missingParents: [])
            destination.mode = try destination.chooseMode()
            return destination
        }
        switch errno {
        case ENOENT: break
        case ELOOP: throw error(directory, "a symbolic link on the way loops; fix the link or choose another --out")
        case ENOTDIR: throw error(directory, "'\(firstFileOnTheWay(path))' is a file, not a folder")
        case EACCES: throw error(directory, "a folder on the way cannot be entered (\(String(cString: strerror(EACCES))))")
        default: throw error(directory, String(cString: strerror(errno)))
        }
        // Missing: every ancestor up to the nearest existing one will be created; that one
        // must be a folder (through links) that accepts new entries.
        var missing: [String] = []
        var ancestor = FilePath.parent(of: path)
        while lstat(ancestor, &info) != 0 {
            guard errno == ENOENT else { throw error(directory, "'\(ancestor)': \(String(cString: strerror(errno)))") }
            missing.append(ancestor)
            let up = FilePath.parent(of: ancestor)
            if up == ancestor { break }
            ancestor = up
        }
        if (info.st_mode & S_IFMT) == S_IFLNK && stat(ancestor, &info) != 0 {
            throw errno == ELOOP ? error(directory, "'\(ancestor)' is a symbolic link in a loop")
                : error(directory, "'\(ancestor)' is a symbolic link to '\(linkTarget(ancestor))', which does not exist")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw error(directory, "'\(ancestor)' is a file, not a folder") }
        if !createParents && !missing.isEmpty {
            throw error(directory, "the folder '\(FilePath.parent(of: directory))' does not exist; create it first or choose another --out")
        }
        try probe(ancestor, for: directory)
        return ResultsDestination(given: directory, target: path, parent: FilePath.parent(of: path),
                                  name: FilePath.lastComponent(of: path), exists: false, mode: .swap, missingParents: missing)
    }

    /// The most entries a folder may hold to be replaced whole: a results folder holds a
    /// dozen (a run's summary, a sweep's tables and charts). A fuller one is not a results
    /// folder (`--out ~`, `--out /tmp`) and is never re-created: it is updated file by file.
    static let maxSwappedEntries = 64

    /// Swap when the folder looks like a results folder (ours, no subfolders, few entries), the
    /// parent takes a sibling and the folder can be renamed; else in place.
    func chooseMode() throws -> Mode {
        let cwd = ResultsDestination.realPath(".") ?? ""
        var here = stat(), above = stat()
        let cannotRename = target == "/" || cwd == target || cwd.hasPrefix(target + "/")
            || stat(target, &here) != 0 || stat(parent, &above) != 0 || here.st_dev != above.st_dev
            || here.st_uid != geteuid()
        let entries = FileTree.names(in: target) ?? []
        // A FIFO, socket or device node could not be carried into a new folder (a hard link
        // to one that is not ours is refused): such a folder is updated file by file instead.
        let looksLikeResults = entries.count <= ResultsDestination.maxSwappedEntries
            && !entries.contains { FileTree.kind(FilePath.join(target, $0)) == .folder || OutputTarget.isSpecial(FilePath.join(target, $0)) }
        if !cannotRename, looksLikeResults, (try? ResultsDestination.probe(parent, for: given)) != nil { return .swap }
        try ResultsDestination.probe(target, for: given)
        return .inPlace
    }

    /// Permissions alone do not tell (root, read-only file systems, quotas): try a file.
    static func probe(_ folder: String, for given: String) throws {
        let probe = FilePath.join(folder, ".pushsim-probe.\(TemporaryFiles.shared.uniqueTag()).tmp")
        TemporaryFiles.shared.remember(probe)
        defer { unlink(probe); TemporaryFiles.shared.forget(probe) }
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw error(given, "'\(folder)' is not writable (\(String(cString: strerror(errno))))") }
        close(fd)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func linkTarget(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return "?" }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first part of `path` that exists and is not a folder.
    static func firstFileOnTheWay(_ path: String) -> String {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix = prefix.isEmpty ? String(part) : FilePath.join(prefix, String(part))
            var info = stat()
            if stat(prefix, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR { return prefix }
        }
        return path
    }
}
