// The agenda's order: the heap and two streams merged by (time, scheduling order), cut at the end given.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct AgendaTests {
    private func times(_ agenda: inout Agenda<Int>, before end: Int64) -> [Int64] {
        var out: [Int64] = []
        while let (time, _) = agenda.next(before: end) { out.append(time) }
        return out
    }

    /// Everything before the end comes out in time order, whichever stream or the heap holds it.
    @Test func itemsComeInTimeOrderUpToTheEnd() {
        var agenda = Agenda(queue: EventQueue<Int>())
        agenda.queue.schedule(at: 30, 0)
        agenda.queue.schedule(at: 90, 1)
        agenda.followInFirstStream(time: 20, index: 0)
        agenda.followInSecondStream(time: 40, index: 0)
        expectEqual(times(&agenda, before: 80), [20, 30, 40])
    }

    /// The first stream's next entry past the end must not hide the second's before it: a device
    /// whose run ends early (its app uninstalled, docs/model.md §9), with nothing in the heap and
    /// its next letter after the uninstall, still comes online before it. An agenda that checked
    /// the first stream against the end before comparing it with the second (as before 138e836)
    /// returned nil here, and 7 stored pushes of provider-answers were never sent.
    @Test func aLetterPastTheEndDoesNotHideAFlipBeforeIt() {
        var agenda = Agenda(queue: EventQueue<Int>())
        agenda.followInFirstStream(time: 100, index: 5)
        agenda.followInSecondStream(time: 50, index: 3)
        guard let (time, item) = agenda.next(before: 80), case .inSecondStream(let k) = item else {
            Issue.record("the flip at 50 was not handed out before the end at 80")
            return
        }
        expectEqual(time, 50)
        expectEqual(k, 3)
        #expect(agenda.next(before: 80) == nil)
    }
}
