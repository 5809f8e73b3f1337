// swift-tools-version:6.2
// PushSim: a deterministic discrete-event simulator of the mail push chain.
// The targets are the stages of docs/architecture.md; each imports only the ones before it:
// Client ← Core ← ScenarioFile ← Experiment ← Report ← CLI ← pushsim; PushSimClientRunner, the public
// entry for a client supplied in Swift, sits beside pushsim (docs/client.md).
import PackageDescription

// The tests' own code is compiled without optimisation in every configuration: what the tests
// simulate runs in the engine's modules, which `-c release` optimises, while optimising the
// assertions around it would only lengthen the README's test build. (Still whole-module, as a
// release build compiles: one job per module rather than one per file, each of which would load
// the engine's interfaces again.) Unoptimised whole-module code would have its module emitted by
// a job of its own, which lets the modules importing it start sooner but type-checks every
// declaration a second time; on two cores the CPU counts for more, so the job that compiles the
// module also emits it.
let withoutOptimisation: [SwiftSetting] = [
    .unsafeFlags(["-Onone", "-no-emit-module-separately-wmo"], .when(configuration: .release)),
]
let testCodeSettings = withoutOptimisation

// The sanitizers' builds in .ci/run compile only the test files of the suites they run: with
// PUSHSIM_ONLY_TEST_FILES set (paths from the package's folder, separated by spaces), a test
// target holds just those of its files, and a test target with none of them is left out. Unset,
// every test file is compiled.
let onlyTestFiles: [String]? = Context.environment["PUSHSIM_ONLY_TEST_FILES"].map {
    $0.split(separator: " ").map(String.init)
}

// In those builds only the engine is optimised (PushSimCore: the worlds, their steppers and the
// shared servers): the stages around it, PushSimExperiment's orchestration of runs among them, do
// little of the work in the sanitizers' suites, and compiled without optimisation they cost a
// fraction of the build.
let aroundTheEngine: [SwiftSetting] = onlyTestFiles == nil ? [] : withoutOptimisation

func testTarget(name: String, dependencies: [Target.Dependency], path: String, exclude: [String] = [],
                swiftSettings: [SwiftSetting]) -> Target {
    let sources = onlyTestFiles.map { files in
        files.filter { $0.hasPrefix(path + "/") }.map { String($0.dropFirst(path.count + 1)) }
    }
    return .testTarget(name: name, dependencies: dependencies, path: path, exclude: exclude, sources: sources,
                       swiftSettings: swiftSettings)
}

let package = Package(
    name: "PushSim",
    products: [
        .executable(name: "pushsim", targets: ["pushsim"]),
        // The extension's decision as a protocol, and the entry that runs scenarios with a
        // client an app team supplies (docs/client.md; examples/client-gate uses it).
        .library(name: "PushSimClient", targets: ["PushSimClient", "PushSimClientRunner"]),
    ],
    targets: [
        .target(name: "PushSimClient", path: "Sources/PushSimClient"),
        // A prefetch instruction for the coupled stepper, which Swift does not reach on its own.
        .target(name: "PushSimPrefetch", path: "Sources/PushSimPrefetch"),
        // The engine. Compiled with strict memory safety, its diagnostics errors: raw memory is
        // written only in Sources/PushSimCore/Memory/ (checked by .ci/memory-fence).
        .target(name: "PushSimCore", dependencies: ["PushSimClient", "PushSimPrefetch"], path: "Sources/PushSimCore",
                swiftSettings: [.strictMemorySafety(), .treatWarning("StrictMemorySafety", as: .error)]),
        .target(name: "PushSimScenarioFile", dependencies: ["PushSimCore"], path: "Sources/PushSimScenarioFile",
                swiftSettings: aroundTheEngine),
        .target(name: "PushSimExperiment", dependencies: ["PushSimCore", "PushSimScenarioFile"],
                path: "Sources/PushSimExperiment", swiftSettings: aroundTheEngine),
        .target(name: "PushSimReport", dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment"],
                path: "Sources/PushSimReport", swiftSettings: aroundTheEngine),
        .target(name: "PushSimCLI",
                dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment", "PushSimReport"],
                path: "Sources/PushSimCLI", swiftSettings: aroundTheEngine),
        .target(name: "PushSimClientRunner", dependencies: ["PushSimClient", "PushSimCore", "PushSimCLI"],
                path: "Sources/PushSimClientRunner", swiftSettings: aroundTheEngine),
        .executableTarget(name: "pushsim", dependencies: ["PushSimCLI"], path: "Sources/pushsim"),
        // Tests mirror the stages: each test file sits in the target of the highest stage it
        // imports; helpers more than one target uses live in PushSimTestSupport (docs/architecture.md).
        .target(name: "PushSimTestSupport",
                dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment", "PushSimReport", "PushSimCLI"],
                path: "Tests/PushSimTestSupport", swiftSettings: testCodeSettings),
        testTarget(name: "PushSimCoreTests", dependencies: ["PushSimCore", "PushSimTestSupport"],
                   path: "Tests/PushSimCoreTests", swiftSettings: testCodeSettings),
        testTarget(name: "PushSimScenarioFileTests",
                   dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimTestSupport"],
                   path: "Tests/PushSimScenarioFileTests", swiftSettings: testCodeSettings),
        testTarget(name: "PushSimExperimentTests",
                   dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment", "PushSimTestSupport"],
                   path: "Tests/PushSimExperimentTests", swiftSettings: testCodeSettings),
        testTarget(name: "PushSimReportTests",
                   dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment", "PushSimReport",
                                  "PushSimTestSupport"],
                   path: "Tests/PushSimReportTests", exclude: ["Golden"], swiftSettings: testCodeSettings),
        // The example client's gap logic (examples/client-gate, a package of its own) compiled
        // here too, so the CLI tests run it in-process; .ci/run builds the example itself.
        .target(name: "ExampleMailGapClient", dependencies: ["PushSimClient"],
                path: "examples/client-gate/Sources/MailGapClient"),
        // The team's client of protocol version 2 (examples/team-client), likewise.
        .target(name: "ExampleTeamGapClient", dependencies: ["PushSimClient"],
                path: "examples/team-client/Sources/TeamGapClient"),
        // The two examples' executables, built here so that .ci/run's client gates need no build
        // of their own; their sources import the client module by the example's own name.
        .executableTarget(name: "ExampleClientGate",
                          dependencies: ["ExampleMailGapClient", "PushSimClient", "PushSimClientRunner"],
                          path: "examples/client-gate/Sources/client-gate",
                          swiftSettings: [.unsafeFlags(["-module-alias", "MailGapClient=ExampleMailGapClient"])]),
        .executableTarget(name: "ExampleTeamClient",
                          dependencies: ["ExampleTeamGapClient", "PushSimClient", "PushSimClientRunner"],
                          path: "examples/team-client/Sources/team-client",
                          swiftSettings: [.unsafeFlags(["-module-alias", "TeamGapClient=ExampleTeamGapClient"])]),
        testTarget(name: "PushSimCLITests",
                   dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment", "PushSimReport",
                                  "PushSimCLI", "PushSimTestSupport", "PushSimClient", "PushSimClientRunner",
                                  "ExampleMailGapClient", "ExampleTeamGapClient"],
                   path: "Tests/PushSimCLITests", exclude: ["Golden"], swiftSettings: testCodeSettings),
    ]
)
package.targets.removeAll { $0.type == .test && $0.sources?.isEmpty == true }
// Those builds run test suites and nothing else: none of their suites launches an executable, so
// the executables are left out, with the libraries only they and the left-out tests use.
if onlyTestFiles != nil {
    var unused: Set<String> = ["pushsim", "ExampleClientGate", "ExampleTeamClient"]
    if !package.targets.contains(where: { $0.name == "PushSimCLITests" }) {
        unused.formUnion(["PushSimClientRunner", "ExampleMailGapClient", "ExampleTeamGapClient"])
    }
    package.targets.removeAll { unused.contains($0.name) }
    package.products.removeAll()
}
