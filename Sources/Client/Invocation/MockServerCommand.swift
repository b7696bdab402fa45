import ArgumentParser
import Catalog
import Foundation
import Localization
import Logging
import MockLending

/// `bok mock-server`: runs the mock lending library alone, for testers and other clients.
struct MockServerCommand: ParsableCommand, Invocation {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "mock-server",
            abstract: tr("Run the mock lending library alone, for testers and other clients."),
            usage: "bok mock-server [--port P] [--host H] [--seed S] [--catalog-size N] [--pace N/D] [--plain-elib]",
            discussion: tr(
                "Runs in the foreground and prints its API base URL; Ctrl-C stops it. Its state starts from "
                    + "the seed every time.")
                + "\n" + tr("Example:  bok mock-server --port 8080 --seed 7 --catalog-size 200000")
        )
    }

    @ParentCommand var bok: BokCommand

    @Option(help: ArgumentHelp(tr("The port, 0 for any free one."), valueName: "P"), transform: MockServerCommand.port)
    var port = 0

    @Option(
        help: ArgumentHelp(tr("The address to listen on (loopback only by default)."), valueName: "H"),
        transform: MockServerCommand.host)
    var host = "127.0.0.1"

    @Option(
        help: ArgumentHelp(tr("The generated catalogue's seed (default 1)."), valueName: "S"),
        transform: GlobalFlags.seed)
    var seed: UInt64?

    @Option(
        name: .customLong("catalog-size"),
        help: ArgumentHelp(tr("Books in the catalogue (default 600)."), valueName: "N"),
        transform: GlobalFlags.catalogSize)
    var catalogSize: Int?

    @Option(
        help: ArgumentHelp(
            tr("At most N loans per patron in any D days, e.g. 3/7 (default: no pace, only the monthly limit)."),
            valueName: "N/D"),
        transform: MockServerCommand.pace)
    var pace: LoanPace?

    @Flag(
        name: .customLong("plain-elib"),
        help: ArgumentHelp(
            tr(
                "Answer only the calls a plain Elib lending service has: no search, library page, patron check, "
                    + "reservations or early return.")))
    var plainElib = false

    static func port(_ text: String) throws -> Int {
        guard let value = Int(text), (0...65535).contains(value) else {
            throw UserError.usage(tr("--port takes a number from 0 to 65535 (0 picks a free port)."))
        }
        return value
    }

    static func pace(_ text: String) throws -> LoanPace {
        guard let pace = LoanPace(text: text) else {
            throw UserError.usage(tr("--pace takes loans/days, e.g. --pace 3/7 for 3 loans in any 7 days."))
        }
        return pace
    }

    static func host(_ text: String) throws -> String {
        guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || ".:-".contains($0) }) else {
            throw UserError.usage(tr("--host takes an address to listen on, e.g. 127.0.0.1 (the default) or ::1."))
        }
        return text
    }

    @MainActor
    func execute(environment: [String: String], printer: any Printer) async -> Int32 {
        let options = GlobalOptions([bok.global])
        var logger = Logger(label: "bok.mock") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        var configuration = MockConfiguration(
            seed: seed ?? options.seed, catalogSize: catalogSize ?? options.catalogSize)
        configuration.port = port
        configuration.host = host
        configuration.rules.loanPace = pace
        if plainElib { configuration.dialect = .upstreamOnly }
        do {
            let server = try await MockLendingServer.start(configuration, logger: logger)
            printer.out(server.baseURL.absoluteString)
            printer.err(
                tr(
                    "Mock lending library: {books}, seed {seed}; service id {id}, service key {key}. Ctrl-C stops it.",
                    [
                        "books": trn("{n} book", "{n} books", configuration.catalogSize), "seed": configuration.seed,
                        "id": configuration.serviceID, "key": configuration.serviceKey,
                    ]))
            printer.err(
                tr(
                    "The same library as an OPDS catalogue: {url} (bok --library {url} --kind opds; log in with a "
                        + "card and PIN).",
                    ["url": server.opdsURL.absoluteString]))
            printer.err(
                tr(
                    "KOReader's progress sync: {url} (a [sync NAME] with kind = kosync and url = {url}; "
                        + "sync register NAME makes a user).",
                    ["url": server.kosyncURL.absoluteString]))
            while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
        } catch {
            let message = ErrorReport.message(for: error)
            let hint =
                message.contains("in use") || message.lowercased().contains("address")
                ? " " + tr("Is another server on port {port}? Try --port 0.", ["port": port]) : ""
            return ErrorReport.report(error, hint: hint, printer: printer)
        }
    }
}
