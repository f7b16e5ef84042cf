import Foundation
import TestSupport
import Testing
@testable import WeatherShell

/// `expect schema` under `use openapi`, against answers of the loopback server: keywords the
/// check cannot read are an error (and a warning at the import), never a pass; counts written as
/// floats are counts; OpenAPI 3.0's `nullable` widens an explicit `type` only, and 3.1 has none.
@Suite struct RunExpectSchemaOpenAPITests {
    /// A document of one operation, `/s`, answering 200 application/json with `schema`; a line
    /// after the schema's (`components: ...`) goes at the document's top level.
    static func document(version: String, schema: String, base: String, mediaType: String = "application/json") -> String {
        let lines = schema.split(separator: "\n", maxSplits: 1).map(String.init)
        return """
            openapi: \(version)
            info: {title: t, version: '1'}
            servers: [{url: '\(base)'}]
            paths:
              /s:
                get:
                  operationId: s
                  responses:
                    '200': {description: ok, content: {\(mediaType): {schema: \(lines[0])}}}
            \(lines.count > 1 ? lines[1] : "")

            """
    }

    /// How `call NAME` then `expect schema` ends, the server answering `answer`.
    @ShellActor static func check(version: String, schema: String, answer: String,
                                  mediaType: String = "application/json") async throws -> (halt: Halt?, stderr: String) {
        let server = try await TestServer.start(routes: ["/s": StaticRoute(contentType: mediaType, body: answer)])
        let directory = try ScratchDirectory.make("wsh-openapi-schema")
        defer { ScratchDirectory.remove(directory) }
        try document(version: version, schema: schema, base: server.baseURL, mediaType: mediaType)
            .write(to: directory.appendingPathComponent("api.yaml"), atomically: true, encoding: .utf8)
        let shell = ShellHarness()
        let halt = await shell.run("use openapi api.yaml\nset output quiet\ncall s\nexpect schema", directory: directory.path)
        try await server.shutdown()
        return (halt, shell.stderr)
    }

    /// Counts written as floats, or past 64 bits, are counts (they were dropped, and the check passed).
    @Test(arguments: [
        ("{type: string, maxLength: 3.0}", #""abcdef""#, "expected a string of at most 3 characters, actual 6 characters"),
        ("{type: array, minItems: 2.0}", "[]", "expected an array of at least 2 items, actual 0 items"),
        ("{type: string, minLength: 18446744073709551616}", #""abc""#, "expected a string of at least 9223372036854775807 characters"),
    ])
    func aCountWrittenAsAFloatIsChecked(schema: String, answer: String, note: String) async throws {
        let (halt, stderr) = try await Self.check(version: "3.1.0", schema: schema, answer: answer)
        guard case .failure(.expectation)? = halt else { Issue.record("\(String(describing: halt)): \(stderr)"); return }
        #expect(stderr.contains("note: (root): " + note), "\(stderr)")
    }

    /// A keyword of the wrong form, here or in a schema a `$ref` names: a warning at the import
    /// and an error (not a pass) at the check, each naming the place. (A key close to a keyword's
    /// name is a warning only: anAnnotationCloseToAKeywordIsAWarningNotARefusal.)
    @Test(arguments: [
        ("{type: object, properties: {a: {type: string, maxLength: '3'}}}", #"{"a": "abcdef"}"#,
         "/paths/~1s/get/responses/200/content/application~1json/schema/properties/a: 'maxLength' takes a whole number, 0 or more, not the string \"3\""),
        ("{type: array, uniqueItems: yes}", "[1, 1]",
         #"/paths/~1s/get/responses/200/content/application~1json/schema: 'uniqueItems' takes true or false, not the string "yes" ("yes" is a string in YAML 1.2"#),
        ("{type: object, additionalProperties: no}", #"{"zz": 1}"#,
         #"'additionalProperties' takes a schema, an object or true/false, not the string "no" ("no" is a string"#),
        ("{type: string, pattern: '(['}", #""héllo""#, #"schema: 'pattern' "([" is no pattern: missing ']'"#),
        ("{$ref: '#/components/schemas/U'}\ncomponents: {schemas: {U: {type: array, uniqueItems: 'true'}}}", "[1, 1]",
         "/components/schemas/U: 'uniqueItems' takes true or false, not the string \"true\""),
    ])
    func aKeywordTheCheckCannotReadIsAnErrorAndAWarning(schema: String, answer: String, note: String) async throws {
        let (halt, stderr) = try await Self.check(version: "3.1.0", schema: schema, answer: answer)
        guard case .failure(let kind)? = halt, kind != .expectation else { Issue.record("\(String(describing: halt)): \(stderr)"); return }
        let lines = stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("warning: ") && $0.contains("api.yaml#") && $0.contains(note) }, "\(stderr)")
        #expect(stderr.contains("is no JSON Schema wsh can check against"), "\(stderr)")
        #expect(lines.contains { $0.contains("note: ") && $0.contains("api.yaml#") && $0.contains(note) }, "\(stderr)")
    }

    /// 3.0.3: "A true value adds "null" to the allowed types specified by the type keyword, only
    /// if type is explicitly defined within the same Schema Object. Other Schema Object
    /// constraints retain their defined behavior". 3.1 has no `nullable`.
    @Test(arguments: [
        ("3.0.3", "{type: string, nullable: true}", true),
        ("3.0.3", "{type: string, nullable: true, enum: [a, b]}", false),
        ("3.0.3", "{type: string, nullable: true, enum: [a, null]}", true),
        ("3.0.3", "{allOf: [{$ref: '#/components/schemas/Str'}], nullable: true}\ncomponents: {schemas: {Str: {type: string}}}", false),
        ("3.1.0", "{type: string, nullable: true}", false),
        ("3.1.0", "{type: [string, 'null']}", true),
    ])
    func nullIsLetThroughOnlyWhereNullableSaysSo(version: String, schema: String, passes: Bool) async throws {
        let (halt, stderr) = try await Self.check(version: version, schema: schema, answer: "null")
        if passes {
            #expect(halt == nil, "\(version) \(schema): \(stderr)")
        } else {
            guard case .failure(.expectation)? = halt else { Issue.record("\(version) \(schema): \(String(describing: halt)): \(stderr)"); return }
        }
    }

    /// A 3.1 document that still carries 3.0's `nullable` is warned of at the import, which says
    /// what 3.1 writes instead (null failed the check with no word of why).
    @Test func nullableInA31DocumentIsWarnedOf() async throws {
        let (v31, v31Err) = try await Self.check(version: "3.1.0", schema: "{type: string, nullable: true}", answer: "null")
        guard case .failure(.expectation)? = v31 else { Issue.record("\(String(describing: v31)): \(v31Err)"); return }
        #expect(v31Err.contains("warning: ") && v31Err.contains("api.yaml#/paths/~1s/get/responses/200/content/application~1json/schema/nullable: "
                                + #"nullable is OpenAPI 3.0's, and this document is 3.1, which does not read it: null is not let through; write type: [T, "null"]"#),
                "\(v31Err)")
        let (v30, v30Err) = try await Self.check(version: "3.0.3", schema: "{type: string, nullable: true}", answer: "null")
        #expect(v30 == nil && !v30Err.contains("nullable"), "\(v30Err)")
    }

    /// A 3.0 `nullable: true` with no `type` beside it (as generators write it beside `allOf:
    /// [$ref]`) or beside an `enum` without null lets no null through, as 3.0.3 says: the import
    /// says so where it stands, so a null answer's failure is no surprise.
    @Test func aNullableThatLetsNoNullThroughIsWarnedOf() async throws {
        let (allOf, allOfErr) = try await Self.check(version: "3.0.3", schema: "{nullable: true, allOf: [{type: string}]}", answer: "null")
        guard case .failure(.expectation)? = allOf else { Issue.record("\(String(describing: allOf)): \(allOfErr)"); return }
        #expect(allOfErr.contains("schema/nullable: nullable: true has no type beside it, so it lets no null through"), "\(allOfErr)")
        let (enumHalt, enumErr) = try await Self.check(version: "3.0.3", schema: "{type: string, nullable: true, enum: [a, b]}", answer: "null")
        guard case .failure(.expectation)? = enumHalt else { Issue.record("\(String(describing: enumHalt)): \(enumErr)"); return }
        #expect(enumErr.contains("nullable: true beside an enum without null lets no null through"), "\(enumErr)")
        let (listed, listedErr) = try await Self.check(version: "3.0.3", schema: "{type: string, nullable: true, enum: [a, null]}", answer: "null")
        #expect(listed == nil && !listedErr.contains("nullable"), "\(listedErr)")
        // With nothing beside it that asks for a kind of value, null passes: no warning (review).
        let (bare, bareErr) = try await Self.check(version: "3.0.3", schema: "{nullable: true, description: any}", answer: "null")
        #expect(bare == nil && !bareErr.contains("nullable"), "\(bareErr)")
        let (typed, typedErr) = try await Self.check(version: "3.0.3", schema: "{nullable: true, properties: {a: {type: string}}}", answer: "null")
        #expect(typed == nil && !typedErr.contains("nullable"), "\(typedErr)")
    }

    /// A `text/plain` answer's schema describes its text: `"hi"` is 4 characters (it was read as
    /// the JSON string hi, and passed `maxLength: 2`), and `123` is the string "123".
    @Test(arguments: [
        (#""hi""#, "{type: string, maxLength: 2}", false),
        ("hi", "{type: string, maxLength: 2}", true),
        ("123", "{type: string}", true),
        ("OK", "{type: string, enum: [OK]}", true),
        ("NO", "{type: string, enum: [OK]}", false),
    ])
    func aTextAnswerIsCheckedAsText(answer: String, schema: String, passes: Bool) async throws {
        let (halt, stderr) = try await Self.check(version: "3.0.3", schema: schema, answer: answer, mediaType: "text/plain")
        if passes {
            #expect(halt == nil, "\(answer): \(stderr)")
        } else {
            guard case .failure(.expectation)? = halt else { Issue.record("\(answer): \(String(describing: halt)): \(stderr)"); return }
        }
    }

    /// Read as JSON (review): `text/json` (Swashbuckle declares it beside application/json),
    /// and a text answer whose schema's type has no string (`42` for `type: integer`), which
    /// as a string could never pass.
    @Test(arguments: [
        ("text/json", #"{"id": 1}"#, "{type: object, required: [id]}", true),
        ("text/json", #"{"name": 1}"#, "{type: object, required: [id]}", false),
        ("text/plain", "42", "{type: integer}", true),
        ("text/plain", "[1,2]", "{type: array, maxItems: 1}", false),
    ])
    func aJSONTextAnswerIsCheckedAsJSON(mediaType: String, answer: String, schema: String, passes: Bool) async throws {
        let (halt, stderr) = try await Self.check(version: "3.0.3", schema: schema, answer: answer, mediaType: mediaType)
        if passes {
            #expect(halt == nil, "\(mediaType) \(answer): \(stderr)")
        } else {
            guard case .failure(.expectation)? = halt else { Issue.record("\(answer): \(String(describing: halt)): \(stderr)"); return }
        }
    }

    /// A key one edit from a keyword (`note`, `tsType`) may be an annotation, as JSON Schema
    /// allows: `use openapi` warns of it, and the check goes on (review: it refused the schema).
    @Test func anAnnotationCloseToAKeywordIsAWarningNotARefusal() async throws {
        let schema = "{type: object, properties: {a: {type: integer, note: a counter, tsType: number}}}"
        let (passing, passingErr) = try await Self.check(version: "3.1.0", schema: schema, answer: #"{"a": 1}"#)
        #expect(passing == nil && passingErr.contains("did you mean 'not'"), "\(passingErr)")
        let (failing, failingErr) = try await Self.check(version: "3.1.0", schema: schema, answer: #"{"a": "x"}"#)
        guard case .failure(.expectation)? = failing else { Issue.record("\(String(describing: failing)): \(failingErr)"); return }
    }

    /// OpenAPI 3.0.3, writeOnly: "If the property is marked as writeOnly being true and is in
    /// the required list, the required will take effect on the request only." A required
    /// password absent from an answer (or from the schema's example) is no violation, as `wsh
    /// fuzz` reads it; it failed `expect schema`, and the example was not used as a sample. A
    /// required `readOnly` property absent from an answer still fails.
    @Test(arguments: [
        ("{type: object, required: [pw], properties: {pw: {type: string, writeOnly: true}}, example: {}}", true),
        ("{type: object, required: [pw], properties: {pw: {$ref: '#/components/schemas/Pw'}}, example: {}}\n"
            + "components: {schemas: {Pw: {type: string, writeOnly: true}}}", true),
        ("{type: object, required: [id], properties: {id: {type: integer, readOnly: true}}}", false),
    ])
    func aRequiredWriteOnlyPropertyMayBeAbsentFromAnAnswer(schema: String, passes: Bool) async throws {
        for version in ["3.0.3", "3.1.0"] {
            let (halt, stderr) = try await Self.check(version: version, schema: schema, answer: "{}")
            #expect(!stderr.contains("example does not match"), "\(version) \(schema): \(stderr)")
            if passes {
                #expect(halt == nil, "\(version) \(schema): \(stderr)")
            } else {
                guard case .failure(.expectation)? = halt else { Issue.record("\(version) \(schema): \(String(describing: halt)): \(stderr)"); continue }
                #expect(stderr.contains(#"note: (root): expected a property "id", actual none"#), "\(stderr)")
            }
        }
    }

    /// In 3.0 a `$ref`'s siblings are ignored ("any properties added SHALL be ignored"), and
    /// `"abc"` passes; in 3.1 they apply. They applied in 3.0 too, failing a right answer.
    @Test func aRefsSiblingsAreIgnoredIn30Only() async throws {
        let schema = "{$ref: '#/components/schemas/Str', maxLength: 1}\ncomponents: {schemas: {Str: {type: string}}}"
        let (v30, v30Err) = try await Self.check(version: "3.0.3", schema: schema, answer: #""abc""#)
        #expect(v30 == nil, "\(v30Err)")
        let (v31, v31Err) = try await Self.check(version: "3.1.0", schema: schema, answer: #""abc""#)
        guard case .failure(.expectation)? = v31 else { Issue.record("\(String(describing: v31)): \(v31Err)"); return }
        #expect(v31Err.contains("note: (root): expected a string of at most 1 character, actual 3 characters"), "\(v31Err)")
    }

    /// 3.1: a `$ref` to an `$anchor` is followed, with no warning (the import called it broken,
    /// and the check failed every answer); a `$ref` that names nothing is an error naming it, as
    /// the import warned, not a violation only when the answer reaches it.
    @Test func aRefToAnAnchorIsFollowedAndABrokenRefIsAnError() async throws {
        let schema = "{type: object, properties: {v: {$ref: '#vanchor'}}}\ncomponents: {schemas: {V: {$anchor: vanchor, type: integer}}}"
        let (passing, passingErr) = try await Self.check(version: "3.1.0", schema: schema, answer: #"{"v": 1}"#)
        #expect(passing == nil && !passingErr.contains("warning"), "\(passingErr)")
        let (failing, failingErr) = try await Self.check(version: "3.1.0", schema: schema, answer: #"{"v": "x"}"#)
        guard case .failure(.expectation)? = failing else { Issue.record("\(String(describing: failing)): \(failingErr)"); return }
        #expect(failingErr.contains(#"note: /v: expected integer, actual "x" (string)"#), "\(failingErr)")

        let broken = "{type: object, properties: {u: {$ref: '#/components/schemas/Nope'}}}"
        let (halt, stderr) = try await Self.check(version: "3.1.0", schema: broken, answer: "{}")
        guard case .failure(let kind)? = halt, kind != .expectation else { Issue.record("\(String(describing: halt)): \(stderr)"); return }
        #expect(stderr.contains("broken $ref '#/components/schemas/Nope': nothing is there"), "\(stderr)")
        #expect(stderr.contains(##"/schema/properties/u: $ref "#/components/schemas/Nope" names no schema wsh can check against: nothing: no such place in the document"##),
                "\(stderr)")
    }

    /// OpenAPI's own formats are checked as openapi-core checks them: `int32` and `int64` as
    /// ranges, `byte` as base64 (2147483648 passed `format: int32`).
    @Test(arguments: [
        ("{type: integer, format: int32}", "2147483647", nil),
        ("{type: integer, format: int32}", "2147483648", "note: (root): expected an int32 number (-2147483648 to 2147483647), actual 2147483648 (integer)"),
        ("{type: integer, format: int32}", "-2147483649", "expected an int32 number"),
        ("{type: integer, format: int64}", "-9223372036854775808", nil),
        ("{type: integer, format: int64}", "9223372036854775808", "expected an int64 number (-9223372036854775808 to 9223372036854775807)"),
        ("{type: string, format: byte}", #""aGk=""#, nil),
        ("{type: string, format: byte}", #""!!!""#, #"note: (root): expected a byte string (base64), actual "!!!" (string)"#),
        ("{type: string, format: byte}", #""aGk""#, "expected a byte string (base64)"),
    ] as [(String, String, String?)])
    func openAPIsOwnFormatsAreChecked(schema: String, answer: String, note: String?) async throws {
        let (halt, stderr) = try await Self.check(version: "3.0.3", schema: schema, answer: answer)
        guard let note else {
            #expect(halt == nil, "\(schema) \(answer): \(stderr)")
            return
        }
        guard case .failure(.expectation)? = halt else { Issue.record("\(schema) \(answer): \(String(describing: halt)): \(stderr)"); return }
        #expect(stderr.contains(note), "\(stderr)")
    }

    static let pets = """
        {oneOf: [{$ref: '#/components/schemas/Dog'}, {$ref: '#/components/schemas/Cat'}], \
        discriminator: {propertyName: petType, mapping: {dog: '#/components/schemas/Dog', cat: Cat}}}
        components: {schemas: {Pet: {type: object, required: [petType], properties: {petType: {type: string}}}, \
        Dog: {allOf: [{$ref: '#/components/schemas/Pet'}, {type: object, required: [bark], properties: {bark: {type: boolean}}}]}, \
        Cat: {allOf: [{$ref: '#/components/schemas/Pet'}, {type: object, properties: {meow: {type: boolean}}}]}}}
        """

    /// `discriminator`: the answer's `petType` names the schema it is checked against (by
    /// `mapping`, a ref or a schema's name). A dog with a cat's fields passed by matching Cat, an
    /// unknown pet passed, and a right dog failed for matching Dog and Cat both.
    @Test(arguments: [
        (#"{"petType": "dog", "bark": true}"#, nil),
        (#"{"petType": "cat", "meow": true}"#, nil),
        (#"{"petType": "dog", "meow": true}"#, #"note: (root): expected a property "bark", actual none"#),
        (#"{"petType": "cow", "meow": true}"#, #"note: /petType: expected a "petType" naming a schema (discriminator: dog, cat), actual "cow" (string), which names none"#),
    ] as [(String, String?)])
    func theDiscriminatorChoosesTheSchema(answer: String, note: String?) async throws {
        for version in ["3.0.3", "3.1.0"] {
            let (halt, stderr) = try await Self.check(version: version, schema: Self.pets, answer: answer)
            guard let note else {
                #expect(halt == nil, "\(version) \(answer): \(stderr)")
                continue
            }
            guard case .failure(.expectation)? = halt else { Issue.record("\(version) \(answer): \(String(describing: halt)): \(stderr)"); continue }
            #expect(stderr.contains(note), "\(version) \(answer): \(stderr)")
        }
    }
}
