// The built pushsim executable, found beside the tests, and a way to run it as a separate process.
import Foundation
@testable import PushSimCLI
@testable import PushSimCore

/// The built `pushsim` executable, found next to the test bundle (SwiftPM puts every product of
/// a build in one folder), or in the package's default .build folder.
package enum BuiltTool {
    package static let url: URL? = {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        let argument0 = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        candidates.append(argument0.deletingLastPathComponent())
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(package.appendingPathComponent(".build/debug"))
        for folder in candidates {
            let tool = folder.appendingPathComponent("pushsim")
            if FileManager.default.isExecutableFile(atPath: tool.path) { return tool }
        }
        return nil
    }()

    /// The built tool, or an error saying it is missing: a test that needs the tool throws it
    /// and so fails, rather than passing without having run (`swift test` builds the tool).
    package static func required() throws -> URL {
        guard let url else {
            throw InputError.refused("the pushsim executable was not found next to the tests: build it first (swift build)")
        }
        return url
    }

    /// Runs the tool (with `environment` added to this process's); returns its exit status and standard output.
    package static func run(_ arguments: [String], input: Data? = nil, in directory: String? = nil,
                            environment: [String: String] = [:]) throws -> (status: Int32, output: String, error: String) {
        let url = try required()
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(input) }
        try inPipe.fileHandleForWriting.close()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }
}
