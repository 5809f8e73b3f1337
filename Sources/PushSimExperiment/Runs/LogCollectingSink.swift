// A sink that keeps, beside another sink's counts, each world's extension log rows (`run --logs`).
import PushSimCore

/// Forwards the counts to `inner` and takes each world's log rows when it finishes an arm.
/// Worlds of a coupled partition finish in any order, so the rows are put in device order at
/// the end (each device logs in one arm, so the order is total).
struct LogCollectingSink<Inner: DeviceLedgerSink>: DeviceLedgerSink {
    var inner: Inner
    private var pieces: [(device: Int, rows: [LoggedPush])] = []

    init(_ inner: Inner) { self.inner = inner }

    mutating func account(device: Int, segment: Int?, arm: Int, _ body: (inout Ledger) -> Void) {
        inner.account(device: device, segment: segment, arm: arm, body)
    }

    /// As the inner sink: a world that keeps a log does not settle in flight anyway.
    var takesSettledLetters: Bool { inner.takesSettledLetters }

    mutating func partitionQueue(arm: Int, maxQueue: Int, maxQueueBySegment: [Int], series: XivaQueueSeries) {
        inner.partitionQueue(arm: arm, maxQueue: maxQueue, maxQueueBySegment: maxQueueBySegment, series: series)
    }

    mutating func finished(device: Int, arm: Int, world: borrowing DeviceWorld) {
        inner.finished(device: device, arm: arm, world: world)
        guard let log = world.extensionLog else { return }
        let rows = log.take()
        if !rows.isEmpty { pieces.append((device, rows)) }
    }

    /// The rows by device, then in the order each device's extension saw its pushes.
    var rows: [LoggedPush] {
        pieces.sorted { $0.device < $1.device }.flatMap(\.rows)
    }
}
