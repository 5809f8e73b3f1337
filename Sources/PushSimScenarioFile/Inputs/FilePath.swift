// Path arithmetic on plain strings, without Foundation's NSString path methods.
//
// Why: on Linux, `NSString.deletingLastPathComponent` traps (SIGILL) on some short relative
// paths (`r`, `o/deep`: a first component of one character), which made `--out r` crash.
// Results only need three operations, and each is a few lines of string work we can test.

/// Path operations on `/`-separated strings. No symlink or `..` resolution: the file system
/// decides what a path means; these only take it apart and put it together.
package enum FilePath {
    /// The path without repeated or trailing slashes (`a//b/` → `a/b`); `/` stays `/`, and an
    /// empty path stays empty.
    package static func normalized(_ path: String) -> String {
        guard !path.isEmpty else { return path }
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : joined
    }

    /// The folder that holds `path`: `a/b` → `a`, `r` → `.`, `/a` → `/`, `/` → `/`, `` → `.`.
    package static func parent(of path: String) -> String {
        let clean = normalized(path)
        if clean.isEmpty { return "." }
        if clean == "/" { return "/" }
        guard let slash = clean.lastIndex(of: "/") else { return "." }
        if slash == clean.startIndex { return "/" }
        return String(clean[..<slash])
    }

    /// The last component: `a/b` → `b`, `a/b/` → `b`, `/` → `/`, `` → ``.
    package static func lastComponent(of path: String) -> String {
        let clean = normalized(path)
        if clean == "/" || clean.isEmpty { return clean }
        guard let slash = clean.lastIndex(of: "/") else { return clean }
        return String(clean[clean.index(after: slash)...])
    }

    /// `folder/name`, with one slash between them; an empty folder gives `name`.
    package static func join(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
