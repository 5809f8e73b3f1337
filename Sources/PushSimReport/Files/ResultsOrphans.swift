// Leftovers of writers that died (kill -9, a power cut): recognised by their process id, finished or removed.
import Foundation
import PushSimCore
import PushSimScenarioFile

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary names the results writer uses, and the cleaning of those a dead process left.
///
/// Names: `.pushsim-H.new.PID.N` (a result set being written beside folder NAME),
/// `.pushsim-H.old.PID.N` (the set it replaced, between two renames), and temporary files
/// `.….PID.N.tmp`; H is the FNV-1a hash of NAME, so the names stay short whatever NAME is.
/// Only a process that no longer runs leaves them behind, so a PID that is not running marks
/// an orphan. Cleaning runs under the writer's lock, before each write.
enum ResultsOrphans {
    static func prefix(for name: String) -> String { ".pushsim-\(FNV1a.hex(name.utf8))." }

    /// The staging folder (`new`) or the parked old set (`old`) of a write of `name`.
    static func sibling(_ kind: String, of name: String, tag: String) -> String { prefix(for: name) + "\(kind).\(tag)" }

    /// A temporary file for `name` in its folder.
    static func temporaryFile(for name: String, tag: String) -> String { prefix(for: name) + "\(tag).tmp" }

    /// The process id in `PID.N` fields: the two numeric fields before an optional `.tmp`.
    static func pid(in entry: String) -> Int32? {
        var fields = entry.split(separator: ".", omittingEmptySubsequences: false)
        if fields.last == "tmp" { fields.removeLast() }
        guard fields.count >= 3, let pid = Int32(fields[fields.count - 2]), UInt64(fields[fields.count - 1]) != nil else { return nil }
        return pid
    }

    static func isOrphan(_ entry: String) -> Bool {
        guard entry.hasPrefix("."), let pid = pid(in: entry), pid != getpid() else { return false }
        return !FileTree.isAlive(pid)
    }

    /// Finishes or removes what dead writers of `name` left in `parent`, and dead temporary
    /// files in `parent` and in `folder`. A write that died between its two renames left the
    /// folder missing, its complete new set as `new` and the old one as `old`: the new set is
    /// put in place (it was complete before the first rename), as the write intended.
    static func clean(name: String, parent: String, folder: String) {
        let mine = prefix(for: name)
        let entries = FileTree.names(in: parent) ?? []
        let dead = entries.filter { $0.hasPrefix(mine) && !$0.hasSuffix(".tmp") && isOrphan($0) }
        if FileTree.kind(folder) == .missing {
            for old in dead where old.hasPrefix(mine + "old.") {
                let tag = old.dropFirst((mine + "old.").count)
                let new = mine + "new." + tag
                let source = dead.contains(new) ? new : old
                if rename(FilePath.join(parent, source), folder) == 0 { break }
            }
        }
        // The staging and parked sets are always folders: anything else bearing the name is not ours.
        for entry in dead where FileTree.kind(FilePath.join(parent, entry)) == .folder { FileTree.removeTree(FilePath.join(parent, entry)) }
        for place in [parent, folder] {
            for entry in FileTree.names(in: place) ?? [] where entry.hasSuffix(".tmp") && isOrphan(entry) {
                let path = FilePath.join(place, entry)
                if FileTree.kind(path) == .file { unlink(path) }
            }
        }
    }
}
