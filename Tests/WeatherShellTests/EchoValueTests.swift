import Foundation
import Testing
@testable import WeatherShell

/// `set echo changes` shows only the fields a reduce changed; at a terminal long lines are cut.
@Suite struct EchoValueTests {
    private let fields: [(name: String, value: EchoValue)] = [("count", .number(2)), ("loading", .bool(false)), ("note", .text("x"))]
    private let before: [(name: String, value: EchoValue)] = [("count", .number(1)), ("loading", .bool(true)), ("note", .text("x"))]

    @Test func changesShowsOnlyWhatTheReduceChanged() {
        let style = EchoStyle(mode: .changes, color: false)
        #expect(style.render(reactor: "counter", fields: fields, previous: before) == "counter | count=2 loading=false")
        #expect(style.render(reactor: "counter", fields: fields, previous: nil) == #"counter | count=2 loading=false note="x""#)
        #expect(style.render(reactor: "counter", fields: fields, previous: fields) == nil, "nothing changed, nothing echoed")
    }

    @Test func aLongLineIsCutToTheWidthWithAnEllipsisKeepingColourSequencesWhole() {
        #expect(EchoStyle.cut("weather | view=\"current\" place=\"Suwon\"", to: 20) == "weather | view=\"cur…")
        #expect(EchoStyle.cut("short", to: 20) == "short")
        // 서울 takes four columns: the cut counts them so the line does not wrap.
        #expect(EchoStyle.cut("place=\"서울 날씨\" temperature=6.8", to: 12) == "place=\"서울…")
        let coloured = "a | \u{1B}[1;33mcount=2\u{1B}[0m and more text"
        #expect(EchoStyle.cut(coloured, to: 10) == "a | \u{1B}[1;33mcount…\u{1B}[0m")
    }
}

@Suite struct ReactorSupportTests {
    @Test func echoLineQuotesTextAndWritesNumbersBare() {
        let style = EchoStyle(mode: .line, color: false)
        let line = style.render(reactor: "r", fields: [("a", .number(12)), ("b", .number(-3.5)), ("c", .text("x \"y\"")), ("d", .bool(false)), ("e", .none)], previous: nil)
        #expect(line == #"r | a=12 b=-3.5 c="x \"y\"" d=false e=null"#)
    }

    @Test func changedFieldsAreHighlightedOnlyWithColour() {
        let before: [(name: String, value: EchoValue)] = [("a", .number(1)), ("b", .bool(false))]
        let after: [(name: String, value: EchoValue)] = [("a", .number(2)), ("b", .bool(false))]
        let colored = EchoStyle(mode: .line, color: true).render(reactor: "r", fields: after, previous: before)
        #expect(colored == "r | \u{1B}[1;33ma=2\u{1B}[0m b=false")
        #expect(EchoStyle(mode: .line, color: false).render(reactor: "r", fields: after, previous: before) == "r | a=2 b=false")
    }

    @Test func echoValuesParseAsTheLanguageWritesThem() {
        #expect(EchoValue.parse("false", quoted: false) == .bool(false))
        #expect(EchoValue.parse("false", quoted: true) == .text("false"))
        #expect(EchoValue.parse("12.5", quoted: false) == .number(12.5))
        #expect(EchoValue.parse("", quoted: true) == .text(""))
        #expect(EchoValue.parse("inf", quoted: false) == .text("inf"))
    }

    /// `emit f = $v` keeps the type `let` gave v (it echoed `n="5"` for `let v = 5`).
    @ShellActor
    @Test func anEmittedVariableKeepsItsType() async {
        let shell = ShellHarness()
        let halt = await shell.run("""
            reactor q { state n = 0, ok = false, s = ""; action set { emit n = $v, ok = $b, s = $t } }
            let v = 5; let b = true; let t = "5"
            q set
            """)
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout.hasSuffix("q | n=5 ok=true s=\"5\"\n"), "\(shell.stdout)")
    }

    @Test func localTimesAddHoursAndRoundToTheNearestHour() {
        #expect(LocalTime.nearestHour(LocalTime.adding(hours: 4, to: "2026-11-21T09:45")) == "2026-11-21T14:00")
        #expect(LocalTime.nearestHour(LocalTime.adding(hours: 4, to: "2026-11-21T21:20")) == "2026-11-22T01:00")
        #expect(LocalTime.nearestHour(LocalTime.adding(hours: 1, to: "not a time")) == nil)
        #expect(LocalTime.format(unix: 1742495276, offset: 32400) == "2025-03-21T03:27")
    }

    @ShellActor
    @Test func reactorActionsComplete() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("reactor quote {\n state loading = false\n action refresh { emit loading = true }\n}")
        #expect(shell.run.completions(for: "quo") == ["quote"])
        #expect(shell.run.completions(for: "quote r") == ["refresh"])
        #expect(shell.run.completions(for: "weather f") == ["forecast"])
        #expect(shell.run.completions(for: "weather use open") == ["open-meteo", "openweathermap"])
    }
}
