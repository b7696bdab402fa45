import Foundation
import Logging
import MockLending

/// `bok mock-server`: runs the mock lending library alone, for testers and other clients.
@MainActor
enum MockServerCommand {
    static let help = """
        bok mock-server [--port P] [--host H] [--seed S] [--catalog-size N]

        Runs the mock lending library alone, in the foreground, for testers and other clients, and
        prints its API base URL. Ctrl-C stops it. Its state starts from the seed every time.

          --port P          the port, 0 for any free one (default 0)
          --host H          the address to listen on (default 127.0.0.1, loopback only)
          --seed S          the generated catalogue's seed (default 1)
          --catalog-size N  books in the catalogue (default 600)

        Example:  bok mock-server --port 8080 --seed 7 --catalog-size 200000
        """

    static func run(_ words: [String], options: GlobalOptions, printer: any Printer) async -> Int32 {
        var port = 0
        do {
            let arguments = try Arguments(words, valued: ["port", "host"])
            if let stray = arguments.unknownFlags(known: []).first {
                throw UserError.usage("mock-server has no option --\(stray). Usage: bok mock-server [--port P] [--host H] [--seed S] [--catalog-size N]")
            }
            if let text = arguments.option("port") {
                guard let value = Int(text), (0...65535).contains(value) else {
                    throw UserError.usage("--port takes a number from 0 to 65535 (0 picks a free port).")
                }
                port = value
            }
            var logger = Logger(label: "bok.mock") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = .warning
            var configuration = MockConfiguration(seed: options.seed, catalogSize: options.catalogSize)
            configuration.port = port
            if let host = arguments.option("host") {
                guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".:-".contains($0) }) else {
                    throw UserError.usage("--host takes an address to listen on, e.g. 127.0.0.1 (the default) or ::1.")
                }
                configuration.host = host
            }
            let server = try await MockLendingServer.start(configuration, logger: logger)
            printer.out(server.baseURL.absoluteString)
            printer.err("Mock lending library: \(options.catalogSize) books, seed \(options.seed); service id \(configuration.serviceID), service key \(configuration.serviceKey). Ctrl-C stops it.")
            while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
        } catch {
            let message = ErrorReport.message(for: error)
            let hint = message.contains("in use") || message.lowercased().contains("address") ? " Is another server on port \(port)? Try --port 0." : ""
            return ErrorReport.report(error, hint: hint, printer: printer)
        }
    }
}
