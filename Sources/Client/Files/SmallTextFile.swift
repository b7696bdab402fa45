import Foundation
import Localization

/// A text file bok reads whole (the config file, a PIN or password file): read with a bound, so a
/// huge or endless file (a device, a FIFO) costs nothing, and told apart from a missing one.
enum SmallTextFile {
    /// The most a config file or a secret's file can hold: far above any real one.
    static let limit = 1 << 20

    /// The file's text; nil when there is no file.
    /// - Throws: `UserError` naming `what` when the file cannot be read, is larger than `limit`,
    ///   or is not UTF-8 text (a NUL byte, invalid UTF-8).
    static func contents(_ file: URL, what: String, limit: Int = limit) throws -> String? {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw UserError(
                tr(
                    "{what} {file} cannot be read ({why}). Check that it is yours.",
                    ["what": what, "file": file.path, "why": String(cString: strerror(code))]))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw UserError(
                tr("{what} {file} is not a plain file. Give the path of a file.", ["what": what, "file": file.path]))
        }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let n = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, limit + 1 - count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        guard count <= limit else {
            throw UserError(
                tr(
                    "{what} {file} is larger than {size} MB, so it cannot be one bok wrote. Check the path.",
                    ["what": what, "file": file.path, "size": limit >> 20]))
        }
        let content = bytes[..<count]
        guard !content.contains(0), let text = String(validating: content, as: UTF8.self) else {
            throw UserError(
                tr(
                    "{what} {file} is not text (UTF-8). Check the path, or write the file again as text.",
                    ["what": what, "file": file.path]))
        }
        return text
    }
}
