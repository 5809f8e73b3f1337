// Which of APNs' provider interfaces XIVA talks to (docs/model.md §11).

/// `apns.interface`: the HTTP/2 API (one answer per push, the default) or the legacy binary
/// interface (connections that answer only errors and close on them).
package enum ApnsInterface: String, Sendable, CaseIterable {
    case http2
    case binary
}
