// The fuzzers' seeds (the bundled scenarios and the contract's example) and the repository root.
import Foundation

/// The bundled scenarios (and the contract's example), as bytes: the fuzzer's seeds.
package enum FuzzCorpus {
    package static let repositoryRoot: String = {
        // Tests/PushSimTestSupport/ThisFile.swift → the repository root.
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    package static let files: [(name: String, bytes: [UInt8])] = {
        let folder = repositoryRoot + "/scenarios"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
        var files = names.compactMap { name -> (String, [UInt8])? in
            guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { return nil }
            return (name, [UInt8](data))
        }
        files.append(("contract-example.yaml", Array(ContractExample.text.utf8)))
        files.append(("contract-v2.yaml", Array(ContractExample.versionTwo.utf8)))
        files.append(("sweep.yaml", Array((minimalScenario + "sweep:\n  queue.repeat_max_count: [0, 5]\n  connectivity.windows: [[{start: 1h, end: 2h, every: 1d}]]\n").utf8)))
        return files
    }()
}
