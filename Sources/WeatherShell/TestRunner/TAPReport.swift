import Targets

/// The TAP 14 report: one test point per file, each with a subtest of its checks; a failed check
/// or file carries a YAML diagnostic block (message, location, notes) in JSON string literals,
/// which YAML reads as double-quoted scalars.
enum TAPReport {
    static func text(_ summary: TestSummary) -> String {
        var tap = "TAP version 14\n1..\(summary.results.count)\n"
        for (index, result) in summary.results.enumerated() {
            tap += "# Subtest: \(description(result.path))\n"
            tap += "    1..\(result.checks.count)\n"
            let checkErrors = result.errorsByCheck.ofChecks
            for (number, check) in result.checks.enumerated() {
                let point = "\(check.passed ? "ok" : "not ok") \(number + 1) - \(description("expect " + check.source))"
                tap += "    \(point)\n"
                if !check.passed {
                    tap += yaml([("message", check.message ?? "expectation failed"), ("at", result.failurePlace(of: check, error: checkErrors[number]))],
                                lists: [("notes", check.notes)], indent: "      ")
                }
            }
            let passed = result.outcome == .passed
            tap += "\(passed ? "ok" : "not ok") \(index + 1) - \(description(result.path))\n"
            // Every file's time, passed or not: it is what shards are balanced by.
            var fields: [(String, String)] = []
            var notes: [String] = []
            if !passed {
                fields += [("outcome", result.outcome.rawValue)]
                if let interruption = result.interruption {
                    fields += [("message", interruption.message), ("at", result.place(of: interruption))]
                    notes = interruption.notes
                } else if let failure = result.firstFailure {
                    fields += [("message", failure.message), ("at", failure.location)]
                }
            }
            fields += [("duration_ms", String(MarkupText.whole(result.milliseconds)))]
            tap += yaml(fields, lists: [("notes", notes), ("warnings", result.warnings)], indent: "  ")
        }
        return tap
    }

    /// A description on one line, with `#` escaped (it would start a directive) and `\` doubled.
    private static func description(_ text: String) -> String {
        TestLines.oneLine(text).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#")
    }

    /// A YAML block of `fields`, then each non-empty list under its key (a key once: YAML readers
    /// keep only the last of a repeated key).
    private static func yaml(_ fields: [(String, String)], lists: [(String, [String])], indent: String) -> String {
        var block = "\(indent)---\n"
        for (key, value) in fields { block += "\(indent)\(key): \(JSONValue.quoted(value))\n" }
        for (name, items) in lists where !items.isEmpty {
            block += "\(indent)\(name):\n"
            for item in items { block += "\(indent)  - \(JSONValue.quoted(item))\n" }
        }
        return block + "\(indent)...\n"
    }
}
