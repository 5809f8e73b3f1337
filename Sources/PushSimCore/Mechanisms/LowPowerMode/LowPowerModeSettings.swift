// Low Power Mode: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let lowPower = StreamPurpose(named: "lowPower")               // whether a phone goes into Low Power Mode (device.low_power)
    package static let lowPowerRelease = StreamPurpose(named: "lowPowerRelease") // per arm: the order of a shuffled release (device.low_power)
}
