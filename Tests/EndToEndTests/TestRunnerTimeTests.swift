import Foundation
import Testing
import TestSupport

/// Each file's time in `wsh test` is from its own start to its own end, whatever ran beside it,
/// on the console and in every report (issue 44: with --jobs 2 a fast file beside a slow one was
/// given the slow one's time, as the slow worker held the fast one's pipe open).
@Suite struct TestRunnerTimeTests {
    /// The slow file's time and the fast one's, as one report or the console gives them.
    struct Times: CustomStringConvertible {
        var slow: Double?
        var fast: Double?
        var description: String { "slow \(slow.map { "\($0)" } ?? "missing") ms, fast \(fast.map { "\($0)" } ?? "missing") ms" }

        /// The fast file's own time, not its neighbour's: under the defect both were the slow one's.
        var apart: Bool {
            guard let slow, let fast else { return false }
            return fast < slow
        }
    }

    /// The number in the first group of `pattern`'s first match in `text`, times `scale`.
    static func number(_ pattern: String, in text: String, scale: Double = 1) -> Double? {
        guard let match = try? NSRegularExpression(pattern: pattern).firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range(at: 1), in: text) else { return nil }
        return Double(text[range]).map { $0 * scale }
    }

    /// `pattern` with FILE standing for each file's name, read from `text`.
    static func times(_ pattern: String, in text: String, scale: Double = 1) -> Times {
        Times(slow: number(pattern.replacingOccurrences(of: "FILE", with: #"a_slow\.wsh"#), in: text, scale: scale),
              fast: number(pattern.replacingOccurrences(of: "FILE", with: #"b_fast\.wsh"#), in: text, scale: scale))
    }

    /// With two files at once, the slow one's answer is held until the fast one's line is out, and
    /// only then released: so the fast file ends first by construction, whatever the machine's
    /// load, and its time must be below the slow one's in every report. (Under the defect the fast
    /// file's line waited for the slow one, so this wait would not end; timed with a 1.5 s file,
    /// the test failed on a loaded machine, where a fast file took 6 s.)
    @Test func eachFileIsTimedFromItsOwnStartToItsOwnEnd() async throws {
        try await withLoopbackServer { server in
            let directory = try TestRunnerTests.suite([
                "a_slow.wsh": "get $base/held?type=json&whole\nexpect status == 200\n",
                "b_fast.wsh": "get $base/status/200\nexpect status == 200\n",
            ])
            let running = try RunningWSH(
                ["test", "tests", "--jobs", "2", "--var", "base=\(server.baseURL)", "--report-junit", "out/junit.xml",
                 "--report-tap", "out/report.tap", "--report-json", "out/report.json", "--report-html", "out/html"],
                directory: directory)
            let fastEnded = try await offPool { running.waitForOutput("b_fast.wsh") }
            #expect(fastEnded, "the fast file's line waited for the slow one: \(running.stdout)\(running.stderr)")
            _ = try await runCurl(["\(server.baseURL)/held/release"])
            let status = try await offPool { running.waitForExit() }
            #expect(status == 0, "\(running.stdout)\(running.stderr)")
            let out = directory.appendingPathComponent("out")
            func read(_ name: String) -> String { (try? String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)) ?? "" }

            let console = Self.times(#"FILE .* ([0-9]+) ms"#, in: running.stdout)
            #expect(console.apart, "console: \(console)\n\(running.stdout)")

            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
            let files = json?["files"] as? [[String: Any]] ?? []
            func jsonTime(_ suffix: String) -> Double? {
                files.first { ($0["path"] as? String)?.hasSuffix(suffix) == true }?["milliseconds"] as? Double
            }
            let jsonTimes = Times(slow: jsonTime("a_slow.wsh"), fast: jsonTime("b_fast.wsh"))
            #expect(jsonTimes.apart, "JSON: \(jsonTimes)")
            if let total = json?["milliseconds"] as? Double, let slow = jsonTimes.slow {
                #expect(total >= slow, "the run's time is its whole wall time")
            }

            let junit = read("junit.xml")
            let junitTimes = Self.times(#"<testsuite name="[^"]*FILE"[^>]* time="([0-9.]+)""#, in: junit, scale: 1000)
            #expect(junitTimes.apart, "JUnit: \(junitTimes)\n\(junit)")

            let tap = read("report.tap")
            let tapTimes = Self.times(#"FILE\n(?:  .*\n)*?  duration_ms: "([0-9]+)""#, in: tap)
            #expect(tapTimes.apart, "TAP: \(tapTimes)\n\(tap)")

            let html = read("html/index.html")
            let seconds = Self.times(#"FILE</span> <span class="meta">[^<]*· ([0-9.]+) s<"#, in: html, scale: 1000)
            let milliseconds = Self.times(#"FILE</span> <span class="meta">[^<]*· ([0-9]+) ms<"#, in: html)
            let htmlTimes = Times(slow: seconds.slow ?? milliseconds.slow, fast: seconds.fast ?? milliseconds.fast)
            #expect(htmlTimes.apart, "HTML: \(htmlTimes)")
        }
    }

    /// A call that timed out was reported as taking 0 ms and starting when it ended (JSON, HAR and
    /// the HTML waterfall): it took at least its timeout, from its own start.
    @Test func aCallThatTimedOutIsReportedFromItsStartForItsWholeWait() async throws {
        try await withLoopbackServer { server in
            let directory = try TestRunnerTests.suite(["t.wsh": "set timeout 300ms\nget $base/never\nexpect status == 200\n"])
            let result = try await WSHProcess.run(["test", "tests", "--var", "base=\(server.baseURL)", "--report-json", "r.json",
                                                   "--report-har", "r.har"], directory: directory)
            #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
            let file = try TestRunnerTests.reportedFiles(directory.appendingPathComponent("r.json")).first
            let call = (file?["calls"] as? [[String: Any]])?.first
            let start = call?["startMilliseconds"] as? Double ?? -1, length = call?["milliseconds"] as? Double ?? -1
            let fileLength = file?["milliseconds"] as? Double ?? -1
            #expect(length >= 300 && start >= 0 && start + length <= fileLength, "call \(start) + \(length) ms in a file of \(fileLength) ms")
            let har = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("r.har"))) as? [String: Any]
            let entry = ((har?["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first
            #expect(entry?["time"] as? Double ?? 0 >= 300, "\(entry ?? [:])")
        }
    }
}
