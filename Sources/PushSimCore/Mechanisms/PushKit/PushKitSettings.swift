// PushKit: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let callKitReports = StreamPurpose(frozen: 25)  // whether the app fails to report a VoIP push to CallKit (pushkit.report_failure)
}
