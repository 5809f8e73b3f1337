// Test support: running bash scripts with the built `pushsim` (and stand-ins) first on PATH.
import Foundation

package enum Shell {
    /// The package's root folder (the tests live three levels below it).
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A folder holding a `pushsim` link to the built tool, to put first on PATH; throws when the
    /// tool was not built.
    package static func toolFolder(in directory: TemporaryDirectory) throws -> String {
        let tool = try BuiltTool.required()
        let bin = directory.file("bin")
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: bin + "/pushsim", withDestinationPath: tool.path)
        return bin
    }

    /// Writes an executable script `name` into `folder`.
    package static func installScript(_ name: String, _ text: String, in folder: String) {
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
    }

    /// Runs `bash arguments…` in `directory` with `path` before the inherited PATH.
    package static func bash(_ arguments: [String], in directory: String, path: [String] = [], environment: [String: String] = [:])
        -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = (path + [env["PATH"] ?? "/usr/bin:/bin"]).joined(separator: ":")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        // Standard error goes to a file, so a chatty script cannot fill a pipe and stall.
        let errorFile = NSTemporaryDirectory() + "pushsim-shell-\(UUID().uuidString).err"
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorFile) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: errorFile)
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "", "\(error)") }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = FileManager.default.contents(atPath: errorFile) ?? Data()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    /// Copies `relative` (a file or folder of the package) into `directory`.
    package static func copy(_ relative: String, to directory: TemporaryDirectory) throws {
        let target = directory.file(relative)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packageRoot + "/" + relative, toPath: target)
    }
}
