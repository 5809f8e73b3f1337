// A world's observers: made when the first is set, never by setting nil, so a world given back at an arm's end allocates nothing for them.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct WorldObserversTests {
    @Test func settingNilWhereNothingWasSetMakesNothing() {
        var observers = WorldObservers()
        observers.extensionLog = nil
        observers.tracer = nil
        #expect(!observers.isWatched)
        #expect(observers.extensionLog == nil && observers.tracer == nil)
    }

    @Test func anObserverSetIsKeptUntilSetToNil() {
        var observers = WorldObservers()
        let recorder = ExtensionLogRecorder()
        observers.extensionLog = recorder
        #expect(observers.isWatched)
        #expect(observers.extensionLog === recorder)
        var lines = 0
        observers.tracer = { _ in lines += 1 }
        observers.tracer?(TraceEntry(time: 0, lane: .user, letter: nil, event: .unclassified("a line")))
        expectEqual(lines, 1)
        observers.extensionLog = nil
        #expect(observers.extensionLog == nil)
        #expect(observers.tracer != nil)
        observers.tracer = nil
        #expect(observers.tracer == nil)
    }

    /// A world run and given back, as every world of a shared partition is at an arm's end.
    @Test func aWorldGivenBackIsNotWatched() {
        var world = DeviceWorld(scenario: tinyScenario())
        world.prepare(device: 0)
        var ledger = Ledger()
        world.run(.on, into: &ledger)
        world.releaseMemory()
        #expect(!world.observers.isWatched)
        world.extensionLog = ExtensionLogRecorder()
        #expect(world.observers.isWatched)
    }
}
