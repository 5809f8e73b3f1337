// One Swift image named everywhere: the Dockerfile's build image is the one docs/ci.md's pipelines run in.
import Foundation
import Testing
import PushSimTestSupport

@Suite struct SwiftImageTests {
    @Test func ciDocsAndTheDockerfileNameTheSameSwiftImage() throws {
        let dockerfile = try String(contentsOfFile: Shell.packageRoot + "/docs/cluster/Dockerfile", encoding: .utf8)
        // docs/ci.md and the client repository's pipeline (examples/client-gate) it shows.
        let ci = try ["/docs/ci.md", "/examples/client-gate/.github/workflows/pushsim.yml", "/examples/client-gate/ci.sh"]
            .map { try String(contentsOfFile: Shell.packageRoot + $0, encoding: .utf8) }.joined(separator: "\n")
        let build = try #require(dockerfile.split(separator: "\n").first { $0.hasPrefix("ARG SWIFT_IMAGE=") })
        let image = String(build.dropFirst("ARG SWIFT_IMAGE=".count))
        #expect(image.hasPrefix("swift:"))
        #expect(dockerfile.contains("ARG RUNTIME_IMAGE=\(image)-slim"))
        // Every image ci.md names is that one.
        let named = try NSRegularExpression(pattern: #"swift:[0-9][0-9A-Za-z.-]*"#)
            .matches(in: ci, range: NSRange(ci.startIndex..., in: ci))
            .compactMap { Range($0.range, in: ci).map { String(ci[$0]) } }
        #expect(!named.isEmpty)
        #expect(named.allSatisfy { $0 == image }, "docs/ci.md and examples/client-gate name \(Set(named).sorted()), the Dockerfile \(image)")
    }
}
