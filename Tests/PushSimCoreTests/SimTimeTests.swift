// Tests of virtual time arithmetic at its edges.
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct SimTimeTests {
    @Test func foreverAbsorbsAddition() {
        #expect(SimTime.forever + SimTime(microseconds: 5) == .forever)
        #expect(SimTime(microseconds: Int64.max - 1) + SimTime(microseconds: 10) == .forever)
    }
    @Test func durationsPrintInFileSyntax() {
        #expect(SimTime(microseconds: 90 * SimTime.minute).description == "1h30m")
        #expect(SimTime(microseconds: 250 * SimTime.millisecond).description == "250ms")
        #expect(SimTime.zero.description == "0")
        #expect(SimTime.forever.description == "forever")
    }
}
