import Targets
import TestSupport
import Testing
@testable import Checks

/// wsh's own paths (`.a[*].b[1:]..c[? .n > 1]`) give what RFC 9535 gives for the same steps:
/// random documents and random paths, walked by ``JSONWalk`` and by the RFC's evaluator
/// (``JSONPath``, checked against the JSONPath compliance test suite's 703 cases), must agree,
/// node list for node list. Seeded: a failure prints its seed, and `WSH_TEST_SEED` replays it.
@Suite struct JSONWalkTests {
    /// `[? .KEY > VALUE]`, the one filter condition the walk is asked about here.
    struct Greater: Sendable, Equatable {
        var key: String
        var value: Int
    }

    typealias Step = QueryStep<Greater>

    private static let keys = ["a", "b", "c"]

    private static func document(_ depth: Int, _ random: inout SeededGenerator) -> JSONValue {
        let kind = depth >= 4 ? Int.random(in: 0..<4, using: &random) : Int.random(in: 0..<7, using: &random)
        switch kind {
        case 0: return .number(String(Int.random(in: -2...3, using: &random)))
        case 1: return .string(keys.randomElement(using: &random) ?? "a")
        case 2: return Bool.random(using: &random) ? .null : .bool(Bool.random(using: &random))
        case 3: return .number(String(Int.random(in: 0...5, using: &random)))
        case 4, 5:
            let names = keys.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))
            return .object(names.map { JSONMember(key: $0, value: document(depth + 1, &random)) })
        default:
            return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in document(depth + 1, &random) })
        }
    }

    private static func step(_ random: inout SeededGenerator) -> Step {
        let key = keys.randomElement(using: &random) ?? "a"
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return .key(key)
        case 1: return .index(Int.random(in: -2...2, using: &random))
        case 2: return .all
        case 3:
            func bound() -> Int? { Bool.random(using: &random) ? nil : Int.random(in: -3...3, using: &random) }
            return .slice(bound(), bound())
        case 4: return .descendants(key)
        default: return .filter(Greater(key: key, value: Int.random(in: -1...2, using: &random)))
        }
    }

    /// The same steps as an RFC 9535 query.
    private static func jsonPath(_ steps: [Step]) -> String {
        "$" + steps.map { step in
            switch step {
            case .key(let key): "['\(key)']"
            case .index(let index): "[\(index)]"
            case .all: "[*]"
            case .slice(let from, let to): "[\(from.map(String.init) ?? ""):\(to.map(String.init) ?? "")]"
            case .descendants(let key): "..['\(key)']"
            case .filter(let condition): "[?@['\(condition.key)'] > \(condition.value)]"
            }
        }.joined()
    }

    private static func holds(_ condition: Greater, _ element: JSONValue) -> Bool {
        guard case .number(let text)? = element[condition.key], let number = Int(text) else { return false }
        return number > condition.value
    }

    @Test func wshPathsAndJSONPathAgreeOnRandomDocuments() throws {
        let seed = SeededGenerator.seed()
        var random = SeededGenerator(seed: seed)
        for _ in 0..<3000 {
            let document = Self.document(0, &random)
            let steps = (0..<Int.random(in: 1...5, using: &random)).map { _ in Self.step(&random) }
            let query = Self.jsonPath(steps)
            let expected = try JSONPath(query).values(in: document)
            let walked = JSONWalk.walk(document, steps, where: Self.holds).value
            let fansOut = steps.contains { if case .key = $0 { false } else if case .index = $0 { false } else { true } }
            // A singular path gives its value or nothing; any other the node list, empty when it
            // reached nothing (or nothing at all when its first fan-out met a scalar).
            let actual: [JSONValue] = switch (fansOut, walked) {
            case (false, let value?): [value]
            case (false, nil), (true, nil): []
            case (true, .array(let nodes)?): nodes
            case (true, let other?): [other]
            }
            guard actual == expected else {
                Issue.record("""
                    seed \(seed) (replay: \(SeededGenerator.seedVariable)=\(seed)): \(query) on \(document.compactText)
                    wsh:  \(JSONValue.array(actual).compactText)
                    RFC:  \(JSONValue.array(expected).compactText)
                    """)
                return
            }
        }
    }
}
