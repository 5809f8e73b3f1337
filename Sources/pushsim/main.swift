import PushSim
var s = Scenario(name: "smoke", duration: SimTime(microseconds: 7 * SimTime.day), devices: Int(CommandLine.arguments.dropFirst().first ?? "1000") ?? 1000)
s.connectivity.online = .exponential(mean: 3 * 3600e6)
s.connectivity.offline = .exponential(mean: 40 * 60e6)
s.apns.latency = .lognormal(median: 300e3, p99: 5e6)
s.device.clearAfter = .exponential(mean: 3600e6)
s.apns.loss = 0.01
let r = Simulator.run(s, jobs: 1)
print(r.json.prettyText)
