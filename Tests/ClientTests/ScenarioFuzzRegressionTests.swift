import Foundation
import Testing

@testable import Client

/// Scenario files that once crashed or hung the parser under `make fuzz` (target `scenario`),
/// kept in Tests/FuzzRegressions/scenario/, and the shipped scenarios: the parser answers each
/// with a scenario or a list of mistakes, and never crashes.
struct ScenarioFuzzRegressionTests {
    @Test @MainActor func savedInputsAndShippedScenariosParseWithoutCrashing() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var files: [URL] = []
        for folder in ["Tests/FuzzRegressions/scenario", "scenarios"] {
            let directory = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            files += names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
        }
        #expect(files.contains { $0.pathExtension == "scenario" }, "the shipped scenarios are there to parse")
        for file in files {
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            _ = try? ScenarioParser.parse(text, file: file.lastPathComponent)
        }
    }
}
