@testable import Fuzzing
import Targets
import Testing

/// Where a stateful chain reads the created resource's id (docs/fuzzing.md, `--stateful`): the
/// nearest level first, the parameter's own name before `id` at each level, then the Location.
@Suite struct ChainCaptureTests {
    static func captured(_ body: String, parameter: String = "id", location: String? = nil) -> FuzzFailure.Capture? {
        RunState.capture(FuzzOutcome(status: 201, headers: location.map { [Header(name: "Location", value: $0)] } ?? [], body: Array(body.utf8)),
                         parameter: parameter)
    }

    @Test func theNearestLevelWins() {
        #expect(Self.captured(#"{"id": 1, "data": {"id": 2}}"#) == .init(value: "1", query: ".id"))
        #expect(Self.captured(#"{"data": {"type": "items", "id": "5"}}"#) == .init(value: "5", query: ".data.id"))
        #expect(Self.captured(#"{"meta": {}, "result": {"item": {"id": 7}}}"#) == .init(value: "7", query: ".result.item.id"))
        #expect(Self.captured(#"{"data": {"itemId": 3, "id": 4}}"#, parameter: "itemId") == .init(value: "3", query: ".data.itemId"))
    }

    @Test func deeperThanTwoLevelsOrOddNamesFallToTheLocation() {
        #expect(Self.captured(#"{"a": {"b": {"c": {"id": 1}}}}"#, location: "/items/9") == .init(value: "9", query: #"header Location | split "/" | last"#))
        #expect(Self.captured(#"{"a-b": {"id": 1}}"#) == nil)
        #expect(Self.captured(#"[{"id": 1}]"#) == nil)
    }
}
