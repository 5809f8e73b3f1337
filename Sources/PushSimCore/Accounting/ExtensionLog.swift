// The published client's log as data: one row per push its extension saw, and the answer its gap got.

/// What became of the gap a logged push revealed, in the words of the log's `answer` column
/// (docs/model.md §2, "The extension's log"). Decided by the client's own view: what it saw
/// before its run ended, not what XIVA did afterwards.
package enum LogAnswer: String, CaseIterable, Sendable {
    /// No gap: the push's position follows the saved one (or is the first one saved).
    case none
    /// The gap was larger than `repeat_max_count`: "N missed messages" was shown, nothing re-requested.
    case summarized
    /// The re-request was sent and XIVA's answer came while the extension waited.
    case answered
    /// The re-request was sent and XIVA answered with an error (a request error, an outage) while the extension waited.
    case error
    /// The re-request was sent, but the extension's deadline came before the answer.
    case timeout
    /// A gap was found, but neither the re-request nor the summary was made: the extension's
    /// time ran out (its deadline, a memory kill) or the run ended first.
    case notSent = "not_sent"
    /// The re-request was sent; neither its answer nor the deadline came before the run ended.
    case pending

    /// Its place in ``allCases`` (the order of the hourly summary's answer columns).
    package var ordinal: Int {
        switch self {
        case .none: return 0
        case .summarized: return 1
        case .answered: return 2
        case .error: return 3
        case .timeout: return 4
        case .notSent: return 5
        case .pending: return 6
        }
    }

    /// Whether the client sent a re-request for this row's gap.
    package var reRequested: Bool {
        switch self {
        case .answered, .error, .timeout, .pending: return true
        case .none, .summarized, .notSent: return false
        }
    }
}

/// One row of the extension's log: which device, when the push reached the extension (µs since
/// time 0), its XIVA position, the size of the gap it revealed (0: none) and that gap's answer.
package struct LoggedPush: Equatable, Sendable {
    package var device: Int
    package var time: Int64
    package var position: Int
    package var gapSize: Int
    package var answer: LogAnswer

    package init(device: Int, time: Int64, position: Int, gapSize: Int, answer: LogAnswer) {
        self.device = device; self.time = time; self.position = position; self.gapSize = gapSize; self.answer = answer
    }

    package var gapFound: Bool { gapSize > 0 }

    /// The log file's header, in column order: the writer prints it and the reader expects it.
    package static let columns = ["device", "time_us", "position", "gap_found", "gap_size", "answer"]
}

/// Collects the log rows of one world's queue arm while it runs (set only with `run --logs`,
/// so a run without it pays one nil check per extension run). Rows are in the order the
/// extension decided on the pushes (the arrival; a version-2 client's wake for a run that
/// waited); a row's answer is filled in by the step that decides it.
package final class ExtensionLogRecorder {
    package private(set) var rows: [LoggedPush] = []
    /// Each extension run's row in `rows`, or -1 for a run that logs nothing (a warm-up letter's).
    private var rowOfRun: [Int32] = []
    /// Whether a row was moved to a later time (a run that waited, decided at its wake).
    private var moved = false

    package init() {}

    /// An arm starts: nothing logged yet (the arrays keep their memory).
    func startArm() {
        rows.removeAll(keepingCapacity: true)
        rowOfRun.removeAll(keepingCapacity: true)
        moved = false
    }

    /// Extension run `run` started; `row` is its line, or nil when it logs none.
    func started(run: Int, _ row: LoggedPush?) {
        while rowOfRun.count < run { rowOfRun.append(-1) }
        if let row {
            rowOfRun.append(Int32(rows.count))
            rows.append(row)
        } else {
            rowOfRun.append(-1)
        }
    }

    /// The answer of run `run`'s gap is now known.
    func answer(run: Int, _ answer: LogAnswer) {
        guard run < rowOfRun.count, rowOfRun[run] >= 0 else { return }
        rows[Int(rowOfRun[run])].answer = answer
    }

    /// Run `run` waited and decided at `time`: its row is logged then, with the gap decided.
    func decided(run: Int, at time: Int64, gapSize: Int, answer: LogAnswer) {
        guard run < rowOfRun.count, rowOfRun[run] >= 0 else { return }
        let i = Int(rowOfRun[run])
        rows[i].time = time
        rows[i].gapSize = gapSize
        rows[i].answer = answer
        moved = true
    }

    /// The rows logged so far, in time order (rows of one instant in the order they were
    /// made), leaving none.
    package func take() -> [LoggedPush] {
        defer { rows = []; rowOfRun = []; moved = false }
        guard moved else { return rows }
        return rows.indices.sorted { (rows[$0].time, $0) < (rows[$1].time, $1) }.map { rows[$0] }
    }
}
