// Honest selection: whether the chosen value sits at the edge of the grid (the best may lie beyond it, with the next values to try), and which candidates the comparisons with the best show within δ of the best.
import PushSimScenarioFile

/// The chosen value of one numeric axis at its smallest or largest value.
package struct GridEdge: Equatable, Sendable {
    package enum Side: String, Sendable { case smallest, largest }
    package var path: String
    package var value: String
    package var side: Side
    /// The next values to try, in the chosen value's unit: beyond the edge by the grid's last
    /// step, or between the edge and its neighbour when beyond would leave the grid's sign.
    package var suggestions: [String]
    /// Whether the suggestions lie beyond the edge (false: between it and its neighbour).
    package var beyond: Bool

    /// The sentence the files and the terminal show.
    package var warning: String {
        let where_ = beyond
            ? "the best may lie beyond it"
            : "values beyond it would change sign, so the best may lie between it and its neighbour"
        var text = "`\(path)=\(value)` is the \(side.rawValue) value of the grid: \(where_)"
        if !suggestions.isEmpty {
            let ordered = side == .largest || !beyond ? [value] + suggestions : suggestions.reversed() + [value]
            text += "; try \(suggestions.joined(separator: ", ")) (`--over \(path)=\(ordered.joined(separator: ","))`)"
        }
        return text + "."
    }

    /// Every numeric axis (two values or more, each a number with the same kind of unit) whose
    /// value at the chosen point is the axis's smallest or largest. Axes of names or
    /// distributions have no edge.
    package static func edges(axes: [SweepAxis], chosen: SweepPoint) -> [GridEdge] {
        axes.compactMap { axis in
            guard let value = chosen.settings.first(where: { $0.path == axis.path })?.value else { return nil }
            return edge(axis, at: value)
        }
    }

    static func edge(_ axis: SweepAxis, at value: String) -> GridEdge? {
        let numbers = axis.values.compactMap(Quantity.init)
        guard numbers.count == axis.values.count, numbers.count >= 2, let here = Quantity(value),
              numbers.allSatisfy({ $0.dimension == here.dimension }) else { return nil }
        let sorted = numbers.map(\.base).sorted()
        let distinct = sorted.reduce(into: [Double]()) { if $0.last != $1 { $0.append($1) } }
        guard distinct.count >= 2 else { return nil }
        let side: Side
        let step: Double
        if here.base == distinct.last { side = .largest; step = distinct[distinct.count - 1] - distinct[distinct.count - 2] }
        else if here.base == distinct.first { side = .smallest; step = -(distinct[1] - distinct[0]) }
        else { return nil }
        let integers = axis.values.allSatisfy { !$0.contains(".") && !$0.lowercased().contains("e") }
        let nonNegative = distinct[0] >= 0
        // Below zero leaves the range of a key the grid keeps non-negative.
        var candidates = [here.base + step, here.base + 2 * step].filter { !(nonNegative && $0 < 0) }
        var beyond = true
        if candidates.isEmpty {
            // Nothing beyond: refine between the edge and its neighbour.
            candidates = [here.base - step / 4, here.base - step / 2]
            beyond = false
        }
        var seen = Set(distinct)
        let suggestions = candidates.compactMap { base -> String? in
            let rounded = integers ? (base / here.scale).rounded() * here.scale : base
            guard !seen.contains(rounded) else { return nil }
            seen.insert(rounded)
            return here.text(rounded, integer: integers)
        }
        return GridEdge(path: axis.path, value: value, side: side, suggestions: suggestions, beyond: beyond)
    }

    /// A number with an optional unit the file syntax takes (`30s`, `5m`, `1%`, `0.25`):
    /// durations in seconds, percentages as fractions, so `90s` and `2m` compare.
    struct Quantity {
        enum Dimension: Equatable { case plain, duration, percent }
        var base: Double
        var scale: Double
        var unit: String
        var dimension: Dimension

        static let durations: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]

        init?(_ text: String) {
            let trimmed = Substring(text)
            let digits = trimmed.prefix { "+-0123456789.eE".contains($0) }
            let unit = String(trimmed.dropFirst(digits.count))
            guard !digits.isEmpty, let number = Double(digits), number.isFinite else { return nil }
            if unit.isEmpty { scale = 1; dimension = .plain }
            else if unit == "%" { scale = 0.01; dimension = .percent }
            else if let factor = Self.durations.first(where: { $0.0 == unit })?.1 { scale = factor; dimension = .duration }
            else { return nil }
            self.unit = unit
            base = number * scale
        }

        /// `base` written in this quantity's unit.
        func text(_ base: Double, integer: Bool) -> String {
            // Nine decimals absorb the binary remainder of a step (0.1 + 0.2), never a real digit of a grid.
            let number = (base / scale * 1e9).rounded() / 1e9
            if (integer || number == number.rounded()), abs(number) < 1e15 { return String(Int(number.rounded())) + unit }
            return number.description + unit
        }
    }
}

extension ComparisonsWithTheBest {
    /// The candidates the comparisons with the best show within δ of the best (upper bound of
    /// μ_i − min_{l≠i} μ_l at most δ): with probability ≥ 1 − α together, each is practically
    /// as good as the chosen one. In system order.
    package static func withinDelta(_ comparisons: [ComparisonWithTheBest], delta: Double) -> [Int] {
        comparisons.filter { $0.upper <= delta }.map(\.system)
    }
}
