public import Foundation
import Localization

/// Whether a screen reader or a braille display is evidently reading this computer's terminals,
/// and what showed it: the evidence `screen-reader = auto` (the default) turns the screen-reader
/// output mode on by.
///
/// What counts is listed in `docs/accessibility.md`; each is cheap to look at (a variable, a
/// path, the names of running programs), so that the look costs a start nothing it would notice.
/// Variables that distributions set for every desktop session (`QT_ACCESSIBILITY`,
/// `GTK_MODULES=gail:atk-bridge`) are not evidence: they would turn the mode on for everyone.
public struct ScreenReaderDetection: Sendable, Hashable {
    /// What was found, in the order looked at: `BRLTTY (BRLAPI_HOST)`, `Speakup (/sys/accessibility/speakup)`.
    public let evidence: [String]

    /// Whether anything showed a screen reader or braille display at work.
    public var found: Bool { !evidence.isEmpty }

    /// Creates a detection with the evidence given.
    public init(evidence: [String]) {
        self.evidence = evidence
    }

    /// Paths whose presence shows a screen reader: BRLTTY's BrlAPI socket folders and pid files,
    /// Speakup's kernel interfaces (sysfs since Linux 2.6.37; `/proc/speakup` before it).
    public static let paths: [(reader: String, path: String)] = [
        ("BRLTTY", "/var/lib/BrlAPI/0"),
        ("BRLTTY", "/run/brltty/BrlAPI/0"),
        ("BRLTTY", "/run/brltty.pid"),
        ("BRLTTY", "/var/run/brltty.pid"),
        ("Speakup", "/sys/accessibility/speakup"),
        ("Speakup", "/proc/speakup"),
    ]

    /// Programs whose running shows a screen reader: the braille daemon, Speakup's voice, Orca.
    public static let programs: [(reader: String, name: String)] = [
        ("BRLTTY", "brltty"), ("Speakup", "espeakup"), ("Orca", "orca"),
    ]

    /// Variables that say a screen reader is at work: BrlAPI's own (which point programs at
    /// BRLTTY), and those Debian's accessible installation and GNOME set when its screen reader
    /// is on (`ACCESSIBILITY_ENABLED=1`, `GNOME_ACCESSIBILITY=1`).
    public static let variables: [(reader: String, name: String, value: String?)] = [
        ("BRLTTY", "BRLAPI_HOST", nil), ("BRLTTY", "BRLAPI_AUTH", nil),
        ("a screen reader", "ACCESSIBILITY_ENABLED", "1"), ("Orca", "GNOME_ACCESSIBILITY", "1"),
    ]

    /// Looks at the environment, the paths and the running programs.
    /// - Parameters:
    ///   - environment: the process environment; tests pass their own.
    ///   - exists: whether a path exists; tests pass their own.
    ///   - runningPrograms: the names of the running programs (`/proc/PID/comm`), asked only when
    ///     neither a variable nor a path answered.
    public static func detect(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) },
        runningPrograms: () -> Set<String> = Self.runningPrograms
    ) -> ScreenReaderDetection {
        var evidence: [String] = []
        for (reader, name, value) in variables {
            guard let set = environment[name], !set.isEmpty, value == nil || set == value else { continue }
            evidence.append("\(reader) (\(name)=\(set))")
        }
        for (reader, path) in paths where exists(path) { evidence.append("\(reader) (\(path))") }
        if evidence.isEmpty {
            let running = runningPrograms()
            for (reader, name) in programs where running.contains(name) {
                evidence.append("\(reader) (" + tr("{program} is running", ["program": name]) + ")")
            }
        }
        return ScreenReaderDetection(evidence: evidence)
    }

    /// The names of the programs running on this computer, from `/proc/PID/comm` (Linux); empty elsewhere.
    ///
    /// Read with POSIX calls, not FileManager: this runs at every start at a terminal, and a desktop
    /// runs hundreds of processes (FileManager's per-file cost made it milliseconds).
    public static func runningPrograms() -> Set<String> {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var names: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while let entry = readdir(directory) {
            let pid = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let first = pid.utf8.first, first >= 0x30, first <= 0x39 else { continue }
            let descriptor = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            guard count > 0 else { continue }
            names.insert(String(decoding: buffer[..<count].prefix { $0 != 0x0A }, as: UTF8.self))
        }
        return names
    }
}
