import Foundation
import Testing
@testable import WeatherShell

/// `set echo changes` shows only the fields a reduce changed; at a terminal long lines are cut.
@Suite struct EchoChangesTests {
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
