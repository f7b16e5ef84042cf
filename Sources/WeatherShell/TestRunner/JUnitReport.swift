/// The JUnit XML report, in the shape Jenkins's JUnit schema (and GitHub Actions' readers) take:
/// `<testsuites>`, one `<testsuite>` per file, one `<testcase>` per `expect`, a failed one with a
/// `<failure>` holding its message and location. An `expect` that could not be evaluated is its
/// testcase with an `<error>` (counted once, as an error); any other runtime or parse error of a
/// file is a testcase of its own with an `<error>`.
enum JUnitReport {
    static func text(_ summary: TestSummary) -> String {
        let results = summary.results
        let tests = results.reduce(0) { $0 + testCount($1) }
        let failures = results.reduce(0) { $0 + failureCount($1) }
        let errors = results.reduce(0) { $0 + errorCount($1) }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"wsh test\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(MarkupText.seconds(summary.milliseconds))\">\n"
        for result in results { xml += suite(result) }
        xml += "</testsuites>\n"
        return xml
    }

    private static func testCount(_ result: TestFileResult) -> Int {
        result.checks.count + errorCount(result) - checkErrors(result).count
    }

    /// Failed checks that were evaluated: one that could not be is an error.
    private static func failureCount(_ result: TestFileResult) -> Int {
        result.failedChecks - checkErrors(result).count
    }

    /// The errors of checks that could not be evaluated, by the check's index.
    private static func checkErrors(_ result: TestFileResult) -> [Int: TestErrorRecord] {
        var byCheck: [Int: TestErrorRecord] = [:]
        for error in result.errors where isCheckError(error, in: result) {
            if let index = error.checkIndex { byCheck[index] = error }
        }
        return byCheck
    }

    private static func isCheckError(_ error: TestErrorRecord, in result: TestFileResult) -> Bool {
        error.kind != "expectation" && error.checkIndex.map { result.checks.indices.contains($0) && !result.checks[$0].passed } == true
    }

    /// Errors, each an `<error>` in a testcase: its own, or that of the check it stopped.
    private static func errorCount(_ result: TestFileResult) -> Int {
        result.errors.count { $0.kind != "expectation" } + (result.outcome == .interrupted ? 1 : 0)
    }

    private static func suite(_ result: TestFileResult) -> String {
        let name = MarkupText.attribute(result.path)
        var xml = "  <testsuite name=\"\(name)\" tests=\"\(testCount(result))\" failures=\"\(failureCount(result))\" "
            + "errors=\"\(errorCount(result))\" skipped=\"0\" time=\"\(MarkupText.seconds(result.milliseconds))\" file=\"\(name)\">\n"
        let checkErrors = checkErrors(result)
        var previous = 0.0
        for (index, check) in result.checks.enumerated() {
            let time = MarkupText.seconds(check.atMilliseconds - previous)
            previous = check.atMilliseconds
            let caseName = MarkupText.attribute("expect \(check.source) (\(check.line):\(check.column))")
            xml += "    <testcase name=\"\(caseName)\" classname=\"\(name)\" time=\"\(time)\""
            guard !check.passed else {
                xml += "/>\n"
                continue
            }
            if let error = checkErrors[index] {
                xml += ">\n" + errorElement(error) + "    </testcase>\n"
                continue
            }
            let message = check.message ?? "expectation failed: \(check.source)"
            var details = "\(check.file):\(check.line):\(check.column): \(message)\n"
            for note in check.notes { details += "note: \(note)\n" }
            xml += ">\n      <failure message=\"\(MarkupText.attribute(message))\" type=\"expectation\">"
                + MarkupText.escaped(details) + "</failure>\n    </testcase>\n"
        }
        for error in result.errors where error.kind != "expectation" && !isCheckError(error, in: result) {
            let place = error.line.map { "\(error.file ?? result.path):\($0):\(error.column ?? 1)" } ?? result.path
            xml += "    <testcase name=\"\(MarkupText.attribute("\(error.kind) error at \(place)"))\" classname=\"\(name)\" time=\"0.000\">\n"
                + errorElement(error) + "    </testcase>\n"
        }
        if result.outcome == .interrupted {
            xml += "    <testcase name=\"interrupted\" classname=\"\(name)\" time=\"0.000\">\n"
                + "      <error message=\"interrupted by Ctrl-C\" type=\"interrupted\"/>\n    </testcase>\n"
        }
        xml += "  </testsuite>\n"
        return xml
    }

    private static func errorElement(_ error: TestErrorRecord) -> String {
        "      <error message=\"\(MarkupText.attribute(error.message))\" type=\"\(error.kind)\">"
            + MarkupText.escaped(error.rendered) + "</error>\n"
    }
}
