// The memory layer: a value made once and never freed, reached through a handle that copies as one word.

/// A value that lives as long as the program: made once (a global, a table, a fresh state
/// every owner reads) and never written or freed. Its handle is a plain address, so a value
/// that holds one copies with no reference count and stays trivially copyable; the value is
/// read in place through ``value``.
///
/// Invariant: the address is made once, by ``init(_:)``, and never written through or freed.
@safe struct Immortal<Value> {
    private let address: UnsafePointer<Value>

    /// `value`, moved to memory of its own for the rest of the program.
    init(_ value: Value) {
        let block = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        unsafe block.initialize(to: value)
        unsafe address = UnsafePointer(block)
    }

    /// The value, read in place.
    var value: Value {
        @inline(__always) unsafeAddress { unsafe address }
    }

    /// Where the value is, read-only: for an owner of the layer that hands it out to be read
    /// in place (``OutOfLine``'s fresh value).
    var readOnlyAddress: UnsafePointer<Value> { @inline(__always) get { unsafe address } }
}

/// Never written after it is made, so threads may share it when the value itself may be shared.
extension Immortal: @unchecked Sendable where Value: Sendable {}
