// swift-tools-version:6.0
// An app team's repository in miniature, with the extension's logic as it really is: batching,
// a rate cap and a summary (Sources/TeamGapClient, protocol version 2 of docs/client.md), and an
// executable that is `pushsim` with that logic deciding. PushSim is a dependency by path here.
import PackageDescription

let package = Package(
    name: "team-client",
    dependencies: [
        .package(name: "PushSim", path: "../.."),
    ],
    targets: [
        .target(name: "TeamGapClient", dependencies: [.product(name: "PushSimClient", package: "PushSim")],
                path: "Sources/TeamGapClient"),
        .executableTarget(name: "team-client",
                          dependencies: ["TeamGapClient", .product(name: "PushSimClient", package: "PushSim")],
                          path: "Sources/team-client"),
    ]
)
