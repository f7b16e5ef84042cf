@testable import Fuzzing
import Targets
import Testing

/// Where a stateful chain reads the created resource's id (docs/fuzzing.md, `--stateful`): the
/// top level, then the Location, then one and two levels down, the parameter's own name first.
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

    /// A nested `id` took the place of the Location's (`{"meta":{"id":"req-1"},"data":{"id":5}}`
    /// with `Location: /items/5` sent `GET /items/req-1`; review of F17), an `id` in an earlier
    /// sibling that of the member named like the parameter, and an empty one was taken.
    @Test func theLocationWinsOverANestedIdAndTheParametersNameOverId() {
        #expect(Self.captured(#"{"meta": {"id": "req-1"}, "data": {"id": 5}}"#, location: "/items/5")
                == .init(value: "5", query: #"header Location | split "/" | last"#))
        #expect(Self.captured(#"{"meta": {"id": "x"}, "data": {"itemId": 5}}"#, parameter: "itemId") == .init(value: "5", query: ".data.itemId"))
        #expect(Self.captured(#"{"data": {"id": ""}}"#) == nil)
        #expect(Self.captured(#"{"id": "", "data": {"id": 4}}"#) == .init(value: "4", query: ".data.id"))
    }

    @Test func deeperThanTwoLevelsOrOddNamesFallToTheLocation() {
        #expect(Self.captured(#"{"a": {"b": {"c": {"id": 1}}}}"#, location: "/items/9") == .init(value: "9", query: #"header Location | split "/" | last"#))
        #expect(Self.captured(#"{"a-b": {"id": 1}}"#) == nil)
        #expect(Self.captured(#"[{"id": 1}]"#) == nil)
    }
}
