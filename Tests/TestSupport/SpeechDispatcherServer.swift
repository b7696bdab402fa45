public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real speech-dispatcher on a socket of its own, whose one voice is a generic module that
/// writes each message it is given to a file (`language|rate|text` a line) and takes `pause`
/// seconds to "say" it: what bok asked to be spoken, in order, without a sound device.
public struct SpeechDispatcherServer: Sendable {
    /// `unix_socket:PATH`, for `SPEECHD_ADDRESS`.
    public let address: String
    /// The file each spoken message is written to.
    public let spoken: URL
    let pid: Int32

    /// Starts one in `folder`; nil when speech-dispatcher is not installed.
    public static func start(in folder: URL, pause: Double = 0.3) throws -> SpeechDispatcherServer? {
        let program = "/usr/bin/speech-dispatcher"
        let modules = "/usr/lib/speech-dispatcher-modules"
        guard FileManager.default.isExecutableFile(atPath: program),
            FileManager.default.isExecutableFile(atPath: modules + "/sd_generic")
        else { return nil }
        let config = folder.appendingPathComponent("conf")
        try FileManager.default.createDirectory(
            at: config.appendingPathComponent("modules"), withIntermediateDirectories: true)
        let spoken = folder.appendingPathComponent("spoken.txt")
        // No sound device here: ALSA's null device takes the (silent) audio.
        try """
        AddModule "bok-test" "sd_generic" "bok-test.conf"
        DefaultModule "bok-test"
        AudioOutputMethod "alsa"
        AudioALSADevice "null"

        """.write(to: config.appendingPathComponent("speechd.conf"), atomically: true, encoding: .utf8)
        try """
        GenericExecuteSynth "printf '%s|%s|%s\\\\n' '$LANGUAGE' '$RATE' '$DATA' >> \(spoken.path); sleep \(pause)"
        GenericLanguage "en" "en" "utf-8"
        GenericLanguage "sv" "sv" "utf-8"
        AddVoice "en" "FEMALE1" "en"
        AddVoice "sv" "FEMALE1" "sv"

        """.write(
            to: config.appendingPathComponent("modules/bok-test.conf"), atomically: true, encoding: .utf8)
        let socket = folder.appendingPathComponent("speechd.sock")
        let pidFile = folder.appendingPathComponent("speechd.pid")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = [
            "--run-single", "--timeout", "0", "--communication-method", "unix_socket", "--socket-path", socket.path,
            "--config-dir", config.path, "--module-dir", modules, "--log-dir", folder.path, "--pid-file",
            pidFile.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = SpeechDispatcherServer(
            address: "unix_socket:" + socket.path, spoken: spoken, pid: process.processIdentifier)
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket.path) { usleep(50_000) }
        guard FileManager.default.fileExists(atPath: socket.path) else {
            process.terminate()
            return nil
        }
        return server
    }

    /// The messages spoken so far: language, rate and text of each.
    public var messages: [(language: String, rate: String, text: String)] {
        let text = (try? String(contentsOf: spoken, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            return parts.count == 3 ? (parts[0], parts[1], parts[2]) : nil
        }
    }

    public func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}
