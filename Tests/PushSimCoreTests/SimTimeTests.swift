// Tests of virtual time arithmetic at its edges.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct SimTimeTests {
    @Test func foreverAbsorbsAddition() {
        expectEqual(SimTime.forever + SimTime(microseconds: 5), .forever)
        expectEqual(SimTime(microseconds: Int64.max - 1) + SimTime(microseconds: 10), .forever)
    }
    @Test func durationsPrintInFileSyntax() {
        expectEqual(SimTime(microseconds: 90 * SimTime.minute).description, "1h30m")
        expectEqual(SimTime(microseconds: 250 * SimTime.millisecond).description, "250ms")
        expectEqual(SimTime.zero.description, "0")
        expectEqual(SimTime.forever.description, "forever")
    }
}
