// A growable array with reference semantics, for the state one world owns and mutates per event.

/// The memory of a growable array: where its elements are, how many, and how much room.
/// Kept behind a pointer by its owning class: a class's own `var`s are checked for exclusive
/// access at run time on every write, memory behind a pointer is not.
struct GrowableStorage<Element> {
    var base: UnsafeMutablePointer<Element>
    var count = 0
    var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        base = UnsafeMutablePointer.allocate(capacity: self.capacity)
    }

    /// Makes room for at least `needed` elements, doubling.
    mutating func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        let newCapacity = Swift.max(needed, capacity * 2)
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = newCapacity
    }

    mutating func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    /// Frees everything; the storage must not be used afterwards.
    mutating func release() {
        removeAll()
        base.deallocate()
    }

    /// A new pointer to storage with room for `capacity` elements.
    static func allocate(capacity: Int) -> UnsafeMutablePointer<GrowableStorage> {
        let pointer = UnsafeMutablePointer<GrowableStorage>.allocate(capacity: 1)
        pointer.initialize(to: GrowableStorage(capacity: capacity))
        return pointer
    }
}

/// An array that one owner mutates in place, event after event.
///
/// Swift's `Array` checks, before every write, whether its buffer is shared (copy on write):
/// a call into the runtime that was ~5 % of a run, because the world writes its per-letter and
/// per-run arrays on nearly every event. The world's arrays are never shared, so this one is a
/// class over plain memory: a copy of the reference is the same array. Indexing is still
/// bounds-checked.
public final class OwnedArray<Element>: RandomAccessCollection {
    private let storage: UnsafeMutablePointer<GrowableStorage<Element>>

    public init(capacity: Int = 16) {
        storage = GrowableStorage.allocate(capacity: capacity)
    }

    deinit {
        storage.pointee.release()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.pointee.count }
    public var count: Int { storage.pointee.count }

    /// Element i, read or updated in place.
    public subscript(i: Int) -> Element {
        unsafeAddress {
            precondition(i >= 0 && i < storage.pointee.count, "OwnedArray index out of range")
            return UnsafePointer(storage.pointee.base + i)
        }
        unsafeMutableAddress {
            precondition(i >= 0 && i < storage.pointee.count, "OwnedArray index out of range")
            return storage.pointee.base + i
        }
    }

    public func append(_ element: Element) {
        let count = storage.pointee.count
        if count == storage.pointee.capacity { storage.pointee.reserve(count + 1) }
        (storage.pointee.base + count).initialize(to: element)
        storage.pointee.count = count + 1
    }

    /// Empties the array, keeping its memory.
    public func removeAll() {
        storage.pointee.removeAll()
    }

    /// Makes the array `count` copies of `value`, keeping its memory when it is large enough.
    public func reset(repeating value: Element, count newCount: Int) {
        storage.pointee.removeAll()
        storage.pointee.reserve(newCount)
        storage.pointee.base.initialize(repeating: value, count: newCount)
        storage.pointee.count = newCount
    }
}
