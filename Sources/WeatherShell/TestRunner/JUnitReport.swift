/// The JUnit XML report, in the shape Jenkins's JUnit schema (and GitHub Actions' readers) take:
/// `<testsuites>`, one `<testsuite>` per file, one `<testcase>` per `expect`, a failed one with a
/// `<failure>` holding its message and location. An `expect` that could not be evaluated is its
/// testcase with an `<error>` (counted once, as an error); any other runtime or parse error of a
/// file is a testcase of its own with an `<error>`.
enum JUnitReport {
    static func text(_ summary: TestSummary) -> String {
        let files = summary.results.map { (result: $0, counts: Counts($0)) }
        let tests = files.reduce(0) { $0 + $1.counts.tests } + summary.notRun
        let failures = files.reduce(0) { $0 + $1.counts.failures }
        let errors = files.reduce(0) { $0 + $1.counts.errors }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"wsh test\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(MarkupText.seconds(summary.milliseconds))\">\n"
        for file in files { xml += suite(file.result, file.counts) }
        for path in summary.notStarted { xml += skippedSuite(path) }
        xml += "</testsuites>\n"
        return xml
    }

    /// What a file's errors make of its counts: an error of a check that could not be evaluated
    /// is that check's testcase (``TestFileResult/errorsByCheck``), any other a testcase of its own,
    /// a failure when it is no error (an `until` that ran out).
    private struct Counts {
        let checkErrors: [Int: TestErrorRecord]
        let otherErrors: [TestErrorRecord]
        let tests: Int, failures: Int, errors: Int

        init(_ result: TestFileResult) {
            let (checkErrors, allOthers) = result.errorsByCheck
            // The interruption is the `interrupted` testcase's.
            let otherErrors = allOthers.filter { $0.kind != "interrupted" }
            (self.checkErrors, self.otherErrors) = (checkErrors, otherErrors)
            let interrupted = result.outcome == .interrupted ? 1 : 0
            let otherFailures = otherErrors.count { $0.kind == "expectation" }
            tests = result.checks.count + otherErrors.count + interrupted
            failures = result.failedChecks - checkErrors.count + otherFailures
            errors = checkErrors.count + otherErrors.count - otherFailures + interrupted
        }
    }

    /// A file Ctrl-C kept from starting: a suite of one skipped test, so that CI counts it, as the
    /// console's `N not run` does.
    private static func skippedSuite(_ path: String) -> String {
        let name = MarkupText.attribute(path)
        return "  <testsuite name=\"\(name)\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\" time=\"0.000\" file=\"\(name)\">\n"
            + "    <testcase name=\"not run\" classname=\"\(MarkupText.attribute(className(path)))\" time=\"0.000\">\n"
            + "      <skipped message=\"not run: the run was interrupted before this file started\" type=\"interrupted\"/>\n"
            + "    </testcase>\n  </testsuite>\n"
    }

    /// A testcase's `classname`: the file's directories joined by `.`, then its name with each `.`
    /// written `_`, extension kept (`tests/smoke/login.wsh` is `tests.smoke.login_wsh`), so that
    /// Jenkins, which splits a classname at its last dot into package and class, shows package
    /// `tests.smoke` and class `login_wsh` (`login.wsh` made every file a class `wsh`), and no two
    /// files share one: `a.wsh` and `a.http`, `a/b.wsh` and `a.b.wsh` (`a.b_wsh`, `a_b_wsh`).
    /// GitLab shows it as the test's suite.
    static func className(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." && $0 != ".." }
        guard let name = parts.last else { return path }
        return (parts.dropLast().map(String.init) + [name.replacingOccurrences(of: ".", with: "_")]).joined(separator: ".")
    }

    private static func suite(_ result: TestFileResult, _ counts: Counts) -> String {
        let name = MarkupText.attribute(result.path)
        let className = MarkupText.attribute(Self.className(result.path))
        var xml = "  <testsuite name=\"\(name)\" tests=\"\(counts.tests)\" failures=\"\(counts.failures)\" "
            + "errors=\"\(counts.errors)\" skipped=\"0\" time=\"\(MarkupText.seconds(result.milliseconds))\" file=\"\(name)\">\n"
        var previous = 0.0
        // A check run again (in a loop) is `#2`, `#3`: tools that key test cases by name would
        // merge the runs and show one.
        var runs: [String: Int] = [:]
        for (index, check) in result.checks.enumerated() {
            let time = MarkupText.seconds(check.atMilliseconds - previous)
            previous = check.atMilliseconds
            let place = "\(check.file):\(check.line):\(check.column)"
            let run = runs[place, default: 0] + 1
            runs[place] = run
            let caseName = MarkupText.attribute("expect \(check.source) (\(check.line):\(check.column))" + (run > 1 ? " #\(run)" : ""))
            xml += "    <testcase name=\"\(caseName)\" classname=\"\(className)\" time=\"\(time)\""
            guard !check.passed else {
                xml += "/>\n"
                continue
            }
            if let error = counts.checkErrors[index] {
                xml += ">\n" + errorElement(error) + "    </testcase>\n"
                continue
            }
            let message = check.message ?? "expectation failed: \(check.source)"
            var details = "\(check.file):\(check.line):\(check.column): \(message)\n"
            for note in check.notes { details += "note: \(note)\n" }
            xml += ">\n      <failure message=\"\(MarkupText.attribute(message))\" type=\"expectation\">"
                + MarkupText.escaped(details) + "</failure>\n    </testcase>\n"
        }
        for error in counts.otherErrors {
            let place = result.place(of: error)
            let failed = error.kind == "expectation"
            xml += "    <testcase name=\"\(MarkupText.attribute("\(failed ? "failure" : "\(error.kind) error") at \(place)"))\" classname=\"\(className)\" time=\"0.000\">\n"
                + (failed ? failureElement(error) : errorElement(error)) + "    </testcase>\n"
        }
        if result.outcome == .interrupted {
            // Where, by what (Ctrl-C, SIGTERM) and the call in flight, when the worker could say.
            xml += "    <testcase name=\"interrupted\" classname=\"\(className)\" time=\"0.000\">\n"
                + (result.interruption.map(errorElement) ?? "      <error message=\"interrupted\" type=\"interrupted\"/>\n") + "    </testcase>\n"
        }
        if !result.warnings.isEmpty {
            xml += "    <system-err>" + MarkupText.escaped(result.warnings.map { "warning: \($0)\n" }.joined()) + "</system-err>\n"
        }
        xml += "  </testsuite>\n"
        return xml
    }

    private static func failureElement(_ error: TestErrorRecord) -> String {
        "      <failure message=\"\(MarkupText.attribute(error.message))\" type=\"expectation\">"
            + MarkupText.escaped(error.rendered) + "</failure>\n"
    }

    private static func errorElement(_ error: TestErrorRecord) -> String {
        "      <error message=\"\(MarkupText.attribute(error.message))\" type=\"\(error.kind)\">"
            + MarkupText.escaped(error.rendered) + "</error>\n"
    }
}
