// The memory layer: a growable array that cannot be copied, for the state one world owns and mutates per event.

import PushSimPrefetch

/// An index that names the array it indexes: its `Element` is that array's, so an index into
/// one array cannot be used on another (a compile error, not a wrong element).
package protocol TypedIndex {
    associatedtype Element
    /// The position in the array, from 0.
    var offset: Int { get }
}

/// An array that one owner mutates in place, event after event.
///
/// The world's arrays are never shared, so this one cannot be copied (`~Copyable`): it is
/// written through its owner, in place, with no copy-on-write check before each write, and
/// its header (where, how many, how much room) lives inline in the owner
/// (``GrowableStorage``). Indexing is bounds-checked.
package struct OwnedArray<Element>: ~Copyable {
    private var storage: GrowableStorage<Element>

    package init(capacity: Int = 16) {
        storage = GrowableStorage(capacity: capacity)
    }

    package var isEmpty: Bool { storage.count == 0 }
    package var indices: Range<Int> { 0..<storage.count }
    package var count: Int { storage.count }

    /// Element i, read or updated in place.
    package subscript(i: Int) -> Element {
        @inline(__always) unsafeAddress { unsafe UnsafePointer(storage.address(of: i)) }
        @inline(__always) mutating unsafeMutableAddress { unsafe storage.address(of: i) }
    }

    /// Element i, for an index typed by this array's element.
    package subscript<Index: TypedIndex>(i: Index) -> Element where Index.Element == Element {
        @inline(__always) unsafeAddress { unsafe UnsafePointer(storage.address(of: i.offset)) }
        @inline(__always) mutating unsafeMutableAddress { unsafe storage.address(of: i.offset) }
    }

    @inline(__always) package mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Appends `count` copies of `value` at once.
    @inline(__always) package mutating func append(repeating value: Element, count added: Int) {
        storage.append(repeating: value, count: added)
    }

    /// Removes and returns the last element; the array must not be empty.
    @inline(__always) package mutating func removeLast() -> Element {
        storage.removeLast()
    }

    /// Drops the first `n` elements: the rest move to the front, each index down by `n`.
    @inline(__always) package mutating func removeFirst(_ n: Int) {
        storage.removeFirst(n)
    }

    /// The elements, copied into an array (for tests and accounts, not the hot path).
    package var elements: [Element] { (0..<storage.count).map { self[$0] } }

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

    /// Asks the processor to bring the first elements, at most `maxBytes` of them, into its
    /// caches: a hint that changes nothing.
    @inline(__always) func prefetchElements(maxBytes: Int) { storage.prefetchElements(maxBytes: maxBytes) }

    /// The same for the elements from `index` on (clamped to those held): where a world that
    /// keeps every letter of its arm stands, rather than where the arm began.
    @inline(__always) func prefetchElements(from index: Int, maxBytes: Int) {
        storage.prefetchElements(from: index, maxBytes: maxBytes)
    }

    /// The same for the newest elements and the room the next ones are appended in: at most
    /// `maxBytes` in all, half of them before the end, within the array's memory. An array
    /// that grows at its end is written there next, in room made ahead of time: lines never
    /// read since, which a write would wait for as for a read.
    @inline(__always) func prefetchAroundEnd(maxBytes: Int) {
        storage.prefetchAroundEnd(maxBytes: maxBytes)
    }

    /// The elements ``prefetchAroundEnd(maxBytes:)`` fetches, for `count` elements held in
    /// room for `capacity` of `stride` bytes each: within `0..<capacity`, at most `maxBytes`.
    static func elementsAroundEnd(count: Int, capacity: Int, stride: Int, maxBytes: Int) -> Range<Int> {
        let stride = Swift.max(stride, 1)
        let start = Swift.min(Swift.max(0, count - maxBytes / 2 / stride), capacity)
        let end = Swift.min(capacity, start + Swift.max(0, maxBytes) / stride)
        return start..<Swift.max(start, end)
    }

    /// Empties the array and gives its memory back, keeping room for `room` elements (none by
    /// default): for a world that will not run again, or one that waits beside its partition.
    package mutating func releaseMemory(keepingRoom room: Int = 0) {
        storage.release(keepingRoom: room)
    }

    /// Gives back room above `room` elements when more than a quarter as much again is
    /// unused (``GrowableStorage/trim(toHold:)``).
    package mutating func trimRoom(toHold room: Int) {
        storage.trim(toHold: room)
    }

    /// Trades memory and elements with `other` (a world borrowing room for an arm).
    package mutating func swapStorage(with other: inout OwnedArray<Element>) {
        storage.swapContents(with: &other.storage)
    }

    /// Makes the array `count` copies of `value`, keeping its memory when it is large enough.
    @inline(__always) package mutating func reset(repeating value: Element, count newCount: Int) {
        storage.reset(repeating: value, count: newCount)
    }

    /// Checks the storage's invariants (tests, and builds with internal checks).
    func _checkInvariants() { storage._checkInvariants() }
}

/// The array as a binary min-heap ordered by `precedes` (a strict order: no two elements
/// equal, so the order elements come out in does not depend on how the heap breaks ties):
/// element 0 is the first, and every element precedes neither of its children (2i+1, 2i+2).
/// The event heap and the coupled stepper's stopped worlds share these steps. Each moves
/// elements into a hole, touching only slots the heap's own arithmetic keeps below the count.
extension OwnedArray {
    /// Puts `element` among the others: sifted up from a new last slot, parents moving down
    /// into the hole.
    @inline(__always) package mutating func heapInsert(_ element: Element, precedes: (Element, Element) -> Bool) {
        let count = storage.count
        if count == storage.capacity { storage.reserve(count + 1) }
        storage.heapInsert(element, count: count, precedes: precedes)
    }

    /// Removes and returns the first element; the heap must not be empty.
    @inline(__always) package mutating func heapRemoveFirst(precedes: (Element, Element) -> Bool) -> Element {
        storage.heapRemoveFirst(precedes: precedes)
    }

    /// Replaces the first element by `element` and sifts it down to its place; the heap must
    /// not be empty.
    @inline(__always) package mutating func heapReplaceFirst(_ element: Element, precedes: (Element, Element) -> Bool) {
        storage.heapReplaceFirst(element, precedes: precedes)
    }
}

/// The memory of a growable container: where its elements are, how many, and how much room.
/// Held inline by its one owner, an ``OwnedArray``; it cannot be copied, so its memory
/// has one owner and needs no object, no reference count and no run-time exclusivity check,
/// and it frees its memory when it ends. Every element is reached through a bounds-checked
/// address; no pointer leaves this file.
///
/// Invariants (``_checkInvariants()``): `count <= capacity`; the first `count` slots are
/// initialized, the rest are not; with no room the pointer is never read, written or freed.
@safe fileprivate struct GrowableStorage<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    /// The count and the room in 32 bits each, so the header is 16 bytes; growing past 2^32
    /// elements stops with a message rather than wrap.
    private var storedCount: UInt32 = 0
    private var storedCapacity: UInt32

    var count: Int { @inline(__always) get { Int(storedCount) } }
    var capacity: Int { @inline(__always) get { Int(storedCapacity) } }

    /// Room for `capacity` elements; none allocated for 0.
    init(capacity: Int) {
        storedCapacity = UInt32(Self.roomFor(capacity))
        unsafe base = Self.allocate(Int(storedCapacity))
    }

    deinit {
        unsafe base.deinitialize(count: count)
        if capacity > 0 { unsafe base.deallocate() }
    }

    /// The room `capacity` asks for: 0, or at least 1 and at most 2^32 - 1.
    private static func roomFor(_ capacity: Int) -> Int {
        precondition(capacity <= Int(UInt32.max), "a world's array grows past 2^32 elements")
        return capacity <= 0 ? 0 : capacity
    }

    /// Memory for `room` elements; for no room, an aligned address that is never read, written or freed.
    private static func allocate(_ room: Int) -> UnsafeMutablePointer<Element> {
        if room == 0, let dangling = unsafe UnsafeMutablePointer<Element>(bitPattern: MemoryLayout<Element>.alignment) {
            return unsafe dangling
        }
        return UnsafeMutablePointer.allocate(capacity: Swift.max(room, 1))
    }

    /// Whether i is a valid index: one unsigned comparison covers both ends.
    @inline(__always) func contains(_ i: Int) -> Bool {
        UInt(bitPattern: i) < UInt(bitPattern: count)
    }

    /// Where element i is; i must be below the count. For the owner's addressors only: the
    /// address is valid until the storage next grows, shrinks or is given back.
    @inline(__always) func address(of i: Int) -> UnsafeMutablePointer<Element> {
        precondition(contains(i), "OwnedArray index out of range")
        return unsafe base + i
    }

    /// Makes room for at least `needed` elements, half as much again at a time (at least 2):
    /// on the coupled path every world of a partition holds its arrays at once, so room grows
    /// in small steps.
    mutating func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        moveElements(toRoomFor: Swift.max(needed, capacity + Swift.max(capacity / 2, 2)))
    }

    /// The elements moved to memory with room for `newCapacity` (none allocated for 0), the
    /// old memory freed: how the storage grows and how it gives room back.
    @inline(__always) private mutating func moveElements(toRoomFor newCapacity: Int) {
        precondition(newCapacity >= count, "room for fewer elements than held")
        let room = Self.roomFor(newCapacity)
        let moved = unsafe Self.allocate(room)
        unsafe moved.moveInitialize(from: base, count: count)
        if capacity > 0 { unsafe base.deallocate() }
        unsafe base = moved
        storedCapacity = UInt32(room)
    }

    /// Adds `element` after the last, growing when full.
    @inline(__always) mutating func append(_ element: Element) {
        let count = self.count
        if count == capacity { reserve(count + 1) }
        unsafe (base + count).initialize(to: element)
        storedCount = UInt32(truncatingIfNeeded: count + 1)
    }

    /// Adds `added` copies of `value` after the last.
    @inline(__always) mutating func append(repeating value: Element, count added: Int) {
        guard added > 0 else { return }
        let count = self.count
        reserve(count + added)
        unsafe (base + count).initialize(repeating: value, count: added)
        storedCount = UInt32(truncatingIfNeeded: count + added)
    }

    /// Removes and returns the last element; the storage must not be empty.
    @inline(__always) mutating func removeLast() -> Element {
        precondition(count > 0, "removeLast on empty storage")
        let last = count - 1
        storedCount = UInt32(truncatingIfNeeded: last)
        return unsafe (base + last).move()
    }

    @inline(__always) mutating func removeAll() {
        unsafe base.deinitialize(count: count)
        storedCount = 0
    }

    /// Gives back the room above `room` elements (never below the count) when more than a
    /// quarter as much again is unused.
    mutating func trim(toHold room: Int) {
        let kept = Swift.max(count, room)
        guard capacity > kept + Swift.max(kept / 4, 1) else { return }
        moveElements(toRoomFor: kept)
    }

    /// Drops the first `n` elements, moving the rest to the front (the room stays).
    mutating func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= count, "removes more than it holds")
        let kept = count - n
        unsafe base.deinitialize(count: n)
        unsafe base.moveInitialize(from: base + n, count: kept)
        storedCount = UInt32(truncatingIfNeeded: kept)
    }

    /// Makes the storage `newCount` copies of `value`, keeping its memory when large enough.
    @inline(__always) mutating func reset(repeating value: Element, count newCount: Int) {
        removeAll()
        append(repeating: value, count: newCount)
    }

    /// Empties the storage and frees its memory, leaving room for `room` elements.
    mutating func release(keepingRoom room: Int = 0) {
        removeAll()
        if capacity > 0 { unsafe base.deallocate() }
        storedCapacity = UInt32(Self.roomFor(room))
        unsafe base = Self.allocate(room)
    }

    /// Trades memory and elements with `other`.
    mutating func swapContents(with other: inout GrowableStorage<Element>) {
        swap(&self, &other)
    }

    /// Asks the processor to bring the first elements (at most `maxBytes` of them, at least
    /// one line) into its caches: a hint that reads nothing and changes nothing.
    @inline(__always) func prefetchElements(maxBytes: Int) {
        let bytes = count &* MemoryLayout<Element>.stride
        unsafe pushsim_prefetch_range(UnsafeRawPointer(base), Swift.min(Swift.max(bytes, 1), maxBytes))
    }

    /// As ``prefetchElements(maxBytes:)`` from element `index`, clamped to `0..<count` (at
    /// least one line, the first, when nothing is held from there).
    @inline(__always) func prefetchElements(from index: Int, maxBytes: Int) {
        let start = Swift.min(Swift.max(index, 0), Swift.max(count - 1, 0))
        let bytes = (count - start) &* MemoryLayout<Element>.stride
        unsafe pushsim_prefetch_range(UnsafeRawPointer(base + start), Swift.min(Swift.max(bytes, 1), maxBytes))
    }

    /// ``OwnedArray/prefetchAroundEnd(maxBytes:)``: from half of `maxBytes` before the end
    /// to the rest after it, clamped to the memory held (nothing when none is).
    @inline(__always) func prefetchAroundEnd(maxBytes: Int) {
        let stride = MemoryLayout<Element>.stride
        let range = OwnedArray<Element>.elementsAroundEnd(count: count, capacity: capacity, stride: stride, maxBytes: maxBytes)
        guard !range.isEmpty else { return }
        unsafe pushsim_prefetch_range(UnsafeRawPointer(base + range.lowerBound), range.count &* stride)
    }

    /// ``OwnedArray/heapInsert(_:precedes:)`` with room for one more already made.
    @inline(__always) mutating func heapInsert(_ moving: Element, count: Int, precedes: (Element, Element) -> Bool) {
        precondition(count == self.count && count < capacity, "no room to insert")
        var child = count
        while child > 0 {
            let parent = (child - 1) >> 1
            if !precedes(moving, unsafe base[parent]) { break }
            unsafe (base + child).initialize(to: (base + parent).move())
            child = parent
        }
        unsafe (base + child).initialize(to: moving)
        storedCount = UInt32(truncatingIfNeeded: count + 1)
    }

    /// ``OwnedArray/heapRemoveFirst(precedes:)``.
    @inline(__always) mutating func heapRemoveFirst(precedes: (Element, Element) -> Bool) -> Element {
        precondition(count > 0, "removeFirst on an empty heap")
        let first = unsafe base.move()
        let count = self.count - 1
        storedCount = UInt32(truncatingIfNeeded: count)
        if count > 0 { siftDown(unsafe (base + count).move(), count: count, precedes: precedes) }
        return first
    }

    /// ``OwnedArray/heapReplaceFirst(_:precedes:)``.
    @inline(__always) mutating func heapReplaceFirst(_ moving: Element, precedes: (Element, Element) -> Bool) {
        precondition(count > 0, "replaceFirst on an empty heap")
        unsafe base.deinitialize(count: 1)
        siftDown(moving, count: count, precedes: precedes)
    }

    /// Puts `moving` in the root's hole (slot 0, uninitialized) of a heap of `count` and sifts
    /// it down: children move up into the hole while one precedes it.
    @inline(__always) private mutating func siftDown(_ moving: Element, count: Int, precedes: (Element, Element) -> Bool) {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            if left >= count { break }
            var best = left
            let right = left + 1
            if right < count && precedes(unsafe base[right], unsafe base[left]) { best = right }
            if !precedes(unsafe base[best], moving) { break }
            unsafe (base + parent).initialize(to: (base + best).move())
            parent = best
        }
        unsafe (base + parent).initialize(to: moving)
    }

    /// Checks the invariants above (tests, and builds with internal checks).
    func _checkInvariants() {
        precondition(storedCount <= storedCapacity, "count above capacity")
        precondition(capacity > 0 || count == 0, "elements without room")
    }
}
