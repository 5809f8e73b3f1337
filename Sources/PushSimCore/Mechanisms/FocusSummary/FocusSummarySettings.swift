// Focus and the scheduled summary: the settings the rest of the chain reads, declared with the mechanism.

/// Its streams, each identified as before (a frozen number or its name's hash), so no draw moves.
extension StreamPurpose {
    package static let notificationHolding = StreamPurpose(named: "notificationHolding") // whether a user has a summary, Focus windows, time-sensitive off (device.notification_summary, device.focus)
    package static let timeSensitive = StreamPurpose(named: "timeSensitive")     // whether a letter is sent time-sensitive (apns.time_sensitive)
}
