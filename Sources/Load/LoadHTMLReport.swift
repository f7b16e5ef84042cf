import Targets

/// `--report-html DIR`: one self-contained page (inline SVG and CSS, no script, nothing from the
/// network) with the summary, the thresholds, plots over time of calls and errors a second and of
/// the p50, p95 and p99 latencies, the latency histogram, and the errors and failed `expect`s.
public enum LoadHTMLReport {
    public static func text(_ report: LoadReport) -> String {
        let share = report.calls == 0 ? 0 : Double(report.errors) * 100 / Double(report.calls)
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>wsh load: \(escaped(report.scenario))</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; background: #fff; }
            h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
            table { border-collapse: collapse; } td, th { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: left; }
            .pass { color: #187a2f; } .fail { color: #b00020; } .plot { border: 1px solid #ccc; background: #fafafa; }
            .legend span { margin-right: 16px; } .swatch { display: inline-block; width: 12px; height: 3px; vertical-align: middle; margin-right: 4px; }
            </style></head><body>
            <h1>wsh load: \(escaped(report.scenario))</h1>
            <p>\(escaped(report.plan)), \(LoadView.formatted(report.seconds, digits: 1)) s\(report.interrupted ? " (interrupted)" : "")</p>
            <table>
            <tr><th>calls</th><td>\(report.calls)</td><th>calls/s</th><td>\(report.callsPerSecond)</td></tr>
            <tr><th>errors</th><td>\(report.errors) (\(LoadView.formatted(share, digits: 2))%)</td><th>dropped arrivals</th><td>\(report.dropped)</td></tr>
            <tr><th>p50</th><td>\(report.latency.p50) ms</td><th>p90</th><td>\(report.latency.p90) ms</td></tr>
            <tr><th>p95</th><td>\(report.latency.p95) ms</td><th>p99</th><td>\(report.latency.p99) ms</td></tr>
            <tr><th>max</th><td>\(report.latency.max) ms</td><th>mean</th><td>\(report.latency.mean) ms</td></tr>
            </table>

            """
        if !report.thresholds.isEmpty {
            html += "<h2>Thresholds</h2><table>"
            for result in report.thresholds {
                html += "<tr><td class=\"\(result.passed ? "pass" : "fail")\">\(result.passed ? "passed" : "failed")</td><td>\(escaped(result.threshold))</td><td>\(escaped(result.valueText))</td></tr>"
            }
            html += "</table>\n"
        }
        let seconds = report.timeline.map { Double($0.second) }
        html += "<h2>Calls and errors a second</h2>\n"
        html += plot([("calls/s", "#1f6feb", report.timeline.map { Double($0.calls) }), ("errors/s", "#d1242f", report.timeline.map { Double($0.errors) })],
                     x: seconds, unit: "")
        html += "<h2>Latency over time (ms)</h2>\n"
        html += plot([("p50", "#2da44e", report.timeline.map(\.p50)), ("p95", "#bf8700", report.timeline.map(\.p95)), ("p99", "#d1242f", report.timeline.map(\.p99))],
                     x: seconds, unit: " ms")
        if !report.errorsByKind.isEmpty || !report.failedExpectations.isEmpty {
            html += "<h2>Errors and failed checks</h2><table>"
            for (kind, count) in report.errorsByKind.sorted(by: { $0.value > $1.value }) { html += "<tr><td>\(escaped(kind))</td><td>\(count)</td></tr>" }
            for (place, count) in report.failedExpectations.sorted(by: { $0.value > $1.value }) { html += "<tr><td>failed: \(escaped(place))</td><td>\(count)</td></tr>" }
            html += "</table>\n"
        }
        return html + "</body></html>\n"
    }

    /// Lines over time in an SVG, with axes labelled at the maximum and the last second.
    static func plot(_ series: [(name: String, color: String, values: [Double])], x: [Double], unit: String) -> String {
        let width = 720.0, height = 220.0, left = 56.0, bottom = 24.0, top = 10.0
        let maxY = max(1, series.flatMap(\.values).max() ?? 1)
        let maxX = max(1, x.last ?? 1)
        func point(_ xValue: Double, _ yValue: Double) -> String {
            let px = left + (width - left - 10) * xValue / maxX
            let py = top + (height - top - bottom) * (1 - yValue / maxY)
            return "\(LoadView.formatted(px, digits: 1)),\(LoadView.formatted(py, digits: 1))"
        }
        var svg = "<svg class=\"plot\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<line x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(height - bottom)\" stroke=\"#888\"/>"
        svg += "<line x1=\"\(left)\" y1=\"\(height - bottom)\" x2=\"\(width - 10)\" y2=\"\(height - bottom)\" stroke=\"#888\"/>"
        svg += "<text x=\"4\" y=\"\(top + 10)\" font-size=\"11\">\(LoadView.formatted(maxY, digits: 1))\(unit)</text>"
        svg += "<text x=\"4\" y=\"\(height - bottom)\" font-size=\"11\">0</text>"
        svg += "<text x=\"\(width - 40)\" y=\"\(height - 6)\" font-size=\"11\">\(Int(maxX)) s</text>"
        for line in series where !line.values.isEmpty {
            let points = zip(x, line.values).map { point($0, $1) }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\" points=\"\(points)\"/>"
        }
        svg += "</svg>\n<p class=\"legend\">" + series.map { "<span><i class=\"swatch\" style=\"background:\($0.color)\"></i>\(escaped($0.name))</span>" }.joined() + "</p>\n"
        return svg
    }

    static func escaped(_ text: String) -> String {
        MarkupEscape.escaped(text)
    }
}
