// Writes a set of result files as one unit: a new folder beside the old one, swapped in by one rename, under a lock.
import Foundation
import PushSimScenarioFile

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why results could not be written (exit status 2; nothing half written).
package struct ResultsWriteError: Error, CustomStringConvertible {
    package var description: String
    package init(description: String) { self.description = description }
}

/// The steps of a results write, in order, for the test hook ``ResultsWriter/stepHook``.
package enum ResultsWriteStep: String, Sendable, CaseIterable {
    /// The new folder exists beside the old one, still empty.
    case staged
    /// Every new file is written and flushed in the new folder.
    case filesWritten = "files-written"
    /// The old folder's other files are linked into the new one.
    case carried
    /// Only where two directories cannot be exchanged in one rename: the old folder is parked
    /// under a temporary name and the new one is not yet in its place.
    case betweenRenames = "between-renames"
    /// The new set is in place; the old one is being removed.
    case swapped
}

package enum ResultsWriter {
    /// Asked before every write: a reason not to write anything (the user's client of the
    /// command broke a rule of its protocol, docs/client.md), or nil.
    package static func refusal() -> String? {
        let clients = (ScenarioLoader.userClient.map { [$0] } ?? []) + ScenarioLoader.namedClients
        return clients.lazy.compactMap { $0.rules.refusal(client: $0.label) }.first
    }

    /// Called at each step of a write; a test makes it throw (a failure) or kill the process.
    nonisolated(unsafe) package static var stepHook: ((ResultsWriteStep) throws -> Void)?
    /// Whether to exchange folders with one `renameat2(RENAME_EXCHANGE)`; tests turn it off to
    /// exercise the two-rename path that file systems without it take.
    nonisolated(unsafe) package static var exchangeFolders = true

    /// Checks, before any work, that results can be written to `directory` (see
    /// ``ResultsDestination``). With `createParents` false (an explicit `--out`), the folder's
    /// parent must already exist. `names`, the files the write will put there, must not name
    /// anything but regular files (``OutputTarget``). Nothing is left behind by the check.
    /// Nor may `names` or `family` (the stale results the write removes) name an input.
    package static func checkDestination(_ directory: String, createParents: Bool, names: Set<String> = [],
                                         family: Set<String> = []) throws {
        let destination = try ResultsDestination.resolve(directory, createParents: createParents)
        if destination.exists {
            try OutputTarget.checkInputs(names.union(family), in: destination.target, given: directory)
            try OutputTarget.check(names.sorted(), in: destination.target, given: directory)
        }
    }

    /// Checks, before any work, that a single file can be written at `path` (``writeFile(_:to:)``):
    /// its folder passes ``checkDestination(_:createParents:names:)`` and the path names nothing
    /// but a regular file (not a folder, a FIFO, a socket or a device: ``OutputTarget``).
    package static func checkFileDestination(_ path: String) throws {
        let name = try fileName(of: path)
        guard name.utf8.count <= ResultsDestination.nameMax else {
            throw ResultsWriteError(description: "cannot write '\(path)': the name is \(name.utf8.count) bytes, longer than a file name can be (\(ResultsDestination.nameMax))")
        }
        // What the path names first: `/dev/null` is refused as a device, whether or not `/dev` is writable.
        if let problem = OutputTarget.problem(at: path) {
            throw ResultsWriteError(description: "cannot write '\(path)': \(problem)")
        }
        let folder = FilePath.parent(of: path)
        do {
            try checkDestination(folder, createParents: true)
        } catch let error as ResultsWriteError {
            // The folder's problem, told of the file the user named (not of a results folder or `--out`).
            let prefix = "cannot write results to '\(folder)': "
            guard error.description.hasPrefix(prefix) else { throw error }
            var why = String(error.description.dropFirst(prefix.count))
            if why.hasPrefix("it is ") { why = "'\(folder)' is " + why.dropFirst("it is ".count) }
            why = why.replacingOccurrences(of: "; choose another --out", with: "; give another path")
                .replacingOccurrences(of: " or choose another --out", with: " or give another path")
            throw ResultsWriteError(description: "cannot write '\(path)': \(why)")
        }
    }

    /// Checks, before any work, every place a command writes: the results folder `folder` (nil
    /// when none is written) with its files `names` and the stale results `family` it removes,
    /// and the single files `files`, each with the option that names it. Besides what each
    /// check alone refuses, no file may be the results folder, hold it, or be one of the
    /// results' files (the results would be written over the file, or the file over them),
    /// and no two files may be one.
    package static func checkOutputs(folder: String?, names: Set<String> = [], family: Set<String> = [],
                                     files: [(path: String, option: String)]) throws {
        if let folder { try checkDestination(folder, createParents: true, names: names, family: family) }
        var seen: [(place: String, path: String, option: String)] = []
        let results = folder.map { (place: physical($0), given: $0) }
        for file in files {
            try checkFileDestination(file.path)
            let place = FilePath.join(physical(FilePath.parent(of: file.path)), FilePath.lastComponent(of: file.path))
            if let results {
                if place == results.place || results.place.hasPrefix(place + "/") {
                    throw ResultsWriteError(description: "cannot write '\(file.path)' (\(file.option)): it is \(place == results.place ? "" : "a folder holding ")the results folder '\(results.given)' this command writes; give a path outside it")
                }
                let name = FilePath.lastComponent(of: place)
                if FilePath.parent(of: place) == results.place && names.union(family).contains(name) {
                    throw ResultsWriteError(description: "cannot write '\(file.path)' (\(file.option)): it is the results' '\(name)' in '\(results.given)', which this command writes; give another path")
                }
            }
            if let other = seen.first(where: { $0.place == place }) {
                throw ResultsWriteError(description: "cannot write '\(file.path)' (\(file.option)): it is the file '\(other.path)' (\(other.option)) also writes; give two paths")
            }
            seen.append((place, file.path, file.option))
        }
    }

    /// Where `path` is on disk: the real path of its deepest existing ancestor (symbolic links
    /// resolved), then the rest as written; two paths of one place compare equal.
    static func physical(_ path: String) -> String {
        var rest: [String] = []
        var current = FilePath.normalized(path.isEmpty ? "." : path)
        while true {
            if let real = ResultsDestination.realPath(current) {
                return rest.reversed().reduce(real) { FilePath.join($0, $1) }
            }
            let up = FilePath.parent(of: current)
            guard up != current else { return FilePath.normalized(path) }
            rest.append(FilePath.lastComponent(of: current))
            current = up
        }
    }

    /// The file name `path` ends with; refuses a path that cannot name a file (empty, `.`,
    /// `..`, `/`, or ending with `/`, which names a folder even before it exists).
    private static func fileName(of path: String) throws -> String {
        let name = FilePath.lastComponent(of: path)
        guard !path.isEmpty, !name.isEmpty, name != ".", name != "..", name != "/" else {
            throw ResultsWriteError(description: "cannot write '\(path)': expected the path of a file")
        }
        guard !path.hasSuffix("/") else {
            throw ResultsWriteError(description: "cannot write '\(path)': a path ending with '/' names a folder; expected the path of a file")
        }
        return name
    }

    /// Writes `files` into `directory` as one unit, replacing the files named in `family` (and
    /// those of `files`) and keeping every other entry of the folder.
    ///
    /// The new set is written whole into a fresh folder beside `directory`, flushed, joined by
    /// hard links to the entries it keeps, then exchanged with the old folder in one rename; the
    /// old one is removed. A reader, a crash or a kill at any point sees the old set or the new
    /// one, never a mix (on file systems that cannot exchange folders, a crash between the two
    /// renames leaves the new set parked, and the next write puts it in place). Writers of one
    /// folder take turns (an exclusive `flock` on its parent), so concurrent runs into one `--out`
    /// never mix. Leftovers of writers that died are cleaned first (``ResultsOrphans``). On a
    /// failure nothing changes and whatever this write created is removed. An interruption
    /// waits for a write under way (``TemporaryFiles/removeAll(keepingWritesOut:)``).
    package static func write(_ files: [(name: String, contents: String)], to directory: String,
                             replacing family: Set<String> = []) throws {
        if let why = refusal() { throw ResultsWriteError(description: why) }
        for file in files where file.name.isEmpty || file.name == "." || file.name == ".." || file.name.contains("/") {
            throw ResultsWriteError(description: "cannot write '\(FilePath.join(directory, file.name))': a result file's name must be one file name")
        }
        try TemporaryFiles.shared.writing {
            let destination = try ResultsDestination.resolve(directory)
            let created = try createParents(destination)
            do {
                try locked(destination.parent) {
                    ResultsOrphans.clean(name: destination.name, parent: destination.parent, folder: destination.target)
                    let again = try ResultsDestination.resolve(directory)   // as it is now, under the lock
                    if again.exists {
                        try OutputTarget.checkInputs(family.union(files.map(\.name)), in: again.target, given: directory)
                        try OutputTarget.check(files.map(\.name), in: again.target, given: directory)
                    }
                    switch again.mode {
                    case .swap: try swap(files, into: again, replacing: family.union(files.map(\.name)))
                    case .inPlace: try inPlace(files, into: again, replacing: family.union(files.map(\.name)))
                    }
                }
            } catch {
                for folder in created { rmdir(folder) }
                throw error
            }
        }
    }

    /// Writes one file atomically (a temporary file in the same folder, flushed, renamed over
    /// the old one), under the same lock and orphan cleaning as a set.
    package static func writeFile(_ contents: String, to path: String) throws {
        if let why = refusal() { throw ResultsWriteError(description: why) }
        let name = try fileName(of: path)
        try write(single: contents, name: name, folder: FilePath.parent(of: path), given: path)
    }

    private static func write(single contents: String, name: String, folder: String, given: String) throws {
        try TemporaryFiles.shared.writing {
            let destination = try ResultsDestination.resolve(folder)
            let created = try createParents(destination)
            var madeFolder = false
            do {
                // The lock a set write into this folder takes too: the two never interleave.
                try locked(destination.parent) {
                    if FileTree.kind(destination.target) == .missing {
                        guard mkdir(destination.target, 0o777) == 0 else {
                            throw ResultsWriteError(description: "cannot create the folder '\(folder)': \(String(cString: strerror(errno)))")
                        }
                        madeFolder = true
                    }
                    ResultsOrphans.clean(name: name, parent: destination.target, folder: FilePath.join(destination.target, name))
                    // Checked before the run too; again here, as the path is now.
                    if let problem = OutputTarget.problem(at: FilePath.join(destination.target, name)) {
                        throw ResultsWriteError(description: "cannot write '\(given)': \(problem)")
                    }
                    try commitFiles([(name, contents)], into: destination.target, given: folder)
                }
            } catch {
                if madeFolder { rmdir(destination.target) }
                for folder in created { rmdir(folder) }
                throw error
            }
        }
    }

    // MARK: The two ways of replacing a set

    private static func swap(_ files: [(name: String, contents: String)], into destination: ResultsDestination,
                             replacing family: Set<String>) throws {
        let tag = TemporaryFiles.shared.uniqueTag()
        let staging = FilePath.join(destination.parent, ResultsOrphans.sibling("new", of: destination.name, tag: tag))
        TemporaryFiles.shared.remember(staging)
        defer { FileTree.removeTree(staging); TemporaryFiles.shared.forget(staging) }
        var mode: mode_t = 0o777 & ~currentUmask()
        var info = stat()
        if destination.exists && stat(destination.target, &info) == 0 { mode = info.st_mode & 0o7777 }
        guard mkdir(staging, mode) == 0 else {
            throw ResultsWriteError(description: "cannot write results to '\(destination.given)': \(String(cString: strerror(errno))); the earlier results are unchanged")
        }
        try step(.staged)
        for file in files {
            if let problem = writeWhole(Array(file.contents.utf8), to: FilePath.join(staging, file.name)) {
                throw ResultsWriteError(description: "cannot write '\(FilePath.join(destination.given, file.name))': \(problem); the earlier results are unchanged")
            }
        }
        try step(.filesWritten)
        if destination.exists {
            // Kept: everything but the new files and the family's regular files (stale results
            // PushSim wrote); a link or anything else that happens to bear a family name stays.
            let newNames = Set(files.map(\.name))
            for entry in FileTree.names(in: destination.target) ?? [] where !newNames.contains(entry)
                && !(family.contains(entry) && FileTree.kind(FilePath.join(destination.target, entry)) == .file)
                && !ResultsOrphans.isOrphan(entry) {
                if let problem = FileTree.mirror(FilePath.join(destination.target, entry), to: FilePath.join(staging, entry)) {
                    throw ResultsWriteError(description: "cannot keep '\(entry)' of '\(destination.given)' in the new results: \(problem); the earlier results are unchanged")
                }
            }
        }
        try step(.carried)
        FileTree.syncFolder(staging)
        if !destination.exists {
            guard rename(staging, destination.target) == 0 else {
                throw ResultsWriteError(description: "cannot write results to '\(destination.given)': \(String(cString: strerror(errno))); nothing was written")
            }
        } else if !(exchangeFolders && exchange(staging, destination.target)) {
            // No atomic exchange here: park the old set, then move the new one in. A crash
            // between the two is finished by the next write (ResultsOrphans.clean).
            let parked = FilePath.join(destination.parent, ResultsOrphans.sibling("old", of: destination.name, tag: tag))
            guard rename(destination.target, parked) == 0 else {
                throw ResultsWriteError(description: "cannot replace the results in '\(destination.given)': \(String(cString: strerror(errno))); the earlier results are unchanged")
            }
            TemporaryFiles.shared.remember(parked)
            defer { FileTree.removeTree(parked); TemporaryFiles.shared.forget(parked) }
            try? step(.betweenRenames)
            guard rename(staging, destination.target) == 0 else {
                let reason = String(cString: strerror(errno))
                _ = rename(parked, destination.target)
                throw ResultsWriteError(description: "cannot replace the results in '\(destination.given)': \(reason); the earlier results are unchanged")
            }
        }
        // After an exchange the staging name holds the old set, removed by the deferred cleanup.
        FileTree.syncFolder(destination.parent)
        try? step(.swapped)
    }

    /// File by file, each atomic; the family's regular files that the new set lacks are removed
    /// last (never a link, a folder or a node bearing one of their names).
    private static func inPlace(_ files: [(name: String, contents: String)], into destination: ResultsDestination,
                                replacing family: Set<String>) throws {
        try commitFiles(files, into: destination.target, given: destination.given)
        let names = Set(files.map(\.name))
        for entry in FileTree.names(in: destination.target) ?? [] where family.contains(entry) && !names.contains(entry)
            && FileTree.kind(FilePath.join(destination.target, entry)) == .file {
            unlink(FilePath.join(destination.target, entry))
        }
    }

    /// Writes every file to a temporary name in `folder`, then renames them all into place.
    private static func commitFiles(_ files: [(name: String, contents: String)], into folder: String, given: String) throws {
        var temporaries: [(temporary: String, final: String)] = []
        defer { for t in temporaries { unlink(t.temporary); TemporaryFiles.shared.forget(t.temporary) } }
        for file in files {
            let temporary = FilePath.join(folder, ResultsOrphans.temporaryFile(for: file.name, tag: TemporaryFiles.shared.uniqueTag()))
            TemporaryFiles.shared.remember(temporary)
            temporaries.append((temporary, FilePath.join(folder, file.name)))
            if let problem = writeWhole(Array(file.contents.utf8), to: temporary) {
                throw ResultsWriteError(description: "cannot write '\(FilePath.join(given, file.name))': \(problem); the earlier results are unchanged")
            }
        }
        try step(.filesWritten)
        for (index, t) in temporaries.enumerated() where rename(t.temporary, t.final) != 0 {
            let done = temporaries[..<index].map(\.final)
            throw ResultsWriteError(description: "cannot write '\(t.final)': \(String(cString: strerror(errno)))"
                                    + (done.isEmpty ? "; the earlier results are unchanged" : "; already replaced: \(done.joined(separator: ", "))"))
        }
        FileTree.syncFolder(folder)
    }

    // MARK: Pieces

    private static func step(_ step: ResultsWriteStep) throws { try stepHook?(step) }

    /// Creates the missing parents of the destination, outermost first; returns them deepest first.
    private static func createParents(_ destination: ResultsDestination) throws -> [String] {
        var created: [String] = []
        for folder in destination.missingParents.reversed() {
            guard mkdir(folder, 0o777) == 0 || errno == EEXIST else {
                let reason = String(cString: strerror(errno))
                for made in created.reversed() { rmdir(made) }
                throw ResultsWriteError(description: "cannot create the results folder '\(destination.given)': \(reason)")
            }
            created.append(folder)
        }
        return created.reversed()
    }

    /// Runs `body` holding an exclusive lock on `folder` (released by the kernel if we die).
    private static func locked(_ folder: String, _ body: () throws -> Void) throws {
        let fd = open(folder, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ResultsWriteError(description: "cannot open '\(folder)' to lock it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { break }   // a file system without locks: go on unlocked
        }
        try body()
    }

    /// Exchanges two paths in one step (Linux `renameat2` with `RENAME_EXCHANGE`), looked up at
    /// run time since the C library may lack it; false when unavailable or refused.
    private static func exchange(_ a: String, _ b: String) -> Bool {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return false }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let exchangeFlag: UInt32 = 2   // RENAME_EXCHANGE
        return renameat2(AT_FDCWD, a, AT_FDCWD, b, exchangeFlag) == 0
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    /// Writes `bytes` to a new file at `path` and flushes it to disk; the reason on failure.
    static func writeWhole(_ bytes: [UInt8], to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "\(String(cString: strerror(errno))) (the folder is not writable)" }
        var problem: String?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = systemWrite(fd, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    problem = String(cString: strerror(errno)) + (errno == ENOSPC ? " (the disk is full)" : "")
                    return
                }
                if n == 0 { problem = "nothing could be written (the disk may be full)"; return }
                offset += n
            }
        }
        if problem == nil && fsync(fd) != 0 && errno != EINVAL {
            problem = String(cString: strerror(errno))
        }
        if close(fd) != 0 && problem == nil { problem = String(cString: strerror(errno)) }
        return problem
    }
}

/// `write(2)`, named apart from ``ResultsWriter/write(_:to:replacing:)``.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
