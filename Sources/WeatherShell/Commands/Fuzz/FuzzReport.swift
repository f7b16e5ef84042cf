import Foundation
import Fuzzing
import Targets

/// What `fuzz` prints and writes of a run: each failure once, with its reproducers, then the
/// targets that passed; the JSON and JUnit reports. Secrets are masked in all of it.
@ShellActor
struct FuzzReport {
    struct Entry {
        var failure: FuzzFailure
        /// The statements that show it again, pasted after the same declarations.
        var wsh: [String]
        var curl: String?
    }

    let result: FuzzResult
    let seed: UInt64
    let entries: [Entry]

    /// `declared`: the credentials the targets declare as typed, masked as the session's secrets are.
    init(result: FuzzResult, seed: UInt64, targets: [String: FuzzTarget], timeout: Duration, run: Run, declared: Redaction) {
        self.result = result
        self.seed = seed
        let mask = { (text: String) in declared.mask(run.mask(text)) }
        entries = result.failures.map { found in
            // An answer's values are quoted in the details: a server that echoes a key must not show it.
            var failure = found
            failure.summary = mask(found.summary)
            failure.detail = mask(found.detail)
            if case .invalid(let why) = found.expectation { failure.expectation = .invalid(mask(why)) }
            let lines = Reproducer(targets: targets, timeout: timeout).lines(for: found).map { mask($0) }
            return Entry(failure: failure, wsh: lines, curl: found.curl.map { mask($0) })
        }
    }

    /// `1 call`, `2 calls`.
    static func calls(_ count: Int) -> String { "\(count) call\(count == 1 ? "" : "s")" }

    private var seconds: String {
        String(format: "%.1f", result.elapsed.milliseconds / 1000)
    }

    /// The text on stdout.
    var text: String {
        var text = ""
        let stop = switch result.stop {
        case .budget: ""
        case .time: ", stopped at the time limit"
        case .interrupted: ", interrupted"
        }
        text += "fuzz: \(Self.calls(result.calls)) in \(seconds)s (seed \(seed))\(stop): "
        text += entries.isEmpty ? "no failures\n" : "\(entries.count) failure\(entries.count == 1 ? "" : "s")\n"
        for entry in entries {
            let failure = entry.failure
            text += "\n✘ \(failure.operation)  \(failure.oracle.rawValue): \(failure.summary)  (\(Self.calls(failure.count)))\n"
            text += "    \(failure.detail)\n"
            if entry.wsh.isEmpty {
                text += "    wsh:  (the body cannot be written as items: see the curl command)\n"
            } else {
                for (index, line) in entry.wsh.enumerated() { text += (index == 0 ? "    wsh:  " : "          ") + line + "\n" }
            }
            if let curl = entry.curl {
                let lines = curl.split(separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated() { text += (index == 0 ? "    curl: " : "          ") + line + "\n" }
            }
        }
        let failing = Set(entries.map(\.failure.operation))
        let passed = result.operations.filter { !failing.contains($0) }
        if !passed.isEmpty {
            text += "\n"
            for name in passed {
                let calls = result.callsByOperation[name] ?? 0
                let judged = result.judgedByOperation[name] ?? 0
                if calls == 0 {
                    text += "- \(name): not called: " + notCalledReason + "\n"
                } else if judged == 0 {
                    text += "- \(name): not judged: \(calls == 1 ? "its one call was" : "its \(calls) calls were") cancelled by the interrupt\n"
                } else if result.refusedByOperation[name] == judged {
                    text += "? \(name): no failures, but every one of \(Self.calls(judged)) was answered 4xx: the inputs may not fit it "
                        + "(types come from declared defaults; an OpenAPI document says more)\n"
                } else {
                    text += "✔ \(name): no failures in \(Self.calls(judged))\n"
                }
            }
        }
        return text
    }

    /// Why a target got no call: what stopped the run first.
    private var notCalledReason: String {
        switch result.stop {
        case .budget: "the calls ran out first (give more with --calls)"
        case .time: "the time ran out first (give more with --time)"
        case .interrupted: "the run was interrupted first"
        }
    }

    /// `--report-json`.
    var json: String {
        func string(_ text: String) -> JSONValue { .string(text) }
        let failures: [JSONValue] = entries.map { entry in
            let failure = entry.failure
            var members = [JSONMember(key: "target", value: string(failure.operation)),
                           JSONMember(key: "oracle", value: string(failure.oracle.rawValue)),
                           JSONMember(key: "summary", value: string(failure.summary)),
                           JSONMember(key: "detail", value: string(failure.detail)),
                           JSONMember(key: "count", value: .number(String(failure.count))),
                           JSONMember(key: "status", value: failure.status.map { .number(String($0)) } ?? .null),
                           JSONMember(key: "shrunk", value: .bool(failure.shrunk)),
                           JSONMember(key: "wsh", value: string(entry.wsh.joined(separator: "\n"))),
                           JSONMember(key: "curl", value: entry.curl.map(string) ?? .null)]
            if case .invalid(let why) = failure.expectation { members.append(JSONMember(key: "invalidBecause", value: string(why))) }
            return .object(members)
        }
        let targets: [JSONValue] = result.operations.map { name in
            .object([JSONMember(key: "name", value: string(name)), JSONMember(key: "calls", value: .number(String(result.callsByOperation[name] ?? 0)))])
        }
        let root = JSONValue.object([
            JSONMember(key: "seed", value: .number(String(seed))),
            JSONMember(key: "calls", value: .number(String(result.calls))),
            JSONMember(key: "elapsed", value: .number(seconds)),
            JSONMember(key: "stop", value: string(result.stop.rawValue)),
            JSONMember(key: "checks", value: .array(result.checks.sorted().map { string($0.rawValue) })),
            JSONMember(key: "targets", value: .array(targets)),
            JSONMember(key: "failures", value: .array(failures)),
        ])
        return root.prettyText + "\n"
    }

    /// Why a check judged no answer of a target that had some judged, for a skipped test case.
    private static func notMade(_ check: Oracle) -> String {
        switch check {
        case .serverError: "no call was answered"
        case .noAnswer: "no call was sent"
        case .status, .contentType, .schema: "the target declares nothing this check judges of the answers it got"
        case .invalidAccepted: "no input the target refuses was answered"
        case .location, .afterDelete: "no chain of --stateful made a resource to check"
        }
    }

    /// `--report-junit`: one test case a target and check, failed when that check failed on that
    /// target, skipped when it judged none of its answers.
    var junit: String {
        let checks = result.checks.sorted()
        let failed = entries.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"wsh fuzz\" tests=\"\(result.operations.count * checks.count)\" failures=\"\(failed)\" time=\"\(seconds)\">\n"
        for name in result.operations {
            let mine = entries.filter { $0.failure.operation == name }
            let failedChecks = Set(mine.map(\.failure.oracle))
            let judged = result.judgedByOperation[name] ?? 0
            let made = result.checkedByOperation[name] ?? []
            let skipped = checks.filter { !failedChecks.contains($0) && (judged == 0 || !made.contains($0)) }.count
            xml += "  <testsuite name=\"\(MarkupText.attribute(name))\" tests=\"\(checks.count)\" failures=\"\(failedChecks.count)\" skipped=\"\(skipped)\">\n"
            xml += "    <properties><property name=\"seed\" value=\"\(seed)\"/><property name=\"calls\" value=\"\(result.callsByOperation[name] ?? 0)\"/></properties>\n"
            for check in checks {
                xml += "    <testcase classname=\"\(MarkupText.attribute(name))\" name=\"\(check.rawValue)\">"
                let found = mine.filter { $0.failure.oracle == check }
                if found.isEmpty {
                    // A target no answer of which was judged passed nothing, nor did a check that judged none.
                    if judged == 0 {
                        xml += "<skipped message=\"no answer judged\"/></testcase>\n"
                    } else if !made.contains(check) {
                        xml += "<skipped message=\"\(MarkupText.attribute(Self.notMade(check)))\"/></testcase>\n"
                    } else {
                        xml += "</testcase>\n"
                    }
                    continue
                }
                xml += "\n"
                for entry in found {
                    let body = ([entry.failure.detail] + entry.wsh + (entry.curl.map { [$0] } ?? [])).joined(separator: "\n")
                    xml += "      <failure message=\"\(MarkupText.attribute(entry.failure.summary))\" type=\"\(check.rawValue)\">\(MarkupText.escaped(body))</failure>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }
}
