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
                usage: "bok study report DIR [DIR_B] [--format md|csv|json] [--out FILE]",
                discussion: tr(
                    "In the study's language. Markdown written with --out gets two SVG charts beside it, "
                        + "FILE-time.svg and FILE-success.svg, linked from it. With two folders, two runs of a study "
                        + "side by side: per task the success and time on task of each, and the difference (B less A).")
            )
        }

        /// What `--format` takes.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case md, csv, json
        }

        @ParentCommand var bok: BokCommand
        @Argument(
            help: ArgumentHelp(tr("The folder of bok study run --out."), valueName: "DIR"), completion: .directory)
        var folder: String
        @Argument(
            help: ArgumentHelp(tr("A second run's folder, to compare with the first."), valueName: "DIR_B"),
            completion: .directory)
        var second: String?
        @Option(help: ArgumentHelp(tr("md (the default), csv or json."), valueName: "md|csv|json"))
        var format: Format = .md
        @Option(help: ArgumentHelp(tr("Write the report to FILE instead of printing it."), valueName: "FILE"))
        var out: String?

        @MainActor
        func execute(environment: [String: String], printer: any Printer) async -> Int32 {
            do {
                let report = try StudyReport.read(folder: folder)
                if let second {
                    let comparison = StudyComparison(
                        report, folder: folder, try StudyReport.read(folder: second), folder: second)
                    try ScenarioCommand.speaking(report.language, environment: environment) {
                        try StudyCommand.write(comparison, format: format, to: out, printer: printer)
                    }
                    return 0
                }
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
        try write(
            format: format, to: path, printer: printer, charts: (StudyChart.time(report), StudyChart.success(report)),
            markdown: report.markdown, csv: report.csv, json: { JSONOutput.encode(report.json) })
    }

    /// Two runs compared in `format`, printed or written to `path` (Markdown with its two charts beside it).
    @MainActor
    static func write(
        _ comparison: StudyComparison, format: Report.Format, to path: String?, printer: any Printer
    ) throws {
        try write(
            format: format, to: path, printer: printer,
            charts: (StudyChart.time(comparison), StudyChart.success(comparison)),
            markdown: comparison.markdown, csv: comparison.csv, json: { JSONOutput.encode(comparison.json) })
    }

    /// A report's text in `format`, printed or written to `path`; Markdown written to a file gets its
    /// charts (`charts`, SVG) beside it, linked.
    @MainActor
    static func write(
        format: Report.Format, to path: String?, printer: any Printer, charts svg: @autoclosure () -> (String, String),
        markdown: ((time: String, success: String)?) -> String, csv: () -> String, json: () -> String
    ) throws {
        let text: String
        var written: [String] = []
        switch format {
        case .md:
            var charts: (time: String, success: String)?
            if let path {
                let base = (path as NSString).deletingPathExtension
                let time = base + "-time.svg"
                let success = base + "-success.svg"
                let (timeChart, successChart) = svg()
                try ScenarioCommand.write(timeChart, to: time, name: "study-time.svg")
                try ScenarioCommand.write(successChart, to: success, name: "study-success.svg")
                written = [time, success]
                charts = ((time as NSString).lastPathComponent, (success as NSString).lastPathComponent)
            }
            text = markdown(charts)
        case .csv:
            text = csv()
        case .json:
            text = json() + "\n"
        }
        guard let path else {
            printer.document(text)
            return
        }
        try ScenarioCommand.write(text, to: path, name: "study-report")
        printer.err(tr("Wrote {files}.", ["files": ([path] + written).joined(separator: ", ")]))
    }
}
