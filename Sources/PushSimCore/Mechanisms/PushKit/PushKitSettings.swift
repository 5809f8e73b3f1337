// PushKit: what the rest of PushSim reads of it, declared with it (its streams; its keys' types and its cost where it has them).

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let callKitReports = StreamPurpose(frozen: 25)  // whether the app fails to report a VoIP push to CallKit (pushkit.report_failure)
}
