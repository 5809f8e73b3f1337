// swift-tools-version:6.0
// An app team's repository in miniature: its extension's gap logic (MailGapClient), and an
// executable that is `pushsim` with that logic deciding (docs/client.md). PushSim is a
// dependency by path here; a real client's repository pins a tag (docs/ci.md).
import PackageDescription

let package = Package(
    name: "client-gate",
    dependencies: [
        .package(name: "PushSim", path: "../.."),
    ],
    targets: [
        .target(name: "MailGapClient", dependencies: [.product(name: "PushSimClient", package: "PushSim")],
                path: "Sources/MailGapClient"),
        .executableTarget(name: "client-gate",
                          dependencies: ["MailGapClient", .product(name: "PushSimClient", package: "PushSim")],
                          path: "Sources/client-gate"),
    ]
)
