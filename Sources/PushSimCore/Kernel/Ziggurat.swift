// Normal and exponential variates by Marsaglia and Tsang's ziggurat: one 64-bit draw almost always.

/// The layer tables of a ziggurat for a decreasing density f on [0, ∞).
///
/// The area under f is covered by `layers` horizontal strips of equal area `v`: strip i spans
/// [0, edge[i]] horizontally and lies between heights f(edge[i]) and f(edge[i + 1]); strip 0 is
/// the base, a rectangle of width r plus the tail beyond r, given the pseudo-width v / f(r). A
/// draw picks a strip and a point x uniformly across its width: when x < edge[i + 1] the point
/// is under the curve for certain (about 99 % of draws, one random number, no logarithm);
/// otherwise a second number tests the wedge, or the base strip samples the tail.
///
/// The tables are computed here from r and v (Marsaglia & Tsang, "The Ziggurat Method for
/// Generating Random Variables", 2000) with `PortableMath`, so they are the same bits on every
/// platform and so are the draws.
///
/// The two tables are never written after they are built, so threads share them, and the
/// table copies as a plain value (a sampler that holds one stays trivially copyable). They are
/// fixed-size (room for 256 strips and the edge at 0), so a strip index taken from a draw's
/// low bits is within them by its mask, and the hot path reads them without a bounds check.
package struct ZigguratTable: Sendable {
    /// The most strips a table has.
    static let maxLayers = 256
    /// The strips' edges and densities, made once for the program.
    private let strips: Immortal<Strips>
    struct Strips {
        /// edge[0] = v / f(r), edge[1] = r, decreasing to edge[layers] = 0 (0 beyond).
        var edge: InlineArray<257, Double>
        /// density[i] = f(edge[i]); density[layers] = f(0) = 1 (1 beyond).
        var density: InlineArray<257, Double>
    }
    /// edge[i], read in place.
    var edge: InlineArray<257, Double> { @inline(__always) _read { yield strips.value.edge } }
    /// density[i], read in place.
    var density: InlineArray<257, Double> { @inline(__always) _read { yield strips.value.density } }
    let layers: Int
    let tailStart: Double

    init(layers: Int, tailStart r: Double, stripArea v: Double,
         density f: (Double) -> Double, inverse: (Double) -> Double) {
        var edge = [Double](repeating: 0, count: layers + 1)
        edge[0] = v / f(r)
        edge[1] = r
        for i in 1..<(layers - 1) {
            edge[i + 1] = inverse(v / edge[i] + f(edge[i]))
        }
        edge[layers] = 0
        precondition(layers <= Self.maxLayers, "a ziggurat of more than \(Self.maxLayers) strips")
        var edges = InlineArray<257, Double>(repeating: 0)
        var densities = InlineArray<257, Double>(repeating: f(0))
        for i in 0...layers {
            edges[i] = edge[i]
            densities[i] = f(edge[i])
        }
        strips = Immortal(Strips(edge: edges, density: densities))
        self.layers = layers
        self.tailStart = r
    }

    /// f(x) = exp(−x²/2), 128 strips.
    package static let normal = ZigguratTable(
        layers: 128, tailStart: 3.442619855899, stripArea: 9.91256303526217e-3,
        density: { PortableMath.exp(-0.5 * $0 * $0) },
        inverse: { (-2 * PortableMath.log($0)).squareRoot() })

    /// f(x) = exp(−x), 256 strips.
    package static let exponential = ZigguratTable(
        layers: 256, tailStart: 7.69711747013104972, stripArea: 3.949659822581572e-3,
        density: { PortableMath.exp(-$0) },
        inverse: { -PortableMath.log($0) })
}

extension RandomStream {
    /// A standard normal draw by the ziggurat (128 strips). The low 7 bits of the draw pick
    /// the strip, bit 7 the sign, the top 53 bits the position; the bits do not overlap.
    /// The common case is inlined where it is used; `table` lets a hot loop fetch the
    /// (lazily built) table once instead of on every draw.
    @inline(__always)
    package mutating func nextGaussian(_ table: ZigguratTable = .normal) -> Double {
        let bits = next()
        let strip = Int(bits & 127)
        let x = Double(bits >> 11) * 0x1.0p-53 * table.edge[strip]
        if x < table.edge[strip + 1] { return bits & 128 != 0 ? -x : x }
        return gaussianOutsideTheCore(table, bits: bits, x: x)
    }

    /// The rare rest of ``nextGaussian(_:)``: the tail or a wedge for this draw, then fresh
    /// draws until one is accepted.
    @inline(never)
    mutating func gaussianOutsideTheCore(_ table: ZigguratTable, bits first: UInt64, x firstX: Double) -> Double {
        var bits = first, x = firstX
        while true {
            let strip = Int(bits & 127)
            let negative = bits & 128 != 0
            if x < table.edge[strip + 1] { return negative ? -x : x }
            if strip == 0 {
                // The tail beyond r (Marsaglia's method): exact, and needed once in ~4 000 draws.
                while true {
                    let a = -PortableMath.log(nextOpenUnit()) / table.tailStart
                    let b = -PortableMath.log(nextOpenUnit())
                    if b + b > a * a {
                        let tail = table.tailStart + a
                        return negative ? -tail : tail
                    }
                }
            }
            // The wedge between the strip's two heights: accept under the curve.
            let height = table.density[strip] + nextUnit() * (table.density[strip + 1] - table.density[strip])
            if height < PortableMath.exp(-0.5 * x * x) { return negative ? -x : x }
            bits = next()
            x = Double(bits >> 11) * 0x1.0p-53 * table.edge[Int(bits & 127)]
        }
    }

    /// A standard exponential draw (mean 1) by the ziggurat (256 strips): the low 8 bits pick
    /// the strip, the top 53 bits the position. Inlined like ``nextGaussian(_:)``.
    @inline(__always)
    package mutating func nextExponential(_ table: ZigguratTable = .exponential) -> Double {
        let bits = next()
        let strip = Int(bits & 255)
        let x = Double(bits >> 11) * 0x1.0p-53 * table.edge[strip]
        if x < table.edge[strip + 1] { return x }
        return exponentialOutsideTheCore(table, bits: bits, x: x)
    }

    /// The rare rest of ``nextExponential(_:)``.
    @inline(never)
    mutating func exponentialOutsideTheCore(_ table: ZigguratTable, bits first: UInt64, x firstX: Double) -> Double {
        var bits = first, x = firstX
        var shift = 0.0
        while true {
            let strip = Int(bits & 255)
            if x < table.edge[strip + 1] { return shift + x }
            if strip == 0 {
                // Memoryless: beyond r the excess is again a standard exponential.
                shift += table.tailStart
            } else {
                let height = table.density[strip] + nextUnit() * (table.density[strip + 1] - table.density[strip])
                if height < PortableMath.exp(-x) { return shift + x }
            }
            bits = next()
            x = Double(bits >> 11) * 0x1.0p-53 * table.edge[Int(bits & 255)]
        }
    }
}
