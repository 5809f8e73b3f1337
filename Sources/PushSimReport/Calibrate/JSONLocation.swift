// Where a member of a JSON document is written: line and column of a key or an array item, for errors that point into the file.

/// One step into a JSON document: an object's key or an array's index.
package enum JSONStep: Equatable, Sendable {
    case key(String)
    case index(Int)
}

extension JSONValue {
    /// The line and column (from 1) where the value at `path` is named in `text`: the key of an
    /// object member, or the first character of an array item. nil when `text` does not hold
    /// the path (it was read without error, so that does not happen for a path taken from it).
    /// The reader is the one `parse` uses, so positions count exactly as its errors do.
    package static func location(of path: [JSONStep], in text: String) -> (line: Int, column: Int)? {
        var reader = JSONTextReader(Array(text.utf8))
        reader.skipSpace()
        for (depth, step) in path.enumerated() {
            guard let found = try? reader.enter(step, depth: depth) else { return nil }
            if !found { return nil }
        }
        let error = reader.error("")
        return (error.line, error.column)
    }
}

extension JSONTextReader {
    /// Moves to the member `step` names inside the value at the reader: after it, the reader
    /// stands on that member's key (for a key) or on its value (for an index), and a next step
    /// enters the value. False when there is no such member.
    mutating func enter(_ step: JSONStep, depth: Int) throws -> Bool {
        // A key to step over first: the reader stands on the previous step's key.
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            _ = try string(); skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1; skipSpace()
        }
        guard index < bytes.count else { return false }
        let opening = bytes[index]
        switch step {
        case .key(let wanted):
            guard opening == UInt8(ascii: "{") else { return false }
            index += 1
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
                let keyStart = index
                let key = try string()
                if key == wanted { index = keyStart; return true }
                skipSpace(); index += 1; skipSpace()      // the ':'
                _ = try value(depth: depth + 1)
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
                index += 1
            }
        case .index(let wanted):
            guard opening == UInt8(ascii: "[") else { return false }
            index += 1
            var i = 0
            while true {
                skipSpace()
                if i == wanted { return index < bytes.count && bytes[index] != UInt8(ascii: "]") }
                _ = try value(depth: depth + 1)
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
                index += 1; i += 1
            }
        }
    }
}
