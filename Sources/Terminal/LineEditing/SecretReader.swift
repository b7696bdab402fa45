#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one line without echo: the PIN prompt behind ``LineEditor/readSecret(prompt:)``.
///
/// At a terminal it turns off echo, line buffering and signal keys for the duration, and
/// does the few editing keys itself, so that Ctrl-C cancels the prompt (returns `nil`)
/// instead of killing bok with the terminal left silent. Takes descriptors so tests can
/// drive it through a pseudo-terminal.
struct SecretReader: Sendable {
    /// Where the secret is typed.
    let input: Int32
    /// Where the prompt and the closing line break go.
    let output: Int32

    /// Shows `prompt`, reads the secret, ends the line; `nil` when cancelled or at end of input.
    func read(prompt: String) -> String? {
        guard isatty(input) == 1 else { return readPlainLine() }
        fflush(nil)
        write(prompt)
        defer { write("\n") }

        switch TerminalModeGuard.engage(fd: input, configure: Self.silence) {
        case .engaged:
            defer { TerminalModeGuard.release() }
            return readKeys(stopWhenReleased: true)
        case .alreadyEngaged:
            // Raw mode is on (a full-screen view asks): silence this prompt on our own; the
            // guard already protects the settings from before raw mode.
            var previous = termios()
            guard tcgetattr(input, &previous) == 0 else { return nil }
            var silent = previous
            Self.silence(&silent)
            guard tcsetattr(input, TCSANOW, &silent) == 0 else { return nil }
            defer { tcsetattr(input, TCSANOW, &previous) }
            return readKeys(stopWhenReleased: false)
        case .failed:
            // Never read a secret while it would be shown.
            return nil
        }
    }

    /// Echo, canonical mode, signal keys and extended input processing off; one byte per read.
    static func silence(_ settings: inout termios) {
        settings.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
    }

    /// Reads keys until Return; handles Backspace, Ctrl-U, Ctrl-C, Ctrl-D and skips arrow keys.
    private func readKeys(stopWhenReleased: Bool) -> String? {
        var bytes: [UInt8] = []
        defer {
            // Best effort: do not leave the secret lying in freed memory.
            for index in bytes.indices { bytes[index] = 0 }
        }
        var pushedBack: UInt8?
        while true {
            let byte: UInt8
            if let pending = pushedBack {
                byte = pending
                pushedBack = nil
            } else {
                switch readByte() {
                case .byte(let value): byte = value
                case .endOfInput: return nil
                case .interrupted:
                    // A signal handler restored the terminal: echo is back on, so stop.
                    if stopWhenReleased, !TerminalModeGuard.isEngaged { return nil }
                    continue
                }
            }
            switch byte {
            case 0x0A, 0x0D:  // Return
                return String(decoding: bytes, as: UTF8.self)
            case 0x03:  // Ctrl-C cancels
                return nil
            case 0x04:  // Ctrl-D: end of input on an empty line
                if bytes.isEmpty { return nil }
            case 0x08, 0x7F:  // Backspace: drop the last whole character
                while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
            case 0x15:  // Ctrl-U: start over
                bytes.removeAll(keepingCapacity: true)
            case 0x1B:  // an escape sequence (arrow keys) is not part of a PIN
                pushedBack = skipEscapeSequence()
            case 0x00..<0x20:
                continue
            default:
                bytes.append(byte)
            }
        }
    }

    private enum ReadResult {
        case byte(UInt8)
        case endOfInput
        case interrupted
    }

    private func readByte() -> ReadResult {
        var byte: UInt8 = 0
        let count = systemRead(input, &byte, 1)
        if count == 1 { return .byte(byte) }
        if count < 0, errno == EINTR { return .interrupted }
        return .endOfInput
    }

    /// Consumes the rest of `ESC [ … final` or `ESC O x`; returns a byte that was not part of it.
    private func skipEscapeSequence() -> UInt8? {
        guard case .byte(let introducer) = readByte() else { return nil }
        switch introducer {
        case UInt8(ascii: "["):
            for _ in 0..<16 {
                guard case .byte(let next) = readByte() else { return nil }
                if (0x40...0x7E).contains(next) { return nil }
            }
            return nil
        case UInt8(ascii: "O"):
            _ = readByte()
            return nil
        default:
            return introducer
        }
    }

    /// Reads one line when the input is not a terminal (piped input): no prompt, no modes.
    private func readPlainLine() -> String? {
        if input == STDIN_FILENO {
            // Share stdio's buffer with the line editor's plain reads.
            return Swift.readLine(strippingNewline: true)
        }
        var bytes: [UInt8] = []
        while true {
            switch readByte() {
            case .byte(0x0A):
                return String(decoding: bytes, as: UTF8.self)
            case .byte(let value):
                bytes.append(value)
            case .interrupted:
                continue
            case .endOfInput:
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { Screen.writeAll(output, $0) }
    }
}

/// `read(2)`, named apart from the reader's own `read(prompt:)`.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}
