import Foundation
import TestSupport
import Testing
@testable import WeatherShell

/// `expect schema @FILE`: the last answer against a JSON Schema file, for any target, as a check
/// (pass, fail with each violation, an error for what cannot be checked).
@Suite struct RunExpectSchemaTests {
    static let schema = """
        {"type": "object", "required": ["id", "name"],
         "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "email": {"$ref": "#/$defs/email"}},
         "$defs": {"email": {"type": "string", "format": "email"}}}
        """

    /// How `answer`, checked against the schema from a file beside the script, ends.
    @ShellActor private static func check(_ answer: String, schemaPath: String = "user.schema.json", schema: String = schema) async throws -> (Halt?, String) {
        let directory = try ScratchDirectory.make("wsh-schema")
        defer { ScratchDirectory.remove(directory) }
        try schema.write(to: directory.appendingPathComponent("user.schema.json"), atomically: true, encoding: .utf8)
        let shell = ShellHarness()
        let halt = await shell.run("""
            set output quiet
            set stub immediate
            target u { base http://127.0.0.1:9; sample '\(answer)' }
            call u
            expect schema @\(schemaPath)
            """, directory: directory.path)
        return (halt, shell.stderr)
    }

    @Test func anAnswerThatFitsPasses() async throws {
        let (halt, stderr) = try await Self.check(#"{"id": 1, "name": "Ada", "email": "ada@example.com"}"#)
        #expect(halt == nil, "\(stderr)")
    }

    @Test func eachViolationIsANoteWithItsPointer() async throws {
        let (halt, stderr) = try await Self.check(#"{"id": "1", "email": "nope"}"#)
        guard case .failure(.expectation)? = halt else { Issue.record("\(String(describing: halt)): \(stderr)"); return }
        #expect(stderr.contains("expectation failed: schema user.schema.json"), "\(stderr)")
        #expect(stderr.contains(#"note: (root): expected a property "name", actual none"#), "\(stderr)")
        #expect(stderr.contains(#"note: /id: expected integer, actual "1" (string)"#), "\(stderr)")
        #expect(stderr.contains(#"note: /email: expected an email string, actual "nope" (string)"#), "\(stderr)")
    }

    /// A schema with a keyword of the wrong form, which the validator reads as absent, is an error
    /// naming it: `{"type": "objekt"}` passed any body, and so did a `required` that is no list.
    @Test(arguments: [
        (#"{"type": "objekt"}"#, #"(root): unknown type "objekt" (did you mean "object"?)"#),
        (#"{"properties": {"id": {"type": "strin"}}}"#, #"/properties/id: unknown type "strin""#),
        (#"{"required": "name"}"#, "(root): 'required' takes a list of property names, not the string \"name\""),
        (#"{"allOf": {"type": "integer"}}"#, "(root): 'allOf' takes a list of schemas, not an object"),
        ("[]", "(root): a schema is an object or true/false, not an empty list"),
        (#"{"requird": ["name"]}"#, "(root): unknown keyword 'requird' (did you mean 'required'?)"),
        // These were read as absent without a word.
        (#"{"uniqueItems": 1}"#, "(root): 'uniqueItems' takes true or false, not 1"),
        (#"{"uniqueItems": "true"}"#, #"(root): 'uniqueItems' takes true or false, not the string "true" ("true" is a string in YAML 1.2"#),
        (#"{"exclusiveMinimum": "5"}"#, "(root): 'exclusiveMinimum' takes a number (or, as OpenAPI 3.0 writes it, true or false), not the string \"5\""),
        (#"{"dependentRequired": {"a": "b"}}"#, #"(root): 'dependentRequired' "a" takes a list of property names, not "b""#),
        (#"{"dependentRequired": {"a": [1]}}"#, #"(root): 'dependentRequired' "a" takes a list of property names, not [1]"#),
        (#"{"type": []}"#, "(root): 'type' takes a type name or a non-empty list of them, not an empty list"),
        (#"{"additionalProperties": "no"}"#, #"(root): 'additionalProperties' takes a schema, an object or true/false, not the string "no" ("no" is a string in YAML 1.2"#),
        // A wrong form's message says what the value is (it named the right type as the wrong one: "not array").
        (#"{"allOf": []}"#, "(root): 'allOf' takes a list of schemas, not an empty list"),
        (#"{"required": [1]}"#, "(root): 'required' takes a list of property names, not [1]"),
        (#"{"maxLength": -1}"#, "(root): 'maxLength' takes a whole number, 0 or more, not -1"),
        // A pattern that is no pattern failed every string with "lookaround and backreferences are
        // not in them"; a POSIX class, which ECMA-262 has not, was read as one. (A right pattern wsh
        // cannot run is checked where a string reaches it: aPatternWshCannotRunFailsOnlyTheStringsItReaches.)
        (#"{"properties": {"a": {"pattern": "(["}}}"#, #"/properties/a: 'pattern' "([" is no pattern: missing ']'"#),
        (#"{"pattern": "^[[:digit:]]+$"}"#,
         #"(root): 'pattern' "^[[:digit:]]+$" uses the POSIX class '[:digit:]', which ECMA-262, the syntax of JSON Schema's patterns, does not have"#),
        // multipleOf must be above 0: every value failed, "past the 38 digits wsh checks this for".
        (#"{"multipleOf": 0}"#, "(root): 'multipleOf' takes a number above 0, not 0"),
        (#"{"properties": {"n": {"multipleOf": -2}}}"#, "/properties/n: 'multipleOf' takes a number above 0, not -2"),
        // A $ref that names nothing wsh can follow was a violation only when the answer reached it.
        (##"{"properties": {"x": {"$ref": "#/$defs/gone"}}}"##,
         ##"/properties/x: $ref "#/$defs/gone" names no schema wsh can check against: nothing: no such place in the document"##),
        (##"{"$ref": "other.json#/User"}"##,
         ##"(root): $ref "other.json#/User" names no schema wsh can check against: not followed: only refs within the document (#/... or #name) are"##),
    ])
    func aSchemaOfTheWrongFormIsAnErrorNotAPass(schema: String, note: String) async throws {
        let (halt, stderr) = try await Self.check(#"{"id": "not a number"}"#, schema: schema)
        guard case .failure(let kind)? = halt, kind != .expectation else { Issue.record("\(String(describing: halt)): \(stderr)"); return }
        #expect(stderr.contains("user.schema.json is no JSON Schema wsh can check against"), "\(stderr)")
        #expect(stderr.contains("note: " + note), "\(stderr)")
    }

    /// A right pattern wsh cannot run (ECMA-262's `\p{L}`, a lookahead, as password rules write
    /// them) made the whole schema an error, whatever the answer held (review): a string that
    /// reaches it is a violation saying it was not checked; the rest of the schema is checked.
    @Test func aPatternWshCannotRunFailsOnlyTheStringsItReaches() async throws {
        let schema = #"{"type": "object", "properties": {"name": {"type": "string", "pattern": "^\\p{L}+$"}, "pw": {"pattern": "^(?=.*[A-Z]).{8,}$"}, "id": {"type": "integer"}}}"#
        let (none, noneErrors) = try await Self.check(#"{"id": 1}"#, schema: schema)
        #expect(none == nil, "\(noneErrors)")
        let (wrong, wrongErrors) = try await Self.check(#"{"id": "1"}"#, schema: schema)
        guard case .failure(.expectation)? = wrong else { Issue.record("\(String(describing: wrong)): \(wrongErrors)"); return }
        let (reached, reachedErrors) = try await Self.check(#"{"id": 1, "name": "Ana"}"#, schema: schema)
        guard case .failure(.expectation)? = reached else { Issue.record("\(String(describing: reached)): \(reachedErrors)"); return }
        #expect(reachedErrors.contains(#"/name: expected a string matching "^\\p{L}+$", actual not checked: wsh's regular expressions cannot run this pattern"#),
                "\(reachedErrors)")
    }

    @Test func aMissingSchemaOrABodyThatIsNotJSONIsAnError() async throws {
        let (missing, missingErrors) = try await Self.check(#"{"id": 1, "name": "A"}"#, schemaPath: "nope.json")
        guard case .failure(let kind)? = missing, kind != .expectation else { Issue.record("\(missingErrors)"); return }
        #expect(missingErrors.contains("cannot read the schema ") && missingErrors.contains("nope.json: no such file or directory"), "\(missingErrors)")
        let (text, textErrors) = try await Self.check("plain text")
        #expect(text != nil)
        #expect(textErrors.contains("the response body is not JSON"), "\(textErrors)")
    }
}
