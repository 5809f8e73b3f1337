// The contract's example scenario (scenario-format.md §2), verbatim, for the decoding tests.

package enum ContractExample {
    /// Copied from the contract, comments and all: the reader must take it as written.
    package static let text = #"""
name: commuters              # required; names the results folder
description: ...             # optional; shown in reports
seed: 7                      # default 1; same file + same seed = identical results
duration: 7d                 # required; letters are generated in [0, duration)
drain: 1d                    # default 1d; the run goes on this long with no new letters
devices: 10000               # required; ≥ 1

mail:                        # the mail backend
  rate: 40/d                 # Poisson rate of letters per device

connectivity:                # omit → always online
  online: exponential(3h)    # length of each online period   } both or neither; neither →
  offline: exponential(40m)  # length of each offline period  } online except in windows
  windows:                   # fixed offline windows for every device (default: none)
    - {start: 8h, end: 8h40m, every: 1d}   # offline in [start + k·every, end + k·every);
                                           # `every` omitted → once; end > start; time 0 is
                                           # midnight, so a night is {start: 23h, end: 31h, every: 1d}

xiva:
  drop: 0                    # probability a letter is dropped for an unknown subscription
  latency: 50ms              # backend → XIVA → APNs (distribution)
  retention: 3d              # how long numbered payloads can be re-sent; or forever
  request_latency: 300ms     # extension sends a re-request → its answer is back (distribution)
  request_error: 0           # probability a re-request is answered with an error
  resend_latency: 200ms      # answer → re-sent pushes reach APNs (distribution)

apns:
  loss: 0                    # probability a push is lost between XIVA and APNs
  latency: 100ms             # APNs → device when online (distribution; jitter reorders)
  expiration: 1d             # how long APNs stores for an offline device; 0 = not stored

device:
  alerts_off: 0              # per device, the probability that its notification display is
                             # off: the extension never runs there
  clear_after: forever       # the user clears a shown notification this long after it
                             # appears (distribution, drawn per presentation; or forever)

extension:
  deadline: 30s              # the extension's time budget
  processing: 200ms          # its own work before it would call the handler (distribution)

queue:
  mode: both                 # off | on | both: run without and with the push queue
  repeat_max_count: 10       # the largest gap that is re-requested; larger → summary
  collapse_id: true          # pushes of one letter share an apns-collapse-id
  client: intended           # intended | literal (the published snippet, see domain.md §5)
"""#

    /// Version 2's examples (scenario-format.md §6.1–6.5), as written there, in one file.
    package static let versionTwo = #"""
name: v2
duration: 7d
devices: 100
warmup: 1d                   # default 0; letters of [0, warmup) are simulated but not counted

mail:
  rate: 60/d
  daily_profile: [1,1,1,1,1,1,2,4,6,6,6,6,6,6,6,6,6,6,5,4,3,2,1,1]   # 24 weights, optional
  bursts: {rate: 1/d, size: 8, spread: 2m}                         # optional
# or, instead of rate, daily_profile and bursts:
#  trace: traffic.csv                                              # see below

connectivity:
  windows:
    - start: 22h             # nights that differ from phone to phone and from night to night
      length: uniform(6h, 9h)
      spread: 2h
      every: 1d

segments:
  - {name: commuters, share: 60%, connectivity: {windows: [{start: 8h, end: 8h40m, every: 1d}]}}
  - name: night-offline
    share: 40%
    mail: {rate: 20/d}
    connectivity:
      windows:
        - {start: 23h, end: 7h, every: 1d, spread: 1h}

apns:
  keep_older: 0              # probability the older push stays in the store ...
  keep_window: 1s            # ... when the newer one enters less than this after it
  duplicate: 0               # probability APNs hands a push to the device twice
"""#
}
