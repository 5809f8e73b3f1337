// A value kept out of line in memory its one owner allocates on first write and frees.

/// A value that only some owners ever need, kept out of line: no memory until it is first
/// written, then one block the owner allocates and frees with itself. It cannot be copied, so
/// the block has one owner and needs no reference count: read and written through plain
/// pointers (addressors in the owner), with no retain and release per access, which through a
/// class reference cost `provider-answers.yaml` 12.6 % more instructions (docs/performance.md,
/// A smaller world). Until it is written, owners read a shared fresh value instead (``madeOnce(_:)``).
struct OutOfLine<Value>: ~Copyable {
    private var block: UnsafeMutablePointer<Value>? = nil

    init() {}

    deinit {
        if let block {
            block.deinitialize(count: 1)
            block.deallocate()
        }
    }

    /// Whether the value has been written (its block exists).
    var exists: Bool { block != nil }

    /// Where to read the value: the owner's block, or `fresh` before it has one. Never written
    /// through: writes go through ``writable(orMake:)``. `fresh` is evaluated only then: a
    /// global's first-use check at every read cost `provider-answers.yaml` 0.8 % more instructions.
    @inline(__always) func readable(orFresh fresh: @autoclosure () -> UnsafeMutablePointer<Value>) -> UnsafeMutablePointer<Value> {
        block ?? fresh()
    }

    /// Where to write the value: the owner's block, made from `make()` on first write.
    @inline(__always) mutating func writable(orMake make: @autoclosure () -> Value) -> UnsafeMutablePointer<Value> {
        if let block { return block }
        let made = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        made.initialize(to: make())
        block = made
        return made
    }

    /// Frees the block: the value reads as fresh again.
    mutating func release() {
        guard let block else { return }
        block.deinitialize(count: 1)
        block.deallocate()
        self.block = nil
    }

    /// A block made once and never freed, for the fresh value every owner reads before it
    /// writes its own.
    static func madeOnce(_ value: Value) -> UnsafeMutablePointer<Value> {
        let block = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        block.initialize(to: value)
        return block
    }
}
