import Foundation
import Plugins
import Targets

/// Writes the reports `wsh test` was asked for; returns what could not be written, in the user's terms.
enum TestReports {
    static func write(_ summary: TestSummary, _ settings: TestSettings) -> [String] {
        var failures: [String] = []
        func save(_ text: String, to path: String) {
            if let reason = Self.save(Array(text.utf8), to: path) {
                failures.append("cannot write the report \(path): \(reason)")
            }
        }
        if let path = settings.junitFile { save(JUnitReport.text(summary), to: path) }
        if let path = settings.tapFile { save(TAPReport.text(summary), to: path) }
        if let path = settings.jsonFile { save(JSONReport.text(summary), to: path) }
        if let path = settings.harFile { save(harText(summary), to: path) }
        if let directory = settings.htmlDirectory {
            save(HTMLReport.text(summary), to: HTMLReport.file(in: directory))
        }
        return failures
    }

    /// Every call of every file as HAR, files in the order they were given, each call at its own
    /// start (the file's start plus the call's offset in it).
    private static func harText(_ summary: TestSummary) -> String {
        let entries = summary.results.flatMap { file in
            file.calls.map { call in
                HARDocument.Entry(
                    started: Date(timeIntervalSince1970: (file.startedAt + call.startMilliseconds) / 1000), milliseconds: call.milliseconds,
                    method: call.method ?? "GET", url: call.url ?? "", requestHeaders: call.requestHeaders.map { Header(name: $0.name, value: $0.value) },
                    requestBody: call.requestBody.map { Data($0.utf8) }, status: call.status, reason: call.reason,
                    responseHeaders: call.responseHeaders.map { Header(name: $0.name, value: $0.value) }, bodySize: call.bodyBytes,
                    body: call.body.map { Data($0.utf8) } ?? call.bodyBase64.flatMap { Data(base64Encoded: $0) }, failure: call.failure, comment: "wsh test \(file.path): \(call.target)",
                    bodyCut: call.bodyCut)
            }
        }
        return HARDocument.text(entries, creatorVersion: Shell.version)
    }

    /// Before the first file runs, as `call > FILE` checks its file before it sends: each report's
    /// directory made and its file checked writable; then an earlier report under each name is
    /// emptied, so that a run that cannot write a report at its end (a full disk), or is killed,
    /// leaves no other run's verdict under the name CI reads. The first problem, in the user's terms.
    static func prepare(_ settings: TestSettings) -> String? {
        for path in settings.reportFiles {
            if let reason = makeDirectory(of: path) ?? BodyFile.checkWritable(path) {
                return "cannot write the report \(path): \(reason)"
            }
        }
        // Not `/dev/stdout` that is a file (`wsh test --report-junit /dev/stdout > out.txt`): the
        // results are written there.
        for path in settings.reportFiles where ReplacingFile.standardStream(at: path) == nil {
            // Through a link (`latest.xml -> run-42.xml`, `/dev/fd/3`), the file it names. Emptied in
            // place, not removed: the file keeps its permissions and hard links, and a descriptor's
            // link still names it when the report is written (review 12 H1, M1).
            let file = ReplacingFile.linkTarget(path)
            if BodyFile.isRegularFile(file) { truncate(file, 0) }
        }
        return nil
    }

    /// Makes the directory `path` is in when it is missing; the reason it could not.
    private static func makeDirectory(of path: String) -> String? {
        let directory = FilePaths.directory(of: path)
        guard !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return nil
        } catch {
            return "cannot make the directory \(directory)"
        }
    }

    /// Writes `bytes` to `path`, making its directory first; the reason it could not, as the system says it.
    private static func save(_ bytes: [UInt8], to path: String) -> String? {
        makeDirectory(of: path) ?? BodyFile.write(Data(bytes), to: path)
    }
}

/// The JSON report: the run's summary and every file, call and check, with timings.
enum JSONReport {
    static func text(_ summary: TestSummary) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let report = Report(passed: summary.passed, failed: summary.failed, errored: summary.errored,
                            interrupted: summary.interruptedFiles, notRun: summary.notRun, notRunFiles: summary.notStarted,
                            milliseconds: summary.milliseconds, files: summary.results)
        guard let data = try? encoder.encode(report) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private struct Report: Encodable {
        var passed, failed, errored, interrupted, notRun: Int
        /// The paths of the files Ctrl-C kept from starting.
        var notRunFiles: [String]
        var milliseconds: Double
        var files: [TestFileResult]
    }
}
