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
        .executableTarget(name: "pushsim", dependencies: ["PushSim"], path: "Sources/pushsim"),
        .testTarget(name: "PushSimTests", dependencies: ["PushSim"], path: "Tests/PushSimTests"),
    ]
)
