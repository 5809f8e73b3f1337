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
        .testTarget(name: "PushSimTests",
                    dependencies: ["PushSimCore", "PushSimScenarioFile", "PushSimExperiment", "PushSimReport", "PushSimCLI"],
                    path: "Tests/PushSimTests", exclude: ["Golden"]),
    ]
)
