// The version of PushSim that made a result, the commit it was built from and the toolchain,
// recorded beside the result and printed by `pushsim --version`; partial results of another
// version do not merge (CHANGELOG.md lists what each version changed; docs/research.md, Citing).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package enum PushSimVersion {
    /// Semantic version. The rule (docs/research.md, "Which version made a result"): a change
    /// that moves any committed result, or a field of one, bumps it, and CHANGELOG.md has a
    /// section for it; the major number moves with the scenario format's version
    /// (docs/scenarios.md), the minor with results that move or user-visible additions, the
    /// patch with fixes that move no result.
    package static let current = "2.5.0"

    /// The commit of the checkout this build's sources belong to: 40 (or 64) hex digits, read from
    /// the package's `.git` (a clone, a worktree, packed refs or a detached HEAD) without running
    /// git, or `unknown` when the sources are not in a git checkout (an archive, a copied binary).
    package static let commit: String = GitCheckout(root: packageRoot).head ?? "unknown"

    /// The Swift toolchain that compiled this build, as `#if compiler` knows it.
    package static let toolchain: String = {
        #if compiler(>=7.0)
        let swift = "7.0 or later"
        #elseif compiler(>=6.4)
        let swift = "6.4"
        #elseif compiler(>=6.3)
        let swift = "6.3"
        #elseif compiler(>=6.2)
        let swift = "6.2"
        #elseif compiler(>=6.1)
        let swift = "6.1"
        #else
        let swift = "6.0"
        #endif
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        return "Swift \(swift), \(operatingSystem) \(architecture), \(build) build"
    }()

    /// The operating system this build is for, as `#if os` knows it.
    package static let operatingSystem: String = {
        #if os(Linux)
        return "Linux"
        #elseif os(macOS)
        return "macOS"
        #else
        return "another OS"
        #endif
    }()

    /// The architecture this build is for, as `#if arch` knows it.
    package static let architecture: String = {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "arm64"
        #else
        return "another architecture"
        #endif
    }()

    /// What `pushsim --version` prints: the version, the commit and the toolchain, one a line.
    package static var description: String {
        "pushsim \(current)\ncommit \(commit)\n\(toolchain)\n"
    }

    /// The package's top folder: this file is Sources/PushSimReport/Documents/PushSimVersion.swift.
    static var packageRoot: String {
        var path = #filePath
        for _ in 0..<4 {
            guard let slash = path.lastIndex(of: "/") else { return "." }
            path = String(path[..<slash])
        }
        return path.isEmpty ? "/" : path
    }
}

/// The commit HEAD names in a git checkout, read from its files.
struct GitCheckout {
    var root: String

    var head: String? {
        guard let gitDir = gitDirectory, let head = Self.read(gitDir + "/HEAD")?.trimmed else { return nil }
        guard head.hasPrefix("ref: ") else { return Self.isObjectName(head) ? head : nil }
        let ref = String(head.dropFirst(5))
        guard !ref.contains(".."), ref.hasPrefix("refs/") else { return nil }
        let common = commonDirectory(gitDir)
        for folder in [gitDir, common] {
            if let name = Self.read(folder + "/" + ref)?.trimmed, Self.isObjectName(name) { return name }
        }
        for line in (Self.read(common + "/packed-refs") ?? "").split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[1] == ref, Self.isObjectName(String(parts[0])) { return String(parts[0]) }
        }
        return nil
    }

    /// `.git` as a folder (a clone), or as a file naming the folder (`gitdir: …`, a worktree).
    var gitDirectory: String? {
        let dotGit = root + "/.git"
        if Self.read(dotGit + "/HEAD") != nil { return dotGit }
        guard let text = Self.read(dotGit)?.trimmed, text.hasPrefix("gitdir: ") else { return nil }
        return Self.resolve(String(text.dropFirst(8)), from: root)
    }

    /// Where the shared refs live: a worktree's `commondir`, else the git folder itself.
    func commonDirectory(_ gitDir: String) -> String {
        guard let common = Self.read(gitDir + "/commondir")?.trimmed, !common.isEmpty else { return gitDir }
        return Self.resolve(common, from: gitDir)
    }

    static func resolve(_ path: String, from base: String) -> String { path.hasPrefix("/") ? path : base + "/" + path }

    static func isObjectName(_ text: String) -> Bool {
        (text.utf8.count == 40 || text.utf8.count == 64)
            && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A small file's text, or nil when it cannot be read (absent, a folder, larger than 1 MiB).
    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= 1 << 20 {
            let n = fread(&buffer, 1, buffer.count, file)
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        guard ferror(file) == 0, bytes.count <= 1 << 20 else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private extension String {
    var trimmed: String {
        var s = Substring(self)
        while let c = s.last, c == "\n" || c == "\r" || c == " " { s = s.dropLast() }
        while let c = s.first, c == " " { s = s.dropFirst() }
        return String(s)
    }
}
