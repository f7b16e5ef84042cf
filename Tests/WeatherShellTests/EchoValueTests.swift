import Foundation
import Testing
@testable import WeatherShell

/// `set echo changes` shows only the fields a reduce changed; at a terminal long lines are cut.
@Suite struct EchoValueTests {
    private let fields: [(name: String, value: EchoValue)] = [("count", .number("2")), ("loading", .bool(false)), ("note", .text("x"))]
    private let before: [(name: String, value: EchoValue)] = [("count", .number("1")), ("loading", .bool(true)), ("note", .text("x"))]

    @Test func changesShowsOnlyWhatTheReduceChanged() {
        let style = EchoStyle(mode: .changes, color: false)
        #expect(style.render(reactor: "counter", fields: fields, previous: before, mask: { $0 }) == "counter | count=2 loading=false")
        #expect(style.render(reactor: "counter", fields: fields, previous: nil, mask: { $0 }) == #"counter | count=2 loading=false note="x""#)
        #expect(style.render(reactor: "counter", fields: fields, previous: fields, mask: { $0 }) == "counter | (no change)",
                "a reduce that changed nothing says so (reactors tester's L7): with no line, `z set 0` left no trace")
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
        let line = style.render(reactor: "r", fields: [("a", .number("12")), ("b", .number("-3.5")), ("c", .text("x \"y\"")), ("d", .bool(false)), ("e", .none)], previous: nil, mask: { $0 })
        #expect(line == #"r | a=12 b=-3.5 c="x \"y\"" d=false e=null"#)
    }

    @Test func changedFieldsAreHighlightedOnlyWithColour() {
        let before: [(name: String, value: EchoValue)] = [("a", .number("1")), ("b", .bool(false))]
        let after: [(name: String, value: EchoValue)] = [("a", .number("2")), ("b", .bool(false))]
        let colored = EchoStyle(mode: .line, color: true).render(reactor: "r", fields: after, previous: before, mask: { $0 })
        #expect(colored == "r | \u{1B}[1;33ma=2\u{1B}[0m b=false")
        #expect(EchoStyle(mode: .line, color: false).render(reactor: "r", fields: after, previous: before, mask: { $0 }) == "r | a=2 b=false")
    }

    @Test func echoValuesParseAsTheLanguageWritesThem() {
        #expect(EchoValue.parse("false", quoted: false) == .bool(false))
        #expect(EchoValue.parse("false", quoted: true) == .text("false"))
        #expect(EchoValue.parse("12.5", quoted: false) == .number("12.5"))
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

    /// A state field holds a number as the literal, variable or query had it: it went through a
    /// Double, so `9007199254740993` echoed `9007199254740992.0`, a 23-digit id from an answer
    /// `1.2345678901234568e+22`, and `1.10` echoed `1.1`.
    @ShellActor
    @Test func stateNumbersKeepEveryDigit() async {
        let shell = ShellHarness()
        let halt = await shell.run("""
            set stub immediate
            target t { base http://127.0.0.1:9; path /; sample '{"big": 12345678901234567890123}' }
            reactor r { state id = 0; action setn n { emit id = $n }; action lit { emit id = 9007199254740993 }; action q { emit id = .big } }
            call t > /dev/null
            r lit
            r q
            r setn 9007199254740993
            r setn 1.10
            r setn -0.0
            r setn 1e400
            r setn +.5
            set echo json
            r lit
            """)
        #expect(halt == nil, "\(shell.stderr)")
        let echoes = shell.stdout.split(separator: "\n").filter { $0.hasPrefix("r |") || $0.hasPrefix("{\"r\"") }
        #expect(echoes == ["r | id=9007199254740993", "r | id=12345678901234567890123", "r | id=9007199254740993", "r | id=1.10",
                           "r | id=-0.0", "r | id=1e400", "r | id=0.5", #"{"r":{"id":9007199254740993}}"#], "\(shell.stdout)")
    }

    @Test func aNumberLiteralIsWrittenAsJSONWithItsDigits() {
        for (literal, json) in [("9007199254740993", "9007199254740993"), ("1.10", "1.10"), ("-0.0", "-0.0"), ("1E+5", "1E+5"),
                                ("007", "7"), ("+1", "1"), (".5", "0.5"), ("-.5e3", "-0.5e3"), ("5.", "5"), ("0", "0"), ("-00.10", "-0.10")] {
            #expect(EchoValue.jsonNumber(literal) == json, "\(literal)")
        }
    }

    /// An action's argument is typed as `let` types its word: a quoted one is text (`"007"` gave
    /// `id=7`), a bare number a number, `$v` v's type.
    @ShellActor
    @Test func aQuotedActionArgumentIsText() async {
        let shell = ShellHarness()
        let halt = await shell.run("""
            reactor r { state id = 0; action setn n { emit id = $n } }
            let v = "5"
            r setn "007"
            r setn 007
            r setn $v
            r setn "true"
            r setn true
            """)
        #expect(halt == nil, "\(shell.stderr)")
        let echoes = shell.stdout.split(separator: "\n").filter { $0.hasPrefix("r |") }
        #expect(echoes == [#"r | id="007""#, "r | id=7", #"r | id="5""#, #"r | id="true""#, "r | id=true"], "\(shell.stdout)")
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
