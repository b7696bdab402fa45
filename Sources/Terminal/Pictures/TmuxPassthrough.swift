internal import Foundation

/// Pictures inside tmux: tmux draws its own screen, so a picture reaches the terminal outside it
/// only wrapped for passthrough (`ESC P tmux; … ESC \`, every ESC in it doubled), and only when
/// tmux allows it (`set -g allow-passthrough on`, tmux 3.3 and later) and the terminal outside
/// draws that protocol. Otherwise half-blocks, which tmux draws as text.
public enum TmuxPassthrough {
    /// What tmux says about itself and the terminal it runs in (`tmux show`, `tmux display`).
    public struct Answers: Sendable, Hashable {
        /// `tmux show -gv allow-passthrough`: `on`, `all`, `off` or nil when tmux did not say.
        public var allowPassthrough: String?
        /// `#{client_termname}`: the outer terminal's `TERM` (`xterm-kitty`).
        public var termName: String
        /// `#{client_termtype}`: the outer terminal's own name as tmux asked it (`kitty(0.26.5)`).
        public var termType: String
        /// `#{client_termfeatures}`: what tmux found the outer terminal does (`…,RGB,sixel,…`).
        public var termFeatures: [String]

        /// Creates answers.
        public init(
            allowPassthrough: String?, termName: String = "", termType: String = "", termFeatures: [String] = []
        ) {
            self.allowPassthrough = allowPassthrough
            self.termName = termName
            self.termType = termType
            self.termFeatures = termFeatures
        }
    }

    /// How pictures are drawn in tmux: a protocol through passthrough, or half-blocks, and why.
    /// - Parameters:
    ///   - setting: `images = …`; a named protocol is used only where tmux lets it through.
    ///   - environment: the process environment (`KITTY_WINDOW_ID` and `TERM_PROGRAM` inherited
    ///     from the terminal tmux was started in also say what it is).
    public static func detect(
        setting: ImagesSetting, environment: [String: String], answers: Answers
    ) -> (method: PictureProtocol, reason: String) {
        guard let allowed = answers.allowPassthrough, ["on", "all"].contains(allowed) else {
            return (.blocks, "tmux without allow-passthrough")
        }
        let outer: (method: PictureProtocol, reason: String)?
        if case .forced(let method) = setting {
            outer = (method, "images = \(method.rawValue)")
        } else if let named = PictureDetection.byName(answers.termType) {
            outer = named
        } else if answers.termName == "xterm-kitty" || answers.termName == "xterm-ghostty"
            || environment["KITTY_WINDOW_ID"] != nil
        {
            outer = (.kitty, "tmux client \(answers.termName)")
        } else if answers.termFeatures.contains("sixel") {
            outer = (.sixel, "tmux client draws Sixel")
        } else if answers.termName == "foot" || answers.termName.hasPrefix("foot-") || answers.termName == "mlterm" {
            outer = (.sixel, "tmux client \(answers.termName)")
        } else {
            outer = nil
        }
        guard let outer, outer.method.drawsPixels else {
            return (.blocks, "tmux client draws no pictures")
        }
        return (outer.method, outer.reason + " through tmux")
    }

    /// Asks the tmux server named in `$TMUX` (the `tmux` on `PATH`), within a second; nil when
    /// it cannot be asked.
    public static func ask(environment: [String: String]) -> Answers? {
        guard let allowed = run(["show", "-gv", "allow-passthrough"], environment: environment) else { return nil }
        let client =
            run(
                ["display-message", "-p", "#{client_termname}\t#{client_termtype}\t#{client_termfeatures}"],
                environment: environment) ?? ""
        let parts = client.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return Answers(
            allowPassthrough: allowed, termName: parts.first ?? "", termType: parts.count > 1 ? parts[1] : "",
            termFeatures: parts.count > 2 ? parts[2].split(separator: ",").map(String.init) : [])
    }

    /// `code` wrapped for tmux to pass on: `ESC P tmux;`, the code with every ESC doubled, `ESC \`.
    public static func wrap(_ code: [UInt8]) -> [UInt8] {
        var wrapped = Array("\u{1B}Ptmux;".utf8)
        wrapped.reserveCapacity(code.count + code.count / 8 + 16)
        for byte in code {
            if byte == 0x1B { wrapped.append(0x1B) }
            wrapped.append(byte)
        }
        return wrapped + Array("\u{1B}\\".utf8)
    }

    /// The first line tmux printed for `arguments`, or nil when it failed or took over a second.
    private static func run(_ arguments: [String], environment: [String: String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux"] + arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        do { try process.run() } catch { return nil }
        let deadline = Date().addingTimeInterval(1)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: data.prefix(4096), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
    }
}
