import ArgumentParser
import Foundation
import Localization

extension StudyCommand {
    /// `bok study report DIR [--format md|csv|json] [--out FILE]`.
    struct Report: ParsableCommand, Invocation {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: tr(
                    "Sum up every participant's recording of a study: success, time on task, errors, help, "
                        + "hesitations, SUS."),
                usage: "bok study report DIR [--format md|csv|json] [--out FILE]",
                discussion: tr(
                    "In the study's language. Markdown written with --out gets two SVG charts beside it, "
                        + "FILE-time.svg and FILE-success.svg, linked from it."))
        }

        /// What `--format` takes.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case md, csv, json
        }

        @ParentCommand var bok: BokCommand
        @Argument(
            help: ArgumentHelp(tr("The folder of bok study run --out."), valueName: "DIR"), completion: .directory)
        var folder: String
        @Option(help: ArgumentHelp(tr("md (the default), csv or json."), valueName: "md|csv|json"))
        var format: Format = .md
        @Option(help: ArgumentHelp(tr("Write the report to FILE instead of printing it."), valueName: "FILE"))
        var out: String?

        @MainActor
        func execute(environment: [String: String], printer: any Printer) async -> Int32 {
            do {
                let report = try StudyReport.read(folder: folder)
                try ScenarioCommand.speaking(report.language, environment: environment) {
                    try StudyCommand.write(report, format: format, to: out, printer: printer)
                }
                return 0
            } catch {
                return ErrorReport.report(error, printer: printer)
            }
        }
    }

    /// The report in `format`, printed or written to `path` (Markdown with its two charts beside it).
    @MainActor
    static func write(_ report: StudyReport, format: Report.Format, to path: String?, printer: any Printer) throws {
        let text: String
        var written: [String] = []
        switch format {
        case .md:
            var charts: (time: String, success: String)?
            if let path {
                let base = (path as NSString).deletingPathExtension
                let time = base + "-time.svg"
                let success = base + "-success.svg"
                try ScenarioCommand.write(StudyChart.time(report), to: time, name: "study-time.svg")
                try ScenarioCommand.write(StudyChart.success(report), to: success, name: "study-success.svg")
                written = [time, success]
                charts = ((time as NSString).lastPathComponent, (success as NSString).lastPathComponent)
            }
            text = report.markdown(charts: charts)
        case .csv:
            text = report.csv()
        case .json:
            text = JSONOutput.encode(report.json) + "\n"
        }
        guard let path else {
            printer.document(text)
            return
        }
        try ScenarioCommand.write(text, to: path, name: "study-report")
        printer.err(tr("Wrote {files}.", ["files": ([path] + written).joined(separator: ", ")]))
    }
}
