// `--load-bin` and `--fleet`: how a run's load series is binned and to which fleet it is scaled (docs/model.md §14).
import PushSimCore
import PushSimExperiment
import PushSimReport
import PushSimScenarioFile

enum LoadOptions {
    // Described, not a value: a declared value would always be "given", and the run's own
    // default (wider bins past 100 000 minutes, docs/model.md §14) would never apply.
    static let bin = CommandOption("load-bin", .value("DURATION"), default: .described("1m; wider past 100 000 minutes"), help: """
        the width of a bin of the load series (load.csv, the JSON's `load`), with units
        like every duration (30s, 5m, 1h); it changes no count. By default a minute, and for a
        run longer than 100 000 minutes the first of 5m, 15m, 1h, 6h, 1d, 7d giving at most
        100 000 bins
        """)
    static let fleet = CommandOption("fleet", .value("N"), default: .described("not scaled"), help: """
        also scale the load figures to a fleet of N devices (2000000, 2M, 500k), assuming
        load adds over independent devices
        """)

    /// `sweep` and `optimize`: the fleet their load metrics are scaled to.
    static let sweepFleet = CommandOption("fleet", .value("N"), default: .described("not scaled"), help: """
        add the load metrics (re-requests at XIVA and pushes to APNs a
        second: mean, busiest second and minute) per 1 000 phones and for
        a fleet of N phones (2M, 500k); --load-bin alone adds them per 1 000
        """)

    /// The load metrics a sweep or an optimization carries (with `--fleet` or `--load-bin`),
    /// the bin set on every point of `plan`; nil without either option.
    static func sweepLoad(_ arguments: Arguments, plan: inout SweepPlan) throws -> SweepLoad? {
        let bin = try LoadOptions.bin(arguments)
        let fleet = try LoadOptions.fleet(arguments)
        guard bin != nil || fleet != nil else { return nil }
        if let bin {
            plan.base.loadBin = bin
            for i in plan.scenarios.indices { plan.scenarios[i].loadBin = bin }
        }
        return SweepLoad(fleet: fleet)
    }

    /// The bin width given, or the scenario's default; a usage error for anything but a positive duration.
    static func bin(_ arguments: Arguments) throws -> SimTime? {
        guard let text = arguments.value("load-bin") else { return nil }
        let bin: SimTime
        do { bin = try ValueParsers.duration(text) } catch {
            throw InputError.usage("--load-bin: \(error.message)")
        }
        guard bin.microseconds > 0 else { throw InputError.usage("--load-bin: expected a duration above 0, found `\(text)`") }
        return bin
    }

    /// The fleet given: a whole number, or one with k (thousand) or M (million), e.g. `2M`, `1.5M`.
    static func fleet(_ arguments: Arguments) throws -> Int? {
        guard let text = arguments.value("fleet") else { return nil }
        guard let n = parseCount(text) else {
            throw InputError.usage("--fleet: expected a number of devices from 1 to 10^12 such as 2000000, 2M or 500k, found `\(text)`")
        }
        return n
    }

    static func parseCount(_ text: String) -> Int? {
        var digits = Substring(text)
        var factor = 1.0
        if let last = digits.last, let f = ["k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9][last] { factor = f; digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              digits.filter({ $0 == "." }).count <= 1, digits.first != ".", digits.last != ".",
              let value = Double(digits) else { return nil }
        let n = (value * factor).rounded()
        guard n >= 1, n <= 1e12 else { return nil }
        return Int(n)
    }
}
