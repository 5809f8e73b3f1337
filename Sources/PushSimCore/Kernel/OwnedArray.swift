// A growable array that cannot be copied, for the state one world owns and mutates per event.

/// The memory of a growable array: where its elements are, how many, and how much room.
/// Held inline by its owner (``OwnedArray``, ``EventQueue``), which cannot be copied: no
/// object, no reference count, no run-time exclusivity check.
struct GrowableStorage<Element> {
    var base: UnsafeMutablePointer<Element>
    /// The count and the room in 32 bits each: the header is 16 bytes, not 24, in every owner,
    /// eight of them in every world of a shared partition (issue 26, item 1). 2^32 elements of
    /// the smallest element a world keeps (a position, 4 bytes) would be 16 GiB of one phone's
    /// array; ``moveElements(toRoomFor:)`` refuses more rather than wrap.
    private var storedCount: UInt32 = 0
    private var storedCapacity: UInt32

    var count: Int {
        @inline(__always) get { Int(storedCount) }
        @inline(__always) set { storedCount = UInt32(truncatingIfNeeded: newValue) }
    }
    var capacity: Int { @inline(__always) get { Int(storedCapacity) } }

    /// Room for `capacity` elements; none allocated for 0 (the pointer is then never read
    /// or freed: a world of a shared partition gives back its arrays' memory between arms,
    /// and a one-element allocation for each was 14 calls into the allocator a phone).
    init(capacity: Int) {
        if capacity <= 0, let dangling = UnsafeMutablePointer<Element>(bitPattern: MemoryLayout<Element>.alignment) {
            storedCapacity = 0
            base = dangling
        } else {
            precondition(capacity <= Int(UInt32.max), "a world's array grows past 2^32 elements")
            storedCapacity = UInt32(Swift.max(capacity, 1))
            base = UnsafeMutablePointer.allocate(capacity: Int(storedCapacity))
        }
    }

    /// Makes room for at least `needed` elements, half as much again at a time (at least 2).
    /// Not doubling: on the coupled path every world of a partition holds its arrays at once,
    /// and doubling left up to half of each one's room unused; a quarter at a time took 1.1 KB
    /// a phone more off the herd's peak but cost its run 5 % more instructions in copies
    /// (docs/performance.md, Memory of the coupled path). A lonely world keeps its room from
    /// device to device, so it seldom grows at all. At least 2, not 16: a world settling its
    /// letters in flight holds a handful in each array, and 16 of each was 1.3 KB a phone; at
    /// least 4 was 27 bytes a phone more at the herd's peak (docs/performance.md).
    mutating func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        moveElements(toRoomFor: Swift.max(needed, capacity + Swift.max(capacity / 2, 2)))
    }

    /// The elements moved to memory with room for `newCapacity` (none allocated for 0), the
    /// old memory freed: how the storage grows and how it gives room back.
    @inline(__always) private mutating func moveElements(toRoomFor newCapacity: Int) {
        var moved = GrowableStorage(capacity: newCapacity)
        moved.base.moveInitialize(from: base, count: count)
        moved.count = count
        if capacity > 0 { base.deallocate() }
        self = moved
    }

    @inline(__always) mutating func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    /// Gives back the room above `room` elements (never below the count) when more than a
    /// quarter as much again is unused: a world of a shared partition held room for the most
    /// letters it ever held otherwise, which grows with the simulated days (WorldRoomTrim.swift).
    mutating func trim(toHold room: Int) {
        let kept = Swift.max(count, room)
        guard capacity > kept + Swift.max(kept / 4, 1) else { return }
        moveElements(toRoomFor: kept)
    }

    /// Drops the first `n` elements, moving the rest to the front (the room stays).
    mutating func removeFirst(_ n: Int) {
        let kept = count - n
        base.deinitialize(count: n)
        base.moveInitialize(from: base + n, count: kept)
        count = kept
    }

    /// Frees everything; the storage must not be used afterwards. Always inlined: when the
    /// owners were generic classes their `deinit`s ran unspecialized, and a call from there looked up
    /// `GrowableStorage<Element>`'s metadata at run time, about 500 instructions per array,
    /// seven arrays per world of a shared partition (docs/performance.md).
    @inline(__always) mutating func release() {
        removeAll()
        if capacity > 0 { base.deallocate() }
    }

    /// Where the elements are and how many bytes they take, for a prefetch only.
    @inline(__always) var elementBytes: (start: UnsafeRawPointer, bytes: Int) {
        (UnsafeRawPointer(base), count &* MemoryLayout<Element>.stride)
    }

    /// Whether i is a valid index: one unsigned comparison covers both ends.
    @inline(__always) func contains(_ i: Int) -> Bool {
        UInt(bitPattern: i) < UInt(bitPattern: count)
    }
}

/// An index that names the array it indexes: its `Element` is that array's, so an index into
/// one array cannot be used on another (a compile error, not a wrong element).
package protocol TypedIndex {
    associatedtype Element
    /// The position in the array, from 0.
    var offset: Int { get }
}

/// An array that one owner mutates in place, event after event.
///
/// Swift's `Array` checks, before every write, whether its buffer is shared (copy on write):
/// a call into the runtime that was ~5 % of a run, because the world writes its per-letter and
/// per-run arrays on nearly every event. The world's arrays are never shared, so this one is
/// plain memory that cannot be copied (`~Copyable`): it is written through its owner, in
/// place, and its header (where, how many, how much room) lives inline in the owner. As a
/// class it was an object of 40 bytes and an allocation of its own in every world of a shared
/// partition, seven of them a phone (issue 26, item 1). Indexing is still bounds-checked.
package struct OwnedArray<Element>: ~Copyable {
    private var storage: GrowableStorage<Element>

    package init(capacity: Int = 16) {
        storage = GrowableStorage(capacity: capacity)
    }

    deinit {
        var storage = storage
        storage.release()
    }

    package var isEmpty: Bool { storage.count == 0 }
    package var indices: Range<Int> { 0..<storage.count }
    package var count: Int { storage.count }

    /// Element i, read or updated in place.
    package subscript(i: Int) -> Element {
        unsafeAddress {
            precondition(storage.contains(i), "OwnedArray index out of range")
            return UnsafePointer(storage.base + i)
        }
        mutating unsafeMutableAddress {
            precondition(storage.contains(i), "OwnedArray index out of range")
            return storage.base + i
        }
    }

    /// Element i, for an index typed by this array's element.
    package subscript<Index: TypedIndex>(i: Index) -> Element where Index.Element == Element {
        unsafeAddress {
            precondition(storage.contains(i.offset), "OwnedArray index out of range")
            return UnsafePointer(storage.base + i.offset)
        }
        mutating unsafeMutableAddress {
            precondition(storage.contains(i.offset), "OwnedArray index out of range")
            return storage.base + i.offset
        }
    }

    @inline(__always) package mutating func append(_ element: Element) {
        let count = storage.count
        if count == storage.capacity { storage.reserve(count + 1) }
        (storage.base + count).initialize(to: element)
        storage.count = count + 1
    }

    /// Appends `count` copies of `value` at once.
    package mutating func append(repeating value: Element, count added: Int) {
        guard added > 0 else { return }
        let count = storage.count
        storage.reserve(count + added)
        (storage.base + count).initialize(repeating: value, count: added)
        storage.count = count + added
    }

    /// Drops the first `n` elements: the rest move to the front, each index down by `n` (a
    /// world of a shared partition renumbers what it still holds so, WorldSettlement.swift).
    @inline(__always) package mutating func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= storage.count, "OwnedArray removes more than it holds")
        storage.removeFirst(n)
    }

    /// The elements, copied into an array (for tests and accounts, not the hot path).
    package var elements: [Element] { Array(unsafeElements) }

    /// The elements in place, valid until the array next grows, shrinks or is given back.
    var unsafeElements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: storage.base, count: storage.count) }

    /// Makes room for at least `needed` elements.
    package mutating func reserve(_ needed: Int) {
        storage.reserve(needed)
    }

    /// Empties the array, keeping its memory.
    package mutating func removeAll() {
        storage.removeAll()
    }

    /// How many elements its memory holds (for the coupled path's memory accounts).
    package var capacity: Int { storage.capacity }

    /// Where its elements are and how many bytes they take, for a prefetch only: never read
    /// through (WorldPrefetch.swift).
    @inline(__always) var elementBytes: (start: UnsafeRawPointer, bytes: Int) { storage.elementBytes }

    /// Empties the array and gives its memory back, keeping no room: for a world that will
    /// not run again (``DeviceWorld/releaseMemory()``), or one that waits beside its partition.
    package mutating func releaseMemory() {
        storage.release()
        storage = GrowableStorage(capacity: 0)
    }

    /// Gives back room above `room` elements when more than a quarter as much again is
    /// unused (``GrowableStorage/trim(toHold:)``).
    package mutating func trimRoom(toHold room: Int) {
        storage.trim(toHold: room)
    }

    /// Trades memory and elements with `other` (a world borrowing room for an arm, WorldRoom.swift).
    package mutating func swapStorage(with other: inout OwnedArray<Element>) {
        swap(&storage, &other.storage)
    }

    /// Makes the array `count` copies of `value`, keeping its memory when it is large enough.
    package mutating func reset(repeating value: Element, count newCount: Int) {
        storage.removeAll()
        storage.reserve(newCount)
        storage.base.initialize(repeating: value, count: newCount)
        storage.count = newCount
    }
}
