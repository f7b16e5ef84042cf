import Foundation
import Targets

/// The HTML report: one self-contained page (inline style, no script, no network asset) with the
/// summary, then each file, failing ones first and open: its checks (failing first, each with
/// the answer it looked at), and its calls with method, URL, status, time and a waterfall.
enum HTMLReport {
    /// The page `--report-html DIR` writes.
    static func file(in directory: String) -> String {
        (directory as NSString).appendingPathComponent("index.html")
    }

    static func text(_ summary: TestSummary) -> String {
        let title = "wsh test: " + summary.line
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(title))</title>
            <style>\(style)</style>
            </head>
            <body>
            <header>
            <h1>wsh test</h1>
            <p class="summary">\(summaryBadges(summary)) <span class="meta">\(summary.results.count) file\(summary.results.count == 1 ? "" : "s") · \(time(summary.milliseconds))</span></p>
            \(summaryBar(summary))
            </header>
            <main>

            """
        let order: [TestFileResult.Outcome] = [.errored, .failed, .interrupted, .passed]
        let files = summary.results.enumerated().sorted { left, right in
            let (l, r) = (order.firstIndex(of: left.element.outcome) ?? 0, order.firstIndex(of: right.element.outcome) ?? 0)
            return l != r ? l < r : left.offset < right.offset
        }.map(\.element)
        for result in files { html += file(result) }
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    private static func escaped(_ text: String) -> String { MarkupText.escaped(text) }

    private static func time(_ milliseconds: Double) -> String {
        milliseconds < 1000 ? "\(MarkupText.whole(milliseconds)) ms" : "\(MarkupText.seconds(milliseconds)) s"
    }

    private static func summaryBadges(_ summary: TestSummary) -> String {
        var badges = ["<span class=\"badge passed\">\(summary.passed) passed</span>",
                      "<span class=\"badge failed\">\(summary.failed) failed</span>"]
        if summary.errored > 0 { badges.append("<span class=\"badge errored\">\(summary.errored) errored</span>") }
        if summary.interruptedFiles > 0 { badges.append("<span class=\"badge interrupted\">\(summary.interruptedFiles) interrupted</span>") }
        if summary.notRun > 0 { badges.append("<span class=\"badge interrupted\">\(summary.notRun) not run</span>") }
        return badges.joined(separator: " ")
    }

    /// A bar of the files by outcome.
    private static func summaryBar(_ summary: TestSummary) -> String {
        let total = max(1, summary.results.count)
        let parts = [("passed", summary.passed), ("failed", summary.failed), ("errored", summary.errored),
                     ("interrupted", summary.interruptedFiles)].filter { $0.1 > 0 }
        let spans = parts.map { "<span class=\"\($0.0)\" style=\"width:\(percent(Double($0.1), of: Double(total)))%\"></span>" }
        return "<div class=\"outcomes\">\(spans.joined())</div>"
    }

    private static func percent(_ part: Double, of whole: Double) -> String {
        let ratio = part / whole * 100
        guard whole > 0, ratio.isFinite else { return "0" }
        return String(Double(MarkupText.whole(min(100, max(0, ratio)) * 100)) / 100)
    }

    private static func mark(_ outcome: TestFileResult.Outcome) -> String {
        outcome == .passed ? "✓" : "✗"
    }

    private static func file(_ result: TestFileResult) -> String {
        let open = result.outcome == .passed ? "" : " open"
        let checks = result.checks.count
        var html = "<details class=\"file \(result.outcome.rawValue)\"\(open)>\n<summary><span class=\"mark\">\(mark(result.outcome))</span> "
            + "<span class=\"path\">\(escaped(result.path))</span> <span class=\"meta\">\(result.outcome.rawValue) · \(checks) check\(checks == 1 ? "" : "s") · "
            + "\(result.calls.count) call\(result.calls.count == 1 ? "" : "s") · \(time(result.milliseconds))</span></summary>\n"
        let (checkErrors, otherErrors) = result.errorsByCheck
        // The first failure, unless it is an error shown whole below (an `until` that ran out).
        if let failure = result.firstFailure, result.outcome != .passed, !otherErrors.contains(where: { $0.message == failure.message }) {
            html += "<p class=\"failure\">\(escaped(failure.location)): \(escaped(failure.message))</p>\n"
        }
        for error in otherErrors {
            html += "<pre class=\"error\">\(escaped(error.rendered))</pre>\n"
        }
        for warning in result.warnings {
            html += "<p class=\"warning\">warning: \(escaped(warning))</p>\n"
        }
        // A file stopped by an error (a failed validate, a bad body) shows the last answer it had;
        // a check that could not be evaluated shows the answer it looked at with itself.
        if result.outcome == .errored, !otherErrors.isEmpty, let last = result.calls.last, last.body != nil || last.bodyBase64 != nil {
            html += "<p class=\"answer\">Last answer: \(answerLine(last))</p>\n" + headers(last.responseHeaders) + body(last)
        }
        if !result.checks.isEmpty {
            html += "<h3>Checks</h3>\n<ul class=\"checks\">\n"
            let indexed = Array(result.checks.enumerated())
            for (index, check) in indexed.filter({ !$0.element.passed }) + indexed.filter(\.element.passed) {
                html += self.check(check, error: checkErrors[index], calls: result.calls)
            }
            html += "</ul>\n"
        }
        if !result.calls.isEmpty { html += calls(result.calls) }
        return html + "</details>\n"
    }

    /// A check's item; one that could not be evaluated shows its `error` (with the caret) in place
    /// of a failure's message.
    private static func check(_ check: TestCheckRecord, error: TestErrorRecord?, calls: [TestCallRecord]) -> String {
        let location = "\(escaped(check.file)):\(check.line):\(check.column)"
        guard !check.passed else {
            return "<li class=\"check passed\"><span class=\"mark\">✓</span> <code>expect \(escaped(check.source))</code> <span class=\"meta\">\(location)</span></li>\n"
        }
        var html = "<li class=\"check \(error == nil ? "failed" : "errored")\"><details open><summary><span class=\"mark\">✗</span> "
            + "<code>expect \(escaped(check.source))</code> <span class=\"meta\">\(location)</span></summary>\n"
        if let error {
            html += "<pre class=\"error\">\(escaped(error.rendered))</pre>\n"
        } else {
            html += "<p class=\"failure\">\(escaped(check.message ?? "expectation failed"))</p>\n"
            for note in check.notes { html += "<p class=\"note\">\(escaped(note))</p>\n" }
        }
        if let index = check.callIndex, calls.indices.contains(index) {
            let call = calls[index]
            html += "<p class=\"answer\">Answer checked: \(answerLine(call))</p>\n"
            html += headers(call.responseHeaders)
            html += body(call)
        }
        return html + "</details></li>\n"
    }

    /// `GET URL → 200 OK`, or the call's failure.
    private static func answerLine(_ call: TestCallRecord) -> String {
        "<code>\(escaped(call.method ?? "")) \(escaped(call.url ?? call.target))</code> → "
            + (call.status.map { "\($0) \(escaped(call.reason ?? ""))" } ?? escaped(call.failure ?? "no answer"))
    }

    private static func headers(_ headers: [TestHeader]) -> String {
        guard !headers.isEmpty else { return "" }
        let lines = headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        return "<pre class=\"headers\">\(escaped(lines))</pre>\n"
    }

    private static func body(_ call: TestCallRecord) -> String {
        if call.bodyBase64 != nil {
            return "<p class=\"note\">\(escaped(binaryBody(call)))</p>\n"
        }
        guard let body = call.body else {
            return call.bodyBytes > 0 ? "<p class=\"note\">body of \(call.bodyBytes) bytes not kept</p>\n" : ""
        }
        let cut = call.bodyCut ? "<p class=\"note\">body cut to its first \(TestRecorder.keptBodyLimit / 1024) KB of \(call.bodyBytes) bytes</p>\n" : ""
        // Already masked: pretty-printing a JSON body only makes it readable.
        let shown = call.bodyCut ? body : ((try? JSONValue.parse(Data(body.utf8)))?.prettyText ?? body)
        return "<pre class=\"body\">\(escaped(shown.isEmpty ? "(empty body)" : shown))</pre>\n" + cut
    }

    /// What a binary body is, as Hurl says it: `(64 bytes of binary, image/png)`; never bytes
    /// decoded as text, which would pass for the body.
    private static func binaryBody(_ call: TestCallRecord) -> String {
        let type = call.responseHeaders.last { $0.name.lowercased() == "content-type" }?.value
        return "(\(call.bodyBytes) bytes of binary\(type.map { ", \($0)" } ?? ""))"
    }

    private static func calls(_ calls: [TestCallRecord]) -> String {
        let end = calls.map { $0.startMilliseconds + $0.milliseconds }.max() ?? 0
        var html = "<h3>Calls</h3>\n<table class=\"calls\">\n<tr><th>#</th><th>Method</th><th>URL</th><th>Status</th><th>Time</th><th class=\"waterfall\">Waterfall</th></tr>\n"
        for (index, call) in calls.enumerated() {
            let status = call.status.map { "<span class=\"status s\($0 / 100)xx\">\($0)</span>" } ?? "<span class=\"status error\">\(escaped(call.failure ?? "failed"))</span>"
            let left = percent(call.startMilliseconds, of: end)
            let width = max(0.5, Double(percent(call.milliseconds, of: end)) ?? 0)
            html += "<tr><td>\(index + 1)</td><td>\(escaped(call.method ?? ""))</td><td class=\"url\">\(escaped(call.url ?? call.target))</td>"
                + "<td>\(status)</td><td>\(time(call.milliseconds))</td>"
                + "<td class=\"waterfall\"><div class=\"lane\"><span style=\"margin-left:\(left)%;width:\(width)%\"></span></div></td></tr>\n"
        }
        return html + "</table>\n"
    }

    private static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#f5f6f8}
        header{background:#1d2330;color:#fff;padding:16px 24px}
        h1{margin:0 0 6px;font-size:20px}
        h3{font-size:13px;text-transform:uppercase;letter-spacing:.05em;color:#5a6270;margin:14px 0 6px}
        main{padding:16px 24px;max-width:1200px}
        .badge{display:inline-block;padding:2px 10px;border-radius:10px;font-weight:600;margin-right:4px}
        .badge.passed{background:#1f7a3d}.badge.failed{background:#b3261e}.badge.errored{background:#8a4b00}.badge.interrupted{background:#555}
        .meta{color:#8a93a3;font-size:12px}
        header .meta{color:#c5cbd6}
        .outcomes{display:flex;height:6px;border-radius:3px;overflow:hidden;margin-top:8px;background:#444}
        .outcomes .passed{background:#3fb96b}.outcomes .failed{background:#e5534b}.outcomes .errored{background:#d18616}.outcomes .interrupted{background:#888}
        details.file{background:#fff;border:1px solid #dde1e7;border-left:5px solid #3fb96b;border-radius:6px;margin:10px 0;padding:8px 14px}
        details.file.failed{border-left-color:#e5534b}details.file.errored{border-left-color:#d18616}details.file.interrupted{border-left-color:#888}
        summary{cursor:pointer}
        .path{font-weight:600}
        .passed>.mark,.check.passed .mark{color:#1f7a3d}
        .failed .mark,.errored .mark,.interrupted .mark{color:#b3261e}
        .failure{color:#b3261e;font-weight:600;margin:6px 0}
        .note{color:#5a6270;margin:2px 0;font-family:ui-monospace,monospace;font-size:12px}
        ul.checks{list-style:none;padding:0;margin:0}
        .check{padding:3px 0;border-bottom:1px solid #f0f1f4}
        .check.failed,.check.errored{background:#fff5f5;padding:6px 8px}
        code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
        pre{background:#f6f8fa;border:1px solid #e3e6ea;border-radius:4px;padding:8px;overflow:auto;max-height:24em;white-space:pre-wrap;word-break:break-all}
        pre.error{background:#fff8e6;border-color:#f0d8a8}
        table.calls{border-collapse:collapse;width:100%;font-size:12px}
        table.calls th,table.calls td{text-align:left;padding:3px 6px;border-bottom:1px solid #eef0f3;vertical-align:middle}
        td.url{font-family:ui-monospace,monospace;word-break:break-all}
        th.waterfall,td.waterfall{width:30%}
        .lane{position:relative;height:10px;background:#f0f2f5;border-radius:2px}
        .lane span{display:block;height:10px;background:#4a7fd4;border-radius:2px;min-width:2px}
        .status{font-weight:600}.s2xx{color:#1f7a3d}.s3xx{color:#4a7fd4}.s4xx,.s5xx,.status.error{color:#b3261e}
        """
}
