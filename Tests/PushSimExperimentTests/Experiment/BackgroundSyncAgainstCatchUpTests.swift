// docs/model.md §7, Background-push sync, point 5 pinned on a whole population: with every user force-quitting the app it is the catch-up, letter for letter.
import Testing
@testable import PushSimCore
@testable import PushSimScenarioFile
@testable import PushSimExperiment
import PushSimTestSupport

@Suite struct BackgroundSyncAgainstCatchUpTests {
    static let text = """
    name: sync-vs-catch-up
    seed: 11
    duration: 3d
    drain: 6h
    devices: 60
    warmup: 12h
    mail:
      rate: 60/d
    connectivity:
      online: exponential(2h)
      offline: exponential(40m)
    device:
      app_open: exponential(3h)
    """

    /// No background push reaches a force-quit app, so only launches sync, at the catch-up's
    /// openings (the same stream): the same fates, summaries and fetches; the counters differ
    /// only by what the silent pushes add (none of them woke the app).
    @Test func everyoneForceQuittingIsTheCatchUp() throws {
        let catchUp = Simulator.run(try ScenarioLoader.parse(text: Self.text, file: "t.yaml", overrides: ["recovery=catch_up"]), jobs: 1)
        let sync = Simulator.run(try ScenarioLoader.parse(text: Self.text, file: "t.yaml",
                                                          overrides: ["recovery=background_sync", "device.background_sync={force_quit: 1}"]), jobs: 1)
        let a = try #require(catchUp.arms.last?.ledger), b = try #require(sync.arms.last?.ledger)
        #expect(a.summarized > 0 && a.summarized == b.summarized && a.delivered == b.delivered && a.causes == b.causes)
        expectEqual(a.summaries, b.summaries)
        expectEqual(a.catchUp.fetches, b.backgroundSync.fetches)
        #expect(b.backgroundSync.wakes == 0 && b.backgroundSync.forceQuit > 0 && b.backgroundSync.synced <= b.summarized)
        // Letting the app be woken recovers the same letters, sooner.
        let woken = Simulator.run(try ScenarioLoader.parse(text: Self.text, file: "t.yaml", overrides: ["recovery=background_sync"]), jobs: 1)
        let c = try #require(woken.arms.last?.ledger)
        #expect(c.backgroundSync.wakes > 0)
        #expect(c.backgroundSync.syncedDelayMilliseconds * b.backgroundSync.synced < b.backgroundSync.syncedDelayMilliseconds * c.backgroundSync.synced)
    }
}
