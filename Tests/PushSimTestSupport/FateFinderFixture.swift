// The scenario the fate finder and `pushsim find` tests search: letters lost for several causes.

package enum FateFinderFixture {
    package static let text = """
    name: find
    duration: 2d
    devices: 40
    seed: 9
    mail: {rate: 60/d}
    connectivity: {online: exponential(2h), offline: exponential(1h)}
    xiva: {drop: 2%}
    apns: {loss: 1%, expiration: 6h}
    device: {alerts_off: 10%}
    queue: {repeat_max_count: 3}
    """
}
