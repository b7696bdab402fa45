import Foundation
import Testing

@testable import BokFuzz

/// Every input that ever crashed, hung or blew up a parser under `make fuzz` is kept in
/// `Tests/FuzzRegressions/TARGET/` and replayed here through the same entry point, with the seeds.
/// A regression shows as a crash or a hang of this suite; the time and memory limits fuzzing uses
/// are in docs/security.md.
struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions")

    static var saved: [(target: String, file: URL)] {
        let targets = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return targets.sorted().flatMap { target in
            let directory = folder.appendingPathComponent(target)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return files.filter { !$0.hasPrefix(".") }.sorted().map { (target, directory.appendingPathComponent($0)) }
        }
    }

    @Test func everySavedInputNamesAKnownTarget() {
        // `scenario` inputs are replayed by ClientTests (the parser is in the bok executable).
        for (target, file) in Self.saved where target != "scenario" {
            #expect(FuzzTargets.named(target) != nil, "\(file.path) is under an unknown target")
        }
    }

    @Test func savedInputsRunWithoutCrashing() throws {
        for (target, file) in Self.saved where target != "scenario" {
            let run = try #require(FuzzTargets.named(target))
            run([UInt8](try Data(contentsOf: file)))
        }
    }

    @Test func theSeedsRunWithoutCrashing() throws {
        for (target, files) in FuzzTargets.seeds {
            let run = try #require(FuzzTargets.named(target))
            for (_, text) in files { run(Array(text.utf8)) }
        }
    }
}
