public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real `dictd` on a free loopback port, serving Debian's FreeDict Swedish dictionaries, for the
/// tests of `define` and the reader's `:define`.
public enum Dictd {
    /// Starts one in `folder`; nil when dictd or the dictionaries are not installed
    /// (`scripts/install-test-tools.sh` installs them).
    public static func start(in folder: URL) throws -> (port: UInt16, stop: @Sendable () -> Void)? {
        let dictionaries = ["freedict-swe-eng", "freedict-eng-swe"]
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/dictd"),
            dictionaries.allSatisfy({ FileManager.default.fileExists(atPath: "/usr/share/dictd/\($0).index") })
        else { return nil }
        // A port another program took makes dictd give up: a few tries, each on a port of its own.
        for _ in 0..<3 {
            if let started = try start(in: folder, dictionaries: dictionaries) { return started }
        }
        return nil
    }

    private static func start(
        in folder: URL, dictionaries: [String]
    ) throws -> (port: UInt16, stop: @Sendable () -> Void)? {
        let port = UInt16.random(in: 30_000...60_000)
        let pidFile = folder.appendingPathComponent("dictd.pid")
        var config = "global {\n listen_to 127.0.0.1\n port \(port)\n pid_file \(pidFile.path)\n}\n"
        for name in dictionaries {
            let short = name.replacingOccurrences(of: "freedict-", with: "fd-")
            config +=
                "database \(short) { data /usr/share/dictd/\(name).dict.dz\n index /usr/share/dictd/\(name).index }\n"
        }
        let file = folder.appendingPathComponent("dictd.conf")
        try config.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/dictd")
        process.arguments = ["-c", file.path]
        try process.run()
        process.waitUntilExit()  // it forks to the background and writes its pid
        let stop: @Sendable () -> Void = {
            let text = (try? String(contentsOf: pidFile, encoding: .utf8)) ?? ""
            // SIGKILL: after serving connections dictd 1.13 lingers on SIGTERM.
            if let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) { kill(pid, SIGKILL) }
        }
        // Ready once it greets (220); a loaded machine may take seconds.
        for _ in 0..<100 {
            if let fd = RawConnection.open(port: Int(port)) {
                var buffer = [UInt8](repeating: 0, count: 3)
                let got = read(fd, &buffer, 3)
                close(fd)
                if got == 3, buffer == Array("220".utf8) { return (port, stop) }
            }
            usleep(100_000)
        }
        stop()
        return nil
    }
}
