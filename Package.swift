// swift-tools-version:6.0
// PushSim: a deterministic discrete-event simulator of the mail push chain.
// The targets are the stages of docs/architecture.md; each imports only the ones before it:
// Core ← ScenarioFile ← Experiment ← Report ← CLI ← pushsim.
import PackageDescription

let package = Package(
    name: "PushSim",
    products: [
        .executable(name: "pushsim", targets: ["pushsim"]),
    ],
    targets: [
        .target(name: "PushSimCore", path: "Sources/PushSimCore"),
        .target(name: "PushSimScenarioFile", dependencies: ["PushSimCore"], path: "Sources/PushSimScenarioFile"),
        .target(name: "PushSimExperiment", dependencies: ["PushSimCore", "PushSimScenarioFile"],
                path: "Sources/PushSimExperiment"),
        .target(name: "PushSimReport", dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment"],
                path: "Sources/PushSimReport"),
        .target(name: "PushSimCLI",
                dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment", "PushSimReport"],
                path: "Sources/PushSimCLI"),
        .executableTarget(name: "pushsim", dependencies: ["PushSimCLI"], path: "Sources/pushsim"),
        // Tests mirror the stages: each test file sits in the target of the highest stage it
        // imports; helpers more than one target uses live in PushSimTestSupport (docs/architecture.md).
        .target(name: "PushSimTestSupport",
                dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment", "PushSimReport", "PushSimCLI"],
                path: "Tests/PushSimTestSupport"),
        .testTarget(name: "PushSimCoreTests", dependencies: ["PushSimCore", "PushSimTestSupport"],
                    path: "Tests/PushSimCoreTests"),
        .testTarget(name: "PushSimScenarioFileTests",
                    dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimTestSupport"],
                    path: "Tests/PushSimScenarioFileTests"),
        .testTarget(name: "PushSimExperimentTests",
                    dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment", "PushSimTestSupport"],
                    path: "Tests/PushSimExperimentTests"),
        .testTarget(name: "PushSimReportTests",
                    dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment", "PushSimReport",
                                   "PushSimTestSupport"],
                    path: "Tests/PushSimReportTests", exclude: ["Golden"]),
        .testTarget(name: "PushSimCLITests",
                    dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment", "PushSimReport",
                                   "PushSimCLI", "PushSimTestSupport"],
                    path: "Tests/PushSimCLITests", exclude: ["Golden"]),
    ]
)
