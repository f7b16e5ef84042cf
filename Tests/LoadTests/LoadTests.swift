import Load
import Testing

@Suite struct ThresholdTests {
    @Test func readsK6StyleThresholds() throws {
        #expect(try Threshold("p95<200ms").metric == .percentile(95))
        #expect(try Threshold("p95<200ms").limit == 200_000)
        #expect(try Threshold(" p99.9 <= 1.5s ").comparison == .lessOrEqual)
        #expect(try Threshold("p99.9<=1.5s").limit == 1_500_000)
        #expect(try Threshold("max<2s").metric == .maximum)
        #expect(try Threshold("avg<100ms").metric == .average)
        #expect(try Threshold("errors<1%").metric == .errorRate)
        #expect(try Threshold("rps>=100/s").limit == 100)
        for bad in ["p95", "p95<", "p95<200", "q95<2ms", "errors<1", "p0<1ms", "p101<1ms", "rps>x", "p95=1ms"] {
            #expect(throws: ThresholdError.self, "\(bad)") { try Threshold(bad) }
        }
    }

    @Test func judgesARun() throws {
        let stats = LoadStats()
        for milliseconds in 1...100 { stats.record(latency: .milliseconds(milliseconds), error: milliseconds > 98 ? "status 500" : nil) }
        let snapshot = stats.snapshot
        #expect(snapshot.calls == 100 && snapshot.errors == 2 && snapshot.errorsByKind == ["status 500": 2])
        #expect(try Threshold("p50<=51ms").evaluate(snapshot, seconds: 10).passed)
        #expect(try !Threshold("p99<90ms").evaluate(snapshot, seconds: 10).passed)
        #expect(try Threshold("errors<3%").evaluate(snapshot, seconds: 10) == (2, true))
        #expect(try !Threshold("errors<2%").evaluate(snapshot, seconds: 10).passed)
        #expect(try Threshold("rps>=10").evaluate(snapshot, seconds: 10) == (10, true))
        // Nothing to judge passes nothing: no `expect` ran, no call was made.
        #expect(try Threshold("checks>=99%").evaluate(snapshot, seconds: 10) == (nil, false))
        #expect(try Threshold("errors<1%").evaluate(LoadStats().snapshot, seconds: 10) == (nil, false))
        // Said as what the run lacked, not a value that meets the mark beside a ✘ (tester's L9).
        let empty = LoadReport(scenario: "s.wsh", plan: "1 user", snapshot: LoadStats().snapshot, seconds: 1,
                               thresholds: [try Threshold("p95<1s"), try Threshold("rps>=0"), try Threshold("checks>=0%"), try Threshold("errors<1%")],
                               interrupted: false)
        #expect(empty.thresholds.map(\.valueText) == ["no answered calls", "no answered calls", "no expects", "no calls"])
        #expect(empty.json.contains(#""value" : null"#) || !empty.json.contains(#""value""#), "\(empty.json)")
        // The HDR histogram keeps three significant digits.
        let p90 = try #require(try Threshold("p90<1s").evaluate(snapshot, seconds: 10).value)
        #expect(abs(p90 - 90_000) <= 90, "\(p90)")
    }

    /// `rps` counts answered calls (a 500 is one): refused connections and steps that failed
    /// without a call are no throughput, so a run where nothing answered passes no `rps` mark.
    @Test func rateCountsAnsweredCallsOnly() throws {
        let refused = LoadStats()
        for _ in 0..<1000 { refused.recordError("connection refused") }
        #expect(try Threshold("rps>=100").evaluate(refused.snapshot, seconds: 2) == (nil, false))
        #expect(try !Threshold("rps<100000").evaluate(refused.snapshot, seconds: 2).passed)
        let some = LoadStats()
        for _ in 0..<10 { some.record(latency: .milliseconds(1), error: "status 500") }
        for _ in 0..<90 { some.recordError("timeout") }
        #expect(try Threshold("rps>=5").evaluate(some.snapshot, seconds: 2) == (5, true))
        let report = LoadReport(scenario: "s.wsh", plan: "1 user", snapshot: some.snapshot, seconds: 2,
                                thresholds: [try Threshold("rps>=6")], interrupted: false)
        #expect(report.thresholds.first?.valueText == "5.0 answered calls/s" && !report.passed)
    }

    /// `dropped` is the share of the open model's arrivals that found no free connection.
    @Test func droppedIsTheShareOfArrivals() throws {
        let stats = LoadStats()
        for _ in 0..<3 { stats.recordArrival() }
        for _ in 0..<97 { stats.recordDropped() }
        #expect(try Threshold("dropped<1%").metric == .dropped)
        #expect(try Threshold("dropped<1%").evaluate(stats.snapshot, seconds: 1) == (97, false))
        #expect(try Threshold("dropped<=97%").evaluate(stats.snapshot, seconds: 1).passed)
        #expect(try Threshold("dropped<1%").evaluate(LoadStats().snapshot, seconds: 1) == (nil, false))
        #expect(throws: ThresholdError.self) { try Threshold("dropped<1") }
    }
}

@Suite struct LoadReportTests {
    @Test func theReportAndItsPageSayWhatRan() throws {
        let stats = LoadStats()
        for milliseconds in [2, 4, 8, 300] { stats.record(latency: .milliseconds(milliseconds), error: nil) }
        stats.recordError("timeout")
        stats.recordFailedExpectation("s.wsh:3: .id exists")
        let report = LoadReport(scenario: "s.wsh", plan: "2 users", snapshot: stats.snapshot, seconds: 1,
                                thresholds: [try Threshold("p99<100ms")], interrupted: false)
        #expect(report.calls == 5 && report.errors == 1 && !report.passed)
        #expect(report.timeline.map(\.calls) == [5])
        #expect(report.json.contains("\"failedExpectations\" : {\n    \"s.wsh:3: .id exists\" : 1"))
        let html = LoadHTMLReport.text(report)
        #expect(html.contains("<polyline") && html.contains("p99&lt;100ms") && html.contains("failed: s.wsh:3: .id exists"))
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("<link"), "self-contained")
        #expect(LoadView.latency(950) == "950 µs" && LoadView.latency(1_234) == "1.23 ms" && LoadView.latency(2_500_000) == "2.50 s")
    }
}

/// How a worker process of `wsh load --processes` hands over what it measured: drained a second
/// at a time, sent as a line, and merged into the parent's stats as if measured there.
@Suite struct LoadStatsTransferTests {
    @Test func drainedLinesMergeIntoTheSameTotalsAndSeconds() throws {
        let started = ContinuousClock.now
        let worker = LoadStats(started: started)
        let whole = LoadStats(started: started)
        let parent = LoadStats(started: started)
        // Three seconds of calls, drained after each (a drain may fall inside a second).
        for second in 0..<3 {
            for milliseconds in 1...(10 * (second + 1)) {
                let at = started + .seconds(second) + .milliseconds(milliseconds * 10)
                let error = milliseconds % 7 == 0 ? "status 500" : nil
                worker.record(latency: .milliseconds(milliseconds), error: error, at: at)
                whole.record(latency: .milliseconds(milliseconds), error: error, at: at)
            }
            worker.recordFailedExpectation("s.wsh:3: .id exists")
            whole.recordFailedExpectation("s.wsh:3: .id exists")
            worker.recordPassedExpectation()
            whole.recordPassedExpectation()
            worker.recordDropped()
            whole.recordDropped()
            worker.recordArrival()
            whole.recordArrival()
            let line = worker.drain().line
            #expect(!line.contains("\n"))
            parent.merge(try #require(LoadStats.Snapshot(line: line.utf8)))
        }
        worker.recordError("timeout", at: started + .milliseconds(2500))
        whole.recordError("timeout", at: started + .milliseconds(2500))
        parent.merge(try #require(LoadStats.Snapshot(line: worker.drain().line.utf8)))

        let merged = parent.snapshot, expected = whole.snapshot
        #expect(merged.calls == expected.calls && merged.errors == expected.errors)
        #expect(merged.errorsByKind == expected.errorsByKind && merged.failedExpectations == expected.failedExpectations)
        #expect(merged.passedChecks == 3 && merged.failedChecks == 3 && merged.dropped == 3 && merged.arrivals == 3)
        #expect(merged.seconds.map(\.calls) == expected.seconds.map(\.calls))
        #expect(merged.seconds.map(\.errors) == expected.seconds.map(\.errors))
        for percentile in [50.0, 90, 99, 100] {
            #expect(merged.latencies.valueAtPercentile(percentile) == expected.latencies.valueAtPercentile(percentile))
            #expect(merged.seconds[2].latencies.valueAtPercentile(percentile) == expected.seconds[2].latencies.valueAtPercentile(percentile))
        }
        #expect(LoadStats.Snapshot(line: "not json".utf8) == nil)
        #expect(LoadStats.Snapshot(line: "{\"calls\":1}".utf8) == nil)
    }
}
