import Checks
import Targets
import Testing

/// How a violation shows the value it is about: never a part of a secret.
@Suite struct SchemaViolationTests {
    static func notes(_ value: String, against schema: String) throws -> [String] {
        let schema = try JSONValue.parse(Array(schema.utf8))
        var validator = JSONSchemaValidator(root: schema)
        return validator.violations(of: try JSONValue.parse(Array(value.utf8)), against: schema).map(\.description)
    }

    /// A value cut at 80 characters was cut inside a string: `"password":"S3cr3t0123…` showed
    /// the start of a credential, which masking by member or by whole value could not find.
    @Test func aCutValueShowsNoPartOfAString() throws {
        let filler = String(repeating: "x", count: 49)
        let token = "S3cr3t0123456789abcdefghijklmnopqrstuvwxyz"
        let notObject = #"{"not": {"type": "object"}}"#
        let named = try Self.notes(#"{"a": "\#(filler)", "password": "\#(token)"}"#, against: notObject)
        #expect(named == [#"(root): expected a value that does not match its not schema, actual {"a":"\#(filler)","password":"***"} (object), which matches it"#])
        // A member not named like a credential may hold an `env` secret, masked later by its whole value: it goes whole.
        let unnamed = try Self.notes(#"{"a": "\#(filler)", "note": "\#(token)", "n": 1}"#, against: notObject)
        #expect(unnamed == [#"(root): expected a value that does not match its not schema, actual {"a":"\#(filler)","note":… (object), which matches it"#])
        let long = try Self.notes(#""\#(token)\#(token)""#, against: #"{"type": "integer"}"#)
        #expect(long == ["(root): expected integer, actual … (string of 84 characters)"])
    }
}
