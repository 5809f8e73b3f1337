// The memory layer: the integer fields of a plain value merged by their byte offsets.

/// Adds one value's integer fields into another's, field by field, by rule (a sum, or the
/// larger): the mechanisms' counters of two ledgers, merged once per device and arm on the
/// coupled path, without the key-path machinery at every field.
///
/// Built only from key paths: each must lead to a stored `Int` field of `Root` (where
/// `MemoryLayout.offset(of:)` answers), so every offset it keeps is an `Int` inside `Root` and
/// nothing else is read or written. Nil when some path is not a stored field.
@safe struct IntFieldMerge<Root>: Sendable {
    /// Each field's byte offset in `Root`, and whether it keeps the larger value (else the sum).
    private let steps: [(offset: Int, largest: Bool)]

    init?(_ fields: [(path: WritableKeyPath<Root, Int>, largest: Bool)]) {
        var steps: [(offset: Int, largest: Bool)] = []
        for field in fields {
            guard let offset = MemoryLayout<Root>.offset(of: field.path),
                  offset >= 0, offset + MemoryLayout<Int>.size <= MemoryLayout<Root>.size,
                  offset % MemoryLayout<Int>.alignment == 0 else { return nil }
            steps.append((offset, field.largest))
        }
        self.steps = steps
    }

    /// `into`'s fields merged with `other`'s by each field's rule.
    @inline(__always) func merge(into root: inout Root, from other: Root) {
        unsafe withUnsafeBytes(of: other) { from in
            unsafe withUnsafeMutableBytes(of: &root) { into in
                for step in steps {
                    let mine = unsafe into.load(fromByteOffset: step.offset, as: Int.self)
                    let added = unsafe from.load(fromByteOffset: step.offset, as: Int.self)
                    unsafe into.storeBytes(of: step.largest ? max(mine, added) : mine &+ added, toByteOffset: step.offset, as: Int.self)
                }
            }
        }
    }
}
