import Foundation
import Localization

/// What the steps of a scenario may reach. A scenario is a file a tester downloads and runs, so
/// bok does not trust it (docs/security.md, "Scenario files"):
/// - secrets (`pin: file`, a step's `--pin-file` or `--password-file`) come only from files beside
///   the scenario or named by the tester on the command line (`scenario run --pin-file F`);
///   `pin: env` reads only `BOK_…` variables (checked when the file is read); `--pin-stdin` is
///   refused, standard input being the tester's;
/// - the session stays on the library the run started with: `library add`, `use` and `remove` are
///   refused, so no PIN can be sent to a server the file names;
/// - a file a step writes (`read … --aloud --to F`) goes into the run's own folder.
struct ScenarioConfinement: Sendable {
    /// The scenario file's folder, as a real path: secrets may be read from files under it.
    let scenarioFolder: String
    /// Files the tester named on the command line, as real paths.
    let namedFiles: Set<String>
    /// The run's own folder, where files the steps write go (removed with the run).
    let outputFolder: String

    init(scenarioFile: String, namedFiles: [String], outputFolder: String) {
        let folder = URL(fileURLWithPath: scenarioFile).deletingLastPathComponent().path
        scenarioFolder = Self.realPath(folder) ?? folder
        self.namedFiles = Set(namedFiles.compactMap(Self.realPath))
        self.outputFolder = outputFolder
    }

    /// The file a secret may be read from: `path` relative to the scenario's folder (or absolute),
    /// when it lies under that folder or is one the tester named.
    /// - Throws: `UserError` saying where secrets may come from.
    func secretFile(_ path: String) throws -> URL {
        let url =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: path) : URL(fileURLWithPath: scenarioFolder).appendingPathComponent(path)
        // Links are followed before the check, so a link beside the scenario cannot point elsewhere.
        guard let real = Self.realPath(url.path) else { return url }
        guard real.hasPrefix(scenarioFolder + "/") || namedFiles.contains(real) else {
            throw UserError(
                tr(
                    "a scenario reads secrets only from files beside it or named with scenario run --pin-file; "
                        + "{file} is neither.",
                    ["file": path]))
        }
        return URL(fileURLWithPath: real)
    }

    /// Where a file a step writes goes: a plain name (or a path inside the run's folder), never outside it.
    /// - Throws: `UserError` for an absolute path, `~` or `..`.
    func outputPath(_ path: String) throws -> String {
        let parts = path.split(separator: "/")
        guard !path.hasPrefix("/"), !path.hasPrefix("~"), !parts.contains(".."), !parts.isEmpty else {
            throw UserError(
                tr(
                    "In a scenario, files are written in the run's own folder: give a plain name such as "
                        + "--to book.wav, not {path}.",
                    ["path": path]))
        }
        return outputFolder + "/" + path
    }

    /// `library add|use|remove` in a step.
    static func libraryChangeRefused(_ verb: String) -> UserError {
        UserError(
            tr(
                "library {verb} is not allowed in a scenario file: a scenario runs only on the library it started "
                    + "with, so that no PIN goes to a server the file names.",
                ["verb": verb]))
    }

    /// `--pin-stdin` or `--password-stdin` in a step.
    static func standardInputRefused(_ option: String) -> UserError {
        UserError(
            tr(
                "--{option} is not allowed in a scenario file: standard input is the tester's. Use pin: in the file.",
                ["option": option]))
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
