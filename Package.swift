// swift-tools-version:6.0
// PushSim: a deterministic discrete-event simulator of the mail push chain.
import PackageDescription

let package = Package(
    name: "PushSim",
    products: [
        .library(name: "PushSim", targets: ["PushSim"]),
        .executable(name: "pushsim", targets: ["pushsim"]),
    ],
    targets: [
        .target(name: "PushSim", path: "Sources/PushSim"),
        .target(name: "PushSimCLI", dependencies: ["PushSim"], path: "Sources/PushSimCLI"),
        .executableTarget(name: "pushsim", dependencies: ["PushSimCLI"], path: "Sources/pushsim"),
        .testTarget(name: "PushSimTests", dependencies: ["PushSim", "PushSimCLI"], path: "Tests/PushSimTests",
                    exclude: ["Golden"]),
    ]
)
