// A client supplied in Swift (PushSimClient): the built-in clients through the protocol, the example's client, its seeded bug.
import ExampleMailGapClient
import Foundation
import PushSimClient
import PushSimClientRunner
import PushSimTestSupport
import Testing

@Suite struct ClientGateTests {
    typealias S = CheckTestSupport

    /// The example's gate: examples/client-gate/pushsim, its scenario and the baseline the
    /// built-in intended client made.
    static let gate = FuzzCorpus.repositoryRoot + "/examples/client-gate/pushsim"

    /// The small check scenario with every mechanism that touches the saved position: device id
    /// changes, reinstalls (pushes with another install's hash), and parallel runs.
    static let everyMechanismOnTheSavedPosition = ["device.id_change=1/2d", "device.reinstall=1/3d",
                                                   "extension.concurrency=parallel", "extension.save_delay=exponential(2s)"]

    @Test(arguments: [(ClientVariantName.intended, false), (.literal, false), (.intended, true), (.literal, true)])
    func theBuiltInClientsThroughTheProtocolGiveTheirOwnNumbers(variant: ClientVariantName, everyMechanism: Bool) throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/clients.yaml"
        try S.write(S.scenarioText(name: "clients", devices: 120), to: scenario)
        let sets = ["queue.client=\(variant.rawValue)"] + (everyMechanism ? Self.everyMechanismOnTheSavedPosition : [])
        let builtIn = S.pushsim(["run", scenario, "--json", "--no-write", "--jobs", "1"] + sets.flatMap { ["--set", $0] })
        expectEqual(builtIn.status, 0, "\(builtIn.err)")
        let viaProtocol: String
        switch variant {
        case .intended: viaProtocol = try PushSim.run(scenarioAt: scenario, overrides: sets, client: IntendedClient())
        case .literal: viaProtocol = try PushSim.run(scenarioAt: scenario, overrides: sets, client: LiteralClient())
        }
        expectEqual(viaProtocol, builtIn.out)
        #expect(builtIn.out.contains("\"re_requests\""))
    }

    /// The check step of the example's pipeline (examples/client-gate/ci.sh), its arguments
    /// read from the script, run in-process: the example's client reproduces the committed
    /// baseline (made by the built-in intended client) exactly, and the seeded bug fails it.
    /// (.ci/run runs ci.sh itself, with the example's sources as PushSim's release build compiled them.)
    @Test func thePipelinesCheckStepPassesWithTheClientAndFailsWithTheSeededBug() throws {
        let script = try String(contentsOfFile: FuzzCorpus.repositoryRoot + "/examples/client-gate/ci.sh", encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("\"$gate\" check") })
        let words = line.prefix { $0 != "|" }.split(separator: " ").dropFirst().map(String.init)
        let arguments = words.map { $0.hasPrefix("pushsim/") ? Self.gate + $0.dropFirst("pushsim".count) : $0 }
        #expect(arguments.contains("--all") && arguments.contains("--tolerance"), "\(arguments)")
        let correct = PushSim.command(arguments, client: MailGapClient())
        expectEqual(correct.status, 0, "\(correct.output)\(correct.errors)")
        #expect(correct.output.contains("identical"), "\(correct.output)")
        let buggy = PushSim.command(arguments, client: MailGapClient(gapOffByOne: true))
        expectEqual(buggy.status, 1, "\(buggy.output)\(buggy.errors)")
    }

    @Test func theSeededOffByOneFailsCheckAgainstTheCorrectClientsBaseline() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = Self.gate + "/scenarios/gate.yaml"
        let baseline = folder + "/summary.json"
        let made = PushSim.command(["check", scenario, "--baseline", baseline, "--update"], client: MailGapClient())
        expectEqual(made.status, 0, "\(made.errors)")
        let correct = PushSim.command(["check", scenario, "--baseline", baseline], client: MailGapClient())
        #expect(correct.status == 0 && correct.output.contains("identical"), "\(correct.output)")
        let buggy = PushSim.command(["check", scenario, "--baseline", baseline], client: MailGapClient(gapOffByOne: true))
        expectEqual(buggy.status, 1, "\(buggy.output)\(buggy.errors)")
        // A single missed push is no longer seen: its letter is lost to an undetected gap.
        let verdict = try #require(buggy.output.split(separator: "\n").first { $0.hasPrefix("REGRESSION:") })
        #expect(verdict.contains("on.lost") && verdict.contains("on.causes.undetected_gap"), "\(buggy.output)")
    }

    /// A client that answers nonsense — ranges past the push, before position 1, a saved
    /// position far beyond anything numbered — is held to the positions XIVA numbered: the run
    /// ends normally, and its gaps are only of positions before each push.
    @Test func aClientsOutOfRangeAnswersAreKeptToTheNumberedPositions() throws {
        let folder = try S.temporaryFolder()
        defer { S.remove(folder) }
        let scenario = folder + "/wild.yaml"
        try S.write(S.scenarioText(name: "wild", devices: 40), to: scenario)
        let json = try PushSim.run(scenarioAt: scenario, overrides: Self.everyMechanismOnTheSavedPosition, client: WildClient())
        #expect(json.contains("\"re_requests\""))
        let nothing = try PushSim.run(scenarioAt: scenario, client: ShowsEverything())
        #expect(nothing.contains("\"re_requests\":0") && nothing.contains("\"gaps_detected\":0"), "\(nothing.prefix(2000))")
    }
}

enum ClientVariantName: String, CaseIterable, Sendable { case intended, literal }

/// Answers outside every sensible range, in turn.
struct WildClient: ExtensionClient {
    func decide(_ push: PushPayload, saved: SavedState, limits: ClientLimits) -> ClientStep {
        var next = saved
        next.position = push.position % 3 == 0 ? .max : push.position % 3 == 1 ? .min : -5
        switch push.position % 4 {
        case 0: return ClientStep(.reRequest(positions: (push.position)...(Int32.max)), saved: next)
        case 1: return ClientStep(.summarize(positions: Int32.min...(push.position - 1)), saved: next)
        case 2: return ClientStep(.reRequest(positions: Int32.min...0), saved: next)
        default: return ClientStep(.show, saved: next)
        }
    }
}

/// Never finds a gap: the queue arm recovers nothing.
struct ShowsEverything: ExtensionClient {
    func decide(_ push: PushPayload, saved: SavedState, limits: ClientLimits) -> ClientStep {
        ClientStep(.show, saved: SavedState(position: push.position, deviceIdHash: saved.deviceIdHash))
    }
}
