#if os(Linux)
import Foundation
public import Glibc

/// A pseudo-terminal pair: the test reads and types on `controller`; the program under test
/// (a child, or code in the test's own process) gets `device` as its terminal.
public final class PseudoTerminal: Sendable {
    public let controller: Int32
    public let device: Int32

    public init?(columns: Int = 80, rows: Int = 24) {
        controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard controller >= 0 else { return nil }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK and TIOCGPTN; Swift cannot import these function-like macros.
        guard ioctl(controller, UInt(0x4004_5431), &unlock) == 0, ioctl(controller, UInt(0x8004_5430), &number) == 0
        else {
            close(controller)
            return nil
        }
        device = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard device >= 0 else {
            close(controller)
            return nil
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(device, UInt(TIOCSWINSZ), &size)
        _ = fcntl(controller, F_SETFL, fcntl(controller, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(device)
        close(controller)
    }

    /// The device's settings as `stty -g` would compare them.
    public var settings: [UInt32] {
        var value = termios()
        tcgetattr(device, &value)
        return [value.c_iflag, value.c_oflag, value.c_cflag, value.c_lflag]
    }

    /// The device's local flags (ECHO, ICANON, …).
    public var localFlags: tcflag_t {
        var value = termios()
        tcgetattr(device, &value)
        return value.c_lflag
    }

    public func type(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(controller, $0.baseAddress, $0.count) }
    }

    /// Reads what the program wrote until `condition` holds for all of it, or `seconds` pass.
    /// Waits by sleeping the task, not the thread, so other tests keep running meanwhile.
    public func read(until condition: (String) -> Bool, seconds: Double = 10) async -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let count = Glibc.read(controller, &buffer, buffer.count)
            if count > 0 {
                bytes += buffer[0..<count]
                if condition(String(decoding: bytes, as: UTF8.self)) { break }
            } else {
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Everything written so far, waiting up to 100 ms between pieces.
    public func screen() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, 100) > 0 {
            let count = Glibc.read(controller, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
#endif
