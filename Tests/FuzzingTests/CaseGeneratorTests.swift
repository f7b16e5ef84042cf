import Checks
import Fuzzing
import Targets
import Testing
import TestSupport

@Suite struct CaseGeneratorTests {
    static func schema(_ text: String) -> JSONValue {
        (try? JSONValue.parse(text)) ?? .null
    }

    static let orders = FuzzOperation(
        name: "createOrder", method: "POST", path: "/orders/{shop}",
        parameters: [.init(name: "shop", location: .path, required: true, schema: schema(#"{"type": "string", "minLength": 1}"#)),
                     .init(name: "limit", location: .query, required: true, schema: schema(#"{"type": "integer", "minimum": 1, "maximum": 50}"#)),
                     .init(name: "tags", location: .query, required: false, schema: schema(#"{"type": "array", "items": {"type": "string"}}"#))],
        bodyKind: .json,
        bodySchema: schema(#"{"type": "object", "required": ["item", "quantity"], "properties": {"item": {"type": "string"}, "quantity": {"type": "integer", "minimum": 1}}}"#),
        bodyRequired: true, schemasAreContract: true)

    /// Query texts are read as the server reads them: `5` is an integer, `abc` is not, an empty
    /// list sends nothing, so a required parameter is then left out.
    @Test func expectationsJudgeTheTextsSent() {
        let generator = CaseGenerator(operation: Self.orders)
        let body = Self.schema(#"{"item": "cup", "quantity": 2}"#)
        func input(_ limit: JSONValue?, body: JSONValue? = body) -> FuzzCase {
            FuzzCase(parameters: [.init(name: "shop", location: .path, value: .string("s1"))]
                     + (limit.map { [.init(name: "limit", location: .query, value: $0)] } ?? []), body: body)
        }
        #expect(generator.expectation(of: input(.string("5"))) == .valid)
        #expect(generator.expectation(of: input(.number("5"))) == .valid)
        #expect(generator.expectation(of: input(.string("abc"))) == .invalid("query parameter 'limit': (root): expected integer, actual \"abc\" (string)"))
        #expect(generator.expectation(of: input(.number("51"))) == .invalid("query parameter 'limit': (root): expected a number <= 50, actual 51"))
        #expect(generator.expectation(of: input(.array([]))) == .invalid("the required query parameter 'limit' is left out"))
        #expect(generator.expectation(of: input(.number("5"), body: Self.schema(#"{"item": "cup"}"#)))
                == .invalid("body: (root): expected a property \"quantity\", actual none"))
        #expect(generator.expectation(of: input(.number("5"), body: nil)) == .invalid("the required body is left out"))
        var malformed = input(.number("5"))
        malformed.rawBody = "{"
        #expect(generator.expectation(of: malformed) == .invalid("the body is not JSON"))
    }

    /// Generated inputs: the same from the same seed; valid ones valid, invalid ones invalid,
    /// path values never empty; a third or so invalid.
    @Test func generatedInputsAreWhatTheyClaimAndRepeatFromTheSeed() {
        let seed = SeededGenerator.seed()
        let generator = CaseGenerator(operation: Self.orders)
        var first = SeededRandom(seed: seed), second = SeededRandom(seed: seed)
        var invalid = 0
        for _ in 0..<300 {
            let input = generator.next(using: &first)
            #expect(input == generator.next(using: &second), "seed \(seed)")
            let path = input.parameters.first { $0.location == .path }
            #expect(path.map { !FuzzCase.texts($0.value, in: .path)[0].isEmpty } == true, "seed \(seed)")
            if case .invalid = generator.expectation(of: input) { invalid += 1 }
        }
        #expect((50...160).contains(invalid), "seed \(seed): \(invalid) of 300 invalid")
    }

    /// Edge cases change one thing each: the empty string, a bound and one past it, a required
    /// parameter or property left out.
    @Test func edgeCasesCoverBoundsEmptyStringsAndLeftOutFields() {
        var random = SeededRandom(seed: 7)
        let cases = CaseGenerator(operation: Self.orders).edgeCases(using: &random)
        let limits = Set(cases.compactMap { $0.parameters.first { $0.name == "limit" }?.value.plainText })
        #expect(limits.isSuperset(of: ["1", "50", "0", "51", "-1"]), "\(limits)")
        #expect(cases.contains { !$0.parameters.contains { $0.name == "limit" } })
        #expect(cases.contains { $0.body?["quantity"] == nil && $0.body != nil })
        #expect(cases.contains { $0.body?["item"] == .string("") })
        #expect(!cases.contains { input in input.parameters.contains { $0.location == .path && $0.value == .string("") } })
    }
}
