// IntFieldMerge: the integer fields of a plain value merged by offset, exactly as by their key paths.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct IntFieldMergeTests {
    struct Inner: Equatable { var a = 0; var b = 0 }
    struct Counts: Equatable {
        var first = 0
        var label = "kept"          // not an integer field: never touched
        var inner = Inner()
        var most = 0
    }

    @Test func sumsAndLargestByField() throws {
        let merge = try #require(IntFieldMerge<Counts>([(\.first, false), (\.inner.b, false), (\.most, true)]))
        var mine = Counts(first: 3, label: "mine", inner: Inner(a: 1, b: 2), most: 9)
        let theirs = Counts(first: 4, label: "theirs", inner: Inner(a: 100, b: 5), most: 7)
        merge.merge(into: &mine, from: theirs)
        // a is not in the plan: unchanged; the label is not an integer field: unchanged.
        expectEqual(mine, Counts(first: 7, label: "mine", inner: Inner(a: 1, b: 7), most: 9))
        merge.merge(into: &mine, from: Counts(first: 0, label: "", inner: Inner(), most: 12))
        expectEqual(mine.most, 12)
        expectEqual(mine.first, 7)
    }

    @Test func agreesWithTheKeyPaths() throws {
        let fields: [(path: WritableKeyPath<Counts, Int>, largest: Bool)] = [(\.first, false), (\.inner.a, true), (\.inner.b, false), (\.most, true)]
        let merge = try #require(IntFieldMerge<Counts>(fields))
        var stream = RandomStream(seed: 7)
        for _ in 0..<200 {
            func draw() -> Counts {
                Counts(first: Int(stream.next() % 1000), inner: Inner(a: Int(stream.next() % 1000), b: Int(stream.next() % 1000)),
                       most: Int(stream.next() % 1000))
            }
            var byOffset = draw()
            let other = draw()
            var byPath = byOffset
            merge.merge(into: &byOffset, from: other)
            for field in fields {
                byPath[keyPath: field.path] = field.largest ? max(byPath[keyPath: field.path], other[keyPath: field.path])
                                                            : byPath[keyPath: field.path] + other[keyPath: field.path]
            }
            expectEqual(byOffset, byPath)
        }
    }

    @Test func aComputedFieldHasNoOffset() {
        // A path through a computed property cannot be merged by offset: no plan at all.
        struct WithComputed { var stored = 0; var computed: Int { get { stored } set { stored = newValue } } }
        #expect(IntFieldMerge<WithComputed>([(\.computed, false)]) == nil)
        #expect(IntFieldMerge<WithComputed>([(\.stored, false)]) != nil)
    }
}
