// PortableMath agrees with the C library to within a few ulps over the ranges the samplers use.
import Foundation
import Testing
@testable import PushSimCore
import PushSimTestSupport

@Suite struct PortableMathTests {
    /// Distance in units in the last place.
    func ulps(_ a: Double, _ b: Double) -> Double {
        if a == b { return 0 }
        return abs(a - b) / max(abs(b).ulp, Double.leastNormalMagnitude)
    }

    @Test func logMatchesTheCLibraryWithinFourUlps() {
        var rng = RandomStream(seed: 17)
        var worst = 0.0
        for _ in 0..<200_000 {
            // Uniform draws (what samplers take the log of) and values across many magnitudes.
            let u = rng.nextOpenUnit()
            let wide = Foundation.exp((rng.nextUnit() - 0.5) * 1400)
            worst = max(worst, ulps(PortableMath.log(u), Foundation.log(u)))
            worst = max(worst, ulps(PortableMath.log(wide), Foundation.log(wide)))
        }
        #expect(worst <= 4)
    }

    @Test func expMatchesTheCLibraryWithinFourUlps() {
        var rng = RandomStream(seed: 18)
        var worst = 0.0
        for _ in 0..<200_000 {
            let x = (rng.nextUnit() - 0.5) * 1400
            let g = (rng.nextUnit() - 0.5) * 20
            worst = max(worst, ulps(PortableMath.exp(x), Foundation.exp(x)))
            worst = max(worst, ulps(PortableMath.exp(g), Foundation.exp(g)))
            worst = max(worst, ulps(PortableMath.tableExp(x), Foundation.exp(x)))
            worst = max(worst, ulps(PortableMath.tableExp(g), Foundation.exp(g)))
        }
        #expect(worst <= 4)
    }

    /// exp's range reduction rounds without a libm call; it must be `rounded()` exactly, halves
    /// (away from zero) and the values just below them included, or draws would move.
    @Test func fastRoundingIsTheStandardRounding() {
        var rng = RandomStream(seed: 19)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994,
                                -0.49999999999999994, 1075.5, -1075.5, 1074.4999999999998]
        for _ in 0..<100_000 {
            values.append((rng.nextUnit() - 0.5) * 2200)
            values.append(Double(Int(rng.next() % 2000) - 1000) + 0.5)
        }
        let mismatches = values.filter { PortableMath.roundedHalfAwayFromZero($0) != $0.rounded() }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test func edgeValuesFollowTheCLibrary() {
        expectEqual(PortableMath.log(1), 0)
        expectEqual(PortableMath.log(0), -.infinity)
        #expect(PortableMath.log(-1).isNaN)
        expectEqual(PortableMath.log(.infinity), .infinity)
        #expect(PortableMath.log(.leastNonzeroMagnitude) < -744)
        expectEqual(PortableMath.exp(0), 1)
        expectEqual(PortableMath.exp(710), .infinity)
        expectEqual(PortableMath.exp(-746), 0)
        #expect(PortableMath.exp(-740) > 0)
        #expect(PortableMath.exp(.nan).isNaN)
        for x in [0.0, 710, -746, -740, 1, -1, 700, -700, 1e-300] {
            #expect(PortableMath.tableExp(x) == PortableMath.exp(x) || ulps(PortableMath.tableExp(x), Foundation.exp(x)) <= 4, "\(x)")
        }
        #expect(PortableMath.tableExp(.nan).isNaN)
    }
}
