// The memory layer: a value kept out of line in memory its one owner allocates on first write and frees.

/// A value that only some owners ever need, kept out of line: no memory until it is first
/// written, then one block the owner allocates and frees with itself. It cannot be copied, so
/// the block has one owner and needs no reference count. Until it is written, the owner reads
/// a shared fresh value (an ``Immortal`` every owner shares) instead; the first write copies
/// that value into the owner's own block, so the shared one is never written through.
///
/// Invariant (``_checkInvariants()``): a block, once made, belongs to this value alone and is
/// freed exactly once, when the value ends or ``release()`` is called.
@safe struct OutOfLine<Value>: ~Copyable {
    private var block: UnsafeMutablePointer<Value>? = nil

    init() {}

    deinit {
        if let block = unsafe block {
            unsafe block.deinitialize(count: 1)
            unsafe block.deallocate()
        }
    }

    /// Whether the value has been written (its block exists).
    var exists: Bool { unsafe block != nil }

    /// The value: read from the owner's block, or from `fresh` before it has one; written to
    /// the owner's block, made from `fresh`'s value on the first write. `fresh` is evaluated
    /// only when there is no block.
    subscript(orFresh fresh: @autoclosure () -> Immortal<Value>) -> Value {
        @inline(__always) unsafeAddress {
            if let block = unsafe block { return unsafe UnsafePointer(block) }
            return unsafe fresh().readOnlyAddress
        }
        @inline(__always) mutating unsafeMutableAddress {
            if let block = unsafe block { return unsafe block }
            return unsafe made(from: fresh())
        }
    }

    /// The owner's block, made now from `fresh`'s value.
    @inline(never) private mutating func made(from fresh: Immortal<Value>) -> UnsafeMutablePointer<Value> {
        let made = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        unsafe made.initialize(to: fresh.value)
        unsafe block = made
        return unsafe made
    }

    /// Frees the block: the value reads as fresh again.
    mutating func release() {
        guard let block = unsafe block else { return }
        unsafe block.deinitialize(count: 1)
        unsafe block.deallocate()
        unsafe self.block = nil
    }

    /// Checks the invariant above (tests, and builds with internal checks): a block is one
    /// value's own, never the shared fresh one.
    func _checkInvariants(fresh: Immortal<Value>) {
        if let block = unsafe block { precondition(unsafe UnsafePointer(block) != fresh.readOnlyAddress, "an owner writes the shared fresh value") }
    }
}
