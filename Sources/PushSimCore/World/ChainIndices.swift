// The typed indices of the world's per-arm arrays: a copy, an extension run, a re-request, a letter.

/// An index into the world's array of `Element`s, 32 bits so that an event stays one word. The
/// element type makes an index into one array a compile error on another.
struct ChainIndex<Element>: TypedIndex, Equatable, Sendable {
    var raw: Int32
    init(_ raw: Int32) { self.raw = raw }
    @inline(__always) var offset: Int { Int(raw) }
}

/// A push copy in the world's `copies`.
typealias CopyIndex = ChainIndex<PushCopy>
/// An extension run in the extension's `runs`.
typealias RunIndex = ChainIndex<ExtensionRun>
/// A re-request in the extension's `requests`.
typealias RequestIndex = ChainIndex<ReRequest>
/// A letter, as a copy carries it and XIVA's position table holds it: its index in the
/// device's letter script and in the arm's `letterStates`.
typealias LetterIndex = ChainIndex<LetterState>

extension ChainIndex where Element == LetterState {
    init(_ letter: Int) { raw = Int32(letter) }
}

extension OwnedArray {
    /// The index the next appended element will have.
    @inline(__always) func nextIndex() -> ChainIndex<Element> {
        ChainIndex(Int32(count))
    }
}
