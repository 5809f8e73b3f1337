// Hand-built scenarios shared by the tests of a mechanism and the tests pinning docs/model.md's rules about it.
@testable import PushSimCore

/// One device over the binary interface (docs/model.md §11): writes take 100 ms, an error is
/// heard 1 s after the bad notification arrives, APNs hands a push over in 100 ms, the extension
/// takes 200 ms.
package func binaryScenario(buffer: Int = 0, configure: (inout Scenario) -> Void = { _ in }) -> Scenario {
    var s = tinyScenario()
    s.apns.interface = .binary
    s.apns.connectionRatePerMicrosecond = 10 / 1e6
    s.apns.errorDelay = constant(1 * sec)
    s.apns.latency = constant(100 * ms)
    s.extension.processing = constant(200 * ms)
    s.xiva.resendBuffer = buffer
    configure(&s)
    return s
}

/// Six letters 1 ms apart from 1h, the second over the binary payload limit: the writes end
/// at 1h + 100, 200, …, 600 ms; the second arrives at w = 1h + 200 ms and is rejected, XIVA
/// hears of it at e = 1h + 1.2 s, and the four written after it reached a closed connection.
package let sixBinaryLetters = (0..<6).map { k in
    ScriptedLetter(time: 1 * hour + Int64(k) * ms, xivaLatency: 0, payloadTooLarge: k == 1)
}

/// The client catch-up (docs/model.md §7) with the user opening the app every `open`.
package func catchUpScenario(every open: Int64) -> Scenario {
    var s = tinyScenario()
    s.recovery = .catchUp
    s.device.appOpen = .constant(span(open))
    return s
}
