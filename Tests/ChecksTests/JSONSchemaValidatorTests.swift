import Checks
import Targets
import Testing

@Suite struct JSONSchemaValidatorTests {
    static let root = try! JSONValue.parse("""
    {"components": {"schemas": {
      "Pet": {"type": "object", "required": ["id", "name"],
              "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "tag": {"type": "string", "nullable": true},
                             "child": {"$ref": "#/components/schemas/Pet"}}},
      "Loop": {"$ref": "#/components/schemas/Loop"},
      "a~b/c": {"type": "boolean"},
      "{petId} a%b": {"type": "boolean"}
    }}}
    """)

    /// Schema, value, and the violations' descriptions, exactly.
    static let cases: [(schema: String, value: String, expected: [String])] = [
        (#"{"type": "integer"}"#, "3", []),
        (#"{"type": "integer"}"#, "3.0", []),
        (#"{"type": "integer"}"#, "3.5", ["(root): expected integer, actual 3.5 (number)"]),
        (#"{"type": "number"}"#, "\"3\"", [#"(root): expected number, actual "3" (string)"#]),
        (#"{"type": ["string", "null"]}"#, "null", []),
        (#"{"type": "string", "nullable": true}"#, "null", []),
        (#"{"type": "string"}"#, "null", ["(root): expected string, actual null (null)"]),
        (#"{"type": "boolean"}"#, "1", ["(root): expected boolean, actual 1 (integer)"]),
        (#"{"type": "file"}"#, "1", []),
        (#"{"enum": ["a", "b"]}"#, "\"c\"", [#"(root): expected one of "a", "b", actual "c" (string)"#]),
        (#"{"enum": [1, 2]}"#, "2.0", []),
        (#"{"const": {"a": 1, "b": [true]}}"#, #"{"b": [true], "a": 1}"#, []),
        (#"{"const": "x"}"#, "\"y\"", [#"(root): expected "x", actual "y" (string)"#]),
        (##"{"$ref": "#/components/schemas/Pet"}"##, #"{"id": "7", "tag": null}"#,
         [#"(root): expected a property "name", actual none"#, #"/id: expected integer, actual "7" (string)"#]),
        (##"{"$ref": "#/components/schemas/Pet"}"##, #"{"id": 1, "name": "a", "child": {"id": 2, "name": 3}}"#,
         ["/child/name: expected string, actual 3 (integer)"]),
        (#"{"type": "array", "items": {"type": "string"}}"#, #"["a", 2, "c", false]"#,
         ["/1: expected string, actual 2 (integer)", "/3: expected string, actual false (boolean)"]),
        (#"{"properties": {"a/b": {"type": "string"}, "c~d": {"type": "string"}}}"#, #"{"a/b": 1, "c~d": 2}"#,
         ["/a~1b: expected string, actual 1 (integer)", "/c~0d: expected string, actual 2 (integer)"]),
        (#"{"allOf": [{"required": ["a"]}, {"required": ["b"]}]}"#, #"{"a": 1}"#, [#"(root): expected a property "b", actual none"#]),
        (#"{"anyOf": [{"type": "string"}, {"type": "integer"}]}"#, "1", []),
        (#"{"anyOf": [{"type": "string"}, {"type": "integer"}]}"#, "true",
         ["(root): expected a value matching any of 2 schemas (anyOf), actual true (boolean), which matches none"]),
        (#"{"oneOf": [{"type": "number"}, {"type": "integer"}]}"#, "1",
         ["(root): expected a value matching exactly one of 2 schemas (oneOf), actual 1 (integer), which matches 2"]),
        (#"{"oneOf": [{"type": "number"}, {"type": "integer"}]}"#, "1.5", []),
        (#"{"format": "date-time"}"#, #""2024-05-01T12:30:00.25+09:00""#, []),
        (#"{"format": "date-time"}"#, #""2025-01-02 03:04:05Z""#, [#"(root): expected a date-time string, actual "2025-01-02 03:04:05Z" (string)"#]),
        (#"{"format": "date-time"}"#, #""2025-01-02t03:04:05z""#, []),
        (#"{"format": "date-time"}"#, #""2024-05-01 12:30""#, [#"(root): expected a date-time string, actual "2024-05-01 12:30" (string)"#]),
        // A leap second is the last second of a UTC day (JSON-Schema-Test-Suite's date-time cases).
        (#"{"format": "date-time"}"#, #""1998-12-31T23:59:60Z""#, []),
        (#"{"format": "date-time"}"#, #""1998-12-31T15:59:60.123-08:00""#, []),
        (#"{"format": "date-time"}"#, #""1998-12-31T22:59:60Z""#, [#"(root): expected a date-time string, actual "1998-12-31T22:59:60Z" (string)"#]),
        (#"{"format": "date-time"}"#, #""1998-12-31T23:58:60Z""#, [#"(root): expected a date-time string, actual "1998-12-31T23:58:60Z" (string)"#]),
        (#"{"format": "uuid"}"#, #""3f2504e0-4f89-11d3-9a0c-0305e82c3301""#, []),
        (#"{"format": "uuid"}"#, #""3f2504e0""#, [#"(root): expected a uuid string, actual "3f2504e0" (string)"#]),
        (#"{"format": "email"}"#, #""ana@example.com""#, []),
        (#"{"format": "email"}"#, #""ana at example""#, [#"(root): expected an email string, actual "ana at example" (string)"#]),
        (#"{"format": "int64"}"#, #""x""#, []),
        (##"{"$ref": "#/components/schemas/a~0b~1c"}"##, "1", ["(root): expected boolean, actual 1 (integer)"]),
        // A ref is a URI fragment: percent-decoded before it is read as a pointer (RFC 6901 section 6).
        (##"{"$ref": "#/components/schemas/%7BpetId%7D%20a%25b"}"##, "1", ["(root): expected boolean, actual 1 (integer)"]),
        (##"{"$ref": "#/components/schemas/%7BpetId%7D%20a%25b"}"##, "true", []),
        // A check cannot pass by accident: a ref to nothing, another file's ref and a pattern the engine refuses are violations.
        (##"{"$ref": "#/components/schemas/Nope"}"##, "1", [##"(root): expected the schema $ref "#/components/schemas/Nope" names, actual nothing: no such place in the document"##]),
        (##"{"$ref": "other.json#/Pet"}"##, "1", [##"(root): expected the schema $ref "other.json#/Pet" names, actual not followed: only refs within the document (#/... or #name) are"##]),
        (#"{"pattern": "^(?=Z)"}"#, #""Z""#, [#"(root): expected a string matching "^(?=Z)", actual not checked: wsh's regular expressions cannot run this pattern: lookahead is not supported: matching must stay linear in the input (at character 2 of the pattern)"#]),
        // What cannot be checked stays a violation inside `not`, `if` and `anyOf`.
        (##"{"not": {"$ref": "#/$defs/missing"}}"##, "1", [##"(root): expected the schema $ref "#/$defs/missing" names, actual nothing: no such place in the document"##]),
        (#"{"patternProperties": {"^(?!x)": {"type": "string"}}, "additionalProperties": false}"#, #"{"n": 5}"#,
         [#"(root): expected property names checked against patternProperties "^(?!x)", actual not checked: wsh's regular expressions cannot run this pattern: lookahead is not supported: matching must stay linear in the input (at character 2 of the pattern)"#]),
        (#"{"multipleOf": 2}"#, "100000000000000000000000000000000000000001",
         ["(root): expected a multiple of 2, actual 100000000000000000000000000000000000000001, which is past the 38 digits wsh checks this for"]),
        // Draft 2020-12's keywords a newcomer found skipped.
        (#"{"not": {"type": "string"}}"#, "1", []),
        (#"{"not": {"type": "string"}}"#, #""a""#, [#"(root): expected a value that does not match its not schema, actual "a" (string), which matches it"#]),
        (#"{"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]}}"#, #"{"a": 1, "b": 2}"#, []),
        (#"{"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]}}"#, #"{"a": 1}"#, [#"(root): expected a property "b", actual none"#]),
        (#"{"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]}}"#, #"{"b": 1}"#, [#"(root): expected a property "c", actual none"#]),
        (#"{"contains": {"type": "integer"}}"#, #"["a", 2]"#, []),
        (#"{"contains": {"type": "integer"}}"#, #"["a"]"#, ["(root): expected an array with at least 1 item matching its contains schema, actual 0 matching"]),
        (#"{"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3}"#, #"[1, "a"]"#, ["(root): expected an array with 2 to 3 items matching its contains schema, actual 1 matching"]),
        (#"{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"#, #"["a", 1, 2]"#, []),
        (#"{"prefixItems": [{"type": "string"}], "items": false}"#, #"["a", 1]"#, ["/1: expected nothing (the schema is false), actual 1 (integer)"]),
        (#"{"items": [{"type": "string"}], "additionalItems": {"type": "boolean"}}"#, #"["a", 1]"#, ["/1: expected boolean, actual 1 (integer)"]),
        (#"{"uniqueItems": true}"#, #"[{"a": 1}, {"a": 1.0}]"#, ["(root): expected items that are all different (uniqueItems), actual items 0 and 1 are equal"]),
        (#"{"uniqueItems": true}"#, #"[1, 2]"#, []),
        (#"{"multipleOf": 0.1}"#, "0.3", []),
        (#"{"multipleOf": 2}"#, "7", ["(root): expected a multiple of 2, actual 7"]),
        (#"{"minProperties": 2}"#, #"{"a": 1}"#, ["(root): expected an object of at least 2 properties, actual 1 property"]),
        (#"{"maxProperties": 1}"#, #"{"a": 1, "b": 2}"#, ["(root): expected an object of at most 1 property, actual 2 properties"]),
        (#"{"dependentRequired": {"card": ["address"]}}"#, #"{"card": 1}"#, [#"(root): expected a property "address", since "card" is there, actual none"#]),
        (#"{"dependentSchemas": {"card": {"required": ["address"]}}}"#, #"{"card": 1}"#, [#"(root): expected a property "address", actual none"#]),
        (#"{"propertyNames": {"maxLength": 3}}"#, #"{"abcd": 1, "ab": 2}"#, [#"(root): expected a property name that is a string of at most 3 characters, actual "abcd": 4 characters"#]),
        (#"{"properties": {"a": true}, "unevaluatedProperties": false}"#, #"{"a": 1, "b": 2}"#, [#"(root): expected no property "b" (unevaluatedProperties is false), actual one"#]),
        (#"{"properties": {"a": true}, "allOf": [{"properties": {"b": true}}], "unevaluatedProperties": false}"#, #"{"a": 1, "b": 2}"#, []),
        (#"{"properties": {"a": true}, "anyOf": [{"required": ["z"], "properties": {"b": true}}, {"type": "object"}], "unevaluatedProperties": false}"#,
         #"{"a": 1, "b": 2}"#, [#"(root): expected no property "b" (unevaluatedProperties is false), actual one"#]),
        (#"{"prefixItems": [true], "unevaluatedItems": false}"#, "[1, 2]", ["/1: expected no item here (unevaluatedItems is false), actual 2 (integer)"]),
        (#"{"format": "date"}"#, #""2024-02-29""#, []),
        (#"{"format": "date"}"#, #""2023-02-29""#, [#"(root): expected a date string, actual "2023-02-29" (string)"#]),
        (#"{"format": "time"}"#, #""12:30:00Z""#, []),
        (#"{"format": "uri"}"#, ##""https://example.com/a?b=c#d""##, []),
        (#"{"format": "uri"}"#, #""/a/b""#, [#"(root): expected a uri string, actual "/a/b" (string)"#]),
        (#"{"format": "uri-reference"}"#, #""/a/b%20c""#, []),
        (#"{"format": "uri-reference"}"#, #""a b""#, [#"(root): expected a uri-reference string, actual "a b" (string)"#]),
        (#"{"format": "ipv4"}"#, #""192.168.0.1""#, []),
        (#"{"format": "ipv4"}"#, #""192.168.01.1""#, [#"(root): expected an ipv4 string, actual "192.168.01.1" (string)"#]),
        (#"{"format": "ipv6"}"#, #""::1""#, []),
        (#"{"format": "hostname"}"#, #""-bad.example""#, [#"(root): expected a hostname string, actual "-bad.example" (string)"#]),
        // A $ref to itself never reaches a check: not a pass, but what cannot be checked.
        (##"{"$ref": "#/components/schemas/Loop"}"##, "1", ["(root): expected a check at most 256 schemas deep, actual deeper: not checked below here"]),
        ("false", "1", ["(root): expected nothing (the schema is false), actual 1 (integer)"]),
        // A count written as a float, or past 64 bits, is a count (it was dropped: every value passed).
        (#"{"maxLength": 10.0}"#, #""abcdefghijklmnop""#, ["(root): expected a string of at most 10 characters, actual 16 characters"]),
        (#"{"maxProperties": 1e0}"#, #"{"a": 1, "b": 2}"#, ["(root): expected an object of at most 1 property, actual 2 properties"]),
        (#"{"maxItems": 0.0}"#, "[1, 2]", ["(root): expected an array of at most 0 items, actual 2 items"]),
        (#"{"contains": {"const": 1}, "minContains": 2.0}"#, "[1]", ["(root): expected an array with at least 2 items matching its contains schema, actual 1 matching"]),
        (#"{"minLength": 18446744073709551616}"#, #""abc""#, ["(root): expected a string of at least 9223372036854775807 characters, actual 3 characters"]),
        (#"{"minItems": 1e20}"#, "[]", ["(root): expected an array of at least 9223372036854775807 items, actual 0 items"]),
        (#"{"maxLength": 3.0}"#, #""abc""#, []),
        // OpenAPI 3.0's nullable widens an explicit type only; the other keywords still apply to null.
        (#"{"type": "string", "nullable": true, "enum": ["a", "b"]}"#, "null", [#"(root): expected one of "a", "b", actual null (null)"#]),
        (##"{"allOf": [{"type": "string"}], "nullable": true}"##, "null", ["(root): expected string, actual null (null)"]),
    ]

    /// Drafts 4 to 7's `dependencies`, both forms, in a file of those drafts (it was read by no
    /// check, and `{"a": 1}` passed); 2019-09 split it into `dependentRequired` and `dependentSchemas`.
    @Test(arguments: ["http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-06/schema#", "http://json-schema.org/draft-07/schema#", nil])
    func dependenciesOfTheOlderDraftsAreChecked(draft: String?) throws {
        let head = draft.map { #""$schema": "\#($0)", "# } ?? ""
        for (dependency, expected) in [
            (#"["b"]"#, #"(root): expected a property "b", since "a" is there (dependencies), actual none"#),
            (#"{"required": ["b"]}"#, #"(root): expected a property "b", actual none"#),
        ] {
            let schema = try JSONValue.parse(#"{"# + head + #""dependencies": {"a": "# + dependency + "}}")
            let validator = JSONSchemaValidator(root: schema)
            #expect(validator.violations(of: try JSONValue.parse(#"{"a": 1}"#), against: schema).map(\.description) == [expected], "\(schema)")
            #expect(validator.violations(of: try JSONValue.parse(#"{"a": 1, "b": 2}"#), against: schema).isEmpty)
            #expect(validator.violations(of: try JSONValue.parse(#"{"c": 1}"#), against: schema).isEmpty)
        }
        let later = try JSONValue.parse(#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "dependencies": {"a": ["b"]}}"#)
        #expect(JSONSchemaValidator(root: later).violations(of: try JSONValue.parse(#"{"a": 1}"#), against: later).isEmpty)
    }

    /// A `$ref`'s siblings are ignored where the draft says so (draft-04 to -07: "All other
    /// properties in a "$ref" object MUST be ignored"; OpenAPI 3.0: "SHALL be ignored"), and
    /// applied from 2019-09 on, in OpenAPI 3.1 and in a file that names no draft (python-jsonschema
    /// reads that as 2020-12). They were applied everywhere, failing right answers.
    @Test func aRefsSiblingsApplyOnlyFrom201909On() throws {
        let body = try JSONValue.parse(#"{"a": 1}"#)
        for (draft, ignored) in [("http://json-schema.org/draft-04/schema#", true), ("http://json-schema.org/draft-06/schema#", true),
                                 ("http://json-schema.org/draft-07/schema#", true), ("https://json-schema.org/draft/2019-09/schema", false),
                                 ("https://json-schema.org/draft/2020-12/schema", false), (nil, false)] as [(String?, Bool)] {
            let head = draft.map { #""$schema": "\#($0)", "# } ?? ""
            let schema = try JSONValue.parse(#"{"# + head + ##""definitions": {"p": {"type": "integer"}}, "properties": {"a": {"$ref": "#/definitions/p", "type": "string"}}}"##)
            #expect(JSONSchemaValidator(root: schema).violations(of: body, against: schema).map(\.description)
                    == (ignored ? [] : ["/a: expected string, actual 1 (integer)"]), "\(draft ?? "no draft")")
        }
        let schema = try JSONValue.parse(##"{"$ref": "#/components/schemas/Str", "maxLength": 1}"##)
        for (version, ignored) in [("3.0.3", true), ("3.1.0", false)] {
            let root = try JSONValue.parse(#"{"openapi": "\#(version)", "components": {"schemas": {"Str": {"type": "string"}}}}"#)
            #expect(JSONSchemaValidator(root: root).violations(of: .string("abc"), against: schema).map(\.description)
                    == (ignored ? [] : ["(root): expected a string of at most 1 character, actual 3 characters"]), "\(version)")
        }
    }

    /// A `$ref` to an `$anchor` (`#pp`) is followed, as 2020-12 and OpenAPI 3.1 write them (it was
    /// a violation, "only refs within the document (#/...) are", on every answer); one wsh cannot
    /// follow says why.
    @Test(arguments: [
        (##"{"$defs": {"p": {"$anchor": "pp", "type": "integer"}}, "properties": {"a": {"$ref": "#pp"}}}"##, #"{"a": 1}"#, []),
        (##"{"$defs": {"p": {"$anchor": "pp", "type": "integer"}}, "properties": {"a": {"$ref": "#pp"}}}"##, #"{"a": "x"}"#,
         [#"/a: expected integer, actual "x" (string)"#]),
        (##"{"properties": {"a": {"$ref": "#pp"}}}"##, #"{"a": 1}"#,
         [##"/a: expected the schema $ref "#pp" names, actual nothing: no $anchor "pp" in the document"##]),
        (##"{"$defs": {"u": {"$id": "https://x.test/u", "type": "integer"}}, "properties": {"a": {"$ref": "https://x.test/u"}}}"##, #"{"a": 1}"#,
         [##"/a: expected the schema $ref "https://x.test/u" names, actual not followed: it is the $id of a schema in the document, and wsh follows a ref by pointer (#/...) or $anchor (#name)"##]),
    ] as [(String, String, [String])])
    func aRefToAnAnchorIsFollowed(schemaText: String, valueText: String, expected: [String]) throws {
        let schema = try JSONValue.parse(schemaText)
        #expect(JSONSchemaValidator(root: schema).violations(of: try JSONValue.parse(valueText), against: schema).map(\.description) == expected)
    }

    /// A file of an older draft does not get later drafts' keywords (python-jsonschema's
    /// Draft4Validator passes each of these): draft-06's `const`, `contains`, `propertyNames`,
    /// draft-07's `if`/`then`/`else`. They were read, and failed right answers.
    @Test(arguments: [
        (##""if": {"required": ["a"]}, "then": {"required": ["b"]}"##, #"{"a": 1}"#, 7, #"(root): expected a property "b", actual none"#),
        (#""const": 1"#, "2", 6, "(root): expected 1, actual 2 (integer)"),
        (##""contains": {"type": "string"}"##, "[1]", 6, "(root): expected an array with at least 1 item matching its contains schema, actual 0 matching"),
        (##""propertyNames": {"maxLength": 1}"##, #"{"ab": 1}"#, 6,
         #"(root): expected a property name that is a string of at most 1 character, actual "ab": 2 characters"#),
    ])
    func laterDraftsKeywordsAreNotReadInAnOlderDraft(keyword: String, valueText: String, since: Int, violation: String) throws {
        let value = try JSONValue.parse(valueText)
        for draft in [4, 6, 7] {
            let schema = try JSONValue.parse(#"{"$schema": "http://json-schema.org/draft-0\#(draft)/schema#", "# + keyword + "}")
            #expect(JSONSchemaValidator(root: schema).violations(of: value, against: schema).map(\.description) == (draft < since ? [] : [violation]),
                    "draft-0\(draft) \(keyword)")
            // Read as absent, it is no check: `expect schema` refuses the file, saying why (review 6 M5).
            let problems = JSONSchemaValidator.shapeProblems(of: schema).map(\.description)
            let name = keyword.dropFirst().prefix { $0 != "\"" }
            #expect(problems.contains("(root): '\(name)' is no draft-0\(draft) keyword, so no check reads it: name draft-0\(since) or later in $schema")
                    == (draft < since), "draft-0\(draft) \(keyword): \(problems)")
        }
    }

    /// A percent-encoded ref (swagger-cli's and redocly's bundles write `~1%7BpetId%7D`) names a
    /// place: the schema is no error, whether or not an answer reaches the ref.
    @Test func aPercentEncodedRefIsNoShapeProblem() throws {
        let schema = try JSONValue.parse(##"{"properties": {"p": {"$ref": "#/$defs/x%7By%7D%20z"}}, "$defs": {"x{y} z": {"type": "string"}}}"##)
        #expect(JSONSchemaValidator.shapeProblems(of: schema).isEmpty)
        #expect(JSONSchemaValidator(root: schema).violations(of: try JSONValue.parse(#"{"p": 1}"#), against: schema).map(\.description)
                == ["/p: expected string, actual 1 (integer)"])
    }

    /// Draft-04's `exclusiveMinimum` is a flag beside `minimum`: a number there is a schema error
    /// (it was read as draft-06's bound, and failed 5 for `exclusiveMinimum: 5`).
    @Test func aNumericExclusiveBoundIsNoDraft04Keyword() throws {
        let draft04 = try JSONValue.parse(#"{"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 5, "exclusiveMinimum": 5}"#)
        #expect(JSONSchemaValidator.shapeProblems(of: draft04).map(\.description)
                == ["(root): 'exclusiveMinimum' takes true or false in draft-04 (a number from draft-06 on), not 5"])
        let flag = try JSONValue.parse(#"{"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 5, "exclusiveMinimum": true}"#)
        #expect(JSONSchemaValidator.shapeProblems(of: flag).isEmpty)
        #expect(JSONSchemaValidator(root: flag).violations(of: .number("5"), against: flag).map(\.description) == ["(root): expected a number > 5, actual 5"])
        let draft06 = try JSONValue.parse(#"{"$schema": "http://json-schema.org/draft-06/schema#", "exclusiveMinimum": 5}"#)
        #expect(JSONSchemaValidator.shapeProblems(of: draft06).isEmpty)
    }

    /// `uri` and `uri-reference` take RFC 3986's structure, as python-jsonschema (rfc3987) does:
    /// one `#`, `[` `]` only around an IP literal that is the host, one `@` in the authority. The
    /// first four of each passed. `[` `]` in a query or fragment are taken, as browsers send them
    /// (JSON:API's `?page[offset]=2`): refusing them failed real answers (review).
    @Test(arguments: [
        ("uri", "http://x/#a#b", false), ("uri", "http://x/?q=[1]", true), ("uri", "http://x/a[1]", false),
        ("uri", "http://x/#[", true), ("uri", "http://[::1/", false), ("uri", "http://a@b@c/", false),
        ("uri", "http://example.com/articles?page[offset]=2", true),
        ("uri", "http://[::1]x/", false), ("uri", "foo:[1]", false),
        ("uri", "http://[::1]:80/", true), ("uri", "http://[::1]/", true), ("uri", "mailto:a@b@c", true),
        ("uri", "http://u@[::1]:8/p", true), ("uri", "http://x/p@q", true), ("uri", "http://[v1.a]/", true),
        ("uri-reference", "#a#b", false), ("uri-reference", "a[1]", false), ("uri-reference", "//x/#[", true),
        ("uri-reference", "//a@b@c/", false),
        ("uri-reference", "//[::1]/a", true), ("uri-reference", "a@b@c", true), ("uri-reference", "?q#f", true),
    ])
    func uriTakesRFC3986sStructure(format: String, text: String, valid: Bool) throws {
        let schema = JSONValue.object([JSONMember(key: "format", value: .string(format))])
        #expect(JSONSchemaValidator(root: schema).violations(of: .string(text), against: schema).isEmpty == valid, "\(format) \(text)")
    }

    /// OpenAPI 3.1 dropped `nullable`: in a 3.1 document it lets no null through.
    @Test func nullableIsNoKeywordInOpenAPI31() throws {
        let schema = try JSONValue.parse(#"{"type": "string", "nullable": true}"#)
        let v31 = try JSONValue.parse(#"{"openapi": "3.1.0"}"#), v30 = try JSONValue.parse(#"{"openapi": "3.0.3"}"#)
        #expect(JSONSchemaValidator(root: v31).violations(of: .null, against: schema).map(\.description) == ["(root): expected string, actual null (null)"])
        #expect(JSONSchemaValidator(root: v30).violations(of: .null, against: schema).isEmpty)
    }

    @Test(arguments: cases.indices)
    func keyword(_ index: Int) throws {
        let (schemaText, valueText, expected) = Self.cases[index]
        let schema = try JSONValue.parse(schemaText)
        let value = try JSONValue.parse(valueText)
        let found = JSONSchemaValidator(root: Self.root).violations(of: value, against: schema).map(\.description)
        #expect(found == expected, "schema \(schemaText), value \(valueText)")
    }

    /// `$dynamicRef` and `$recursiveRef` in a schema file, which is its own root: they are
    /// followed in a document of one schema resource, and a violation where wsh cannot follow
    /// them (they were skipped, so `{"a": 1}` passed each of the first four).
    static let dynamicCases: [(schema: String, value: String, expected: [String])] = [
        (##"{"type": "object", "properties": {"a": {"$dynamicRef": "#/$defs/s"}}, "$defs": {"s": {"type": "string"}}}"##, #"{"a": 1}"#,
         ["/a: expected string, actual 1 (integer)"]),
        (##"{"type": "object", "properties": {"a": {"$dynamicRef": "#/$defs/s"}}, "$defs": {"s": {"type": "string"}}}"##, #"{"a": "x"}"#, []),
        (##"{"$defs": {"s": {"$dynamicAnchor": "x", "type": "string"}}, "type": "object", "properties": {"a": {"$dynamicRef": "#x"}}}"##, #"{"a": 1}"#,
         ["/a: expected string, actual 1 (integer)"]),
        (##"{"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": true, "type": "object", "properties": {"a": {"$recursiveRef": "#"}}}"##,
         #"{"a": 1}"#, ["/a: expected object, actual 1 (integer)"]),
        (##"{"$recursiveAnchor": true, "type": "object", "properties": {"a": {"$recursiveRef": "#"}}}"##, #"{"a": {"a": {}}}"#, []),
        (##"{"$dynamicRef": "#nope"}"##, "1",
         [##"(root): expected the schema $dynamicRef "#nope" names, actual nothing: no $dynamicAnchor or $anchor "nope" in the document"##]),
        (##"{"not": {"$dynamicRef": "#nope"}}"##, "1",
         [##"(root): expected the schema $dynamicRef "#nope" names, actual nothing: no $dynamicAnchor or $anchor "nope" in the document"##]),
        // A resource of its own ($id below the root): the dynamic scope could lead elsewhere.
        (##"{"$defs": {"t": {"$id": "https://x.test/t", "$dynamicAnchor": "n", "type": "string"}}, "$dynamicRef": "#n"}"##, #""x""#,
         [##"(root): expected the schema $dynamicRef "#n" names, actual not followed: the document holds more than one schema resource ($id below its root), whose dynamic scope wsh does not follow"##]),
        (##"{"$dynamicRef": "other.json#n"}"##, "1",
         [##"(root): expected the schema $dynamicRef "other.json#n" names, actual not followed: only refs within the document (#...) are"##]),
        // What a $dynamicRef evaluated, unevaluatedProperties does not see again.
        (##"{"$dynamicRef": "#/$defs/p", "unevaluatedProperties": false, "$defs": {"p": {"properties": {"a": true}}}}"##, #"{"a": 1, "b": 2}"#,
         [#"(root): expected no property "b" (unevaluatedProperties is false), actual one"#]),
    ]

    @Test(arguments: dynamicCases.indices)
    func dynamicReference(_ index: Int) throws {
        let (schemaText, valueText, expected) = Self.dynamicCases[index]
        let schema = try JSONValue.parse(schemaText)
        let found = JSONSchemaValidator(root: schema).violations(of: try JSONValue.parse(valueText), against: schema).map(\.description)
        #expect(found == expected, "schema \(schemaText), value \(valueText)")
    }

    /// In an OpenAPI document `#` is the document: a `$recursiveRef` or `$dynamicRef` to it is not
    /// followed (a `$dynamicRef` was, and the document as a schema passed any value).
    @Test(arguments: ["$recursiveRef", "$dynamicRef"])
    func aRefToTheRootOfAnOpenAPIDocumentIsNotFollowed(_ keyword: String) throws {
        let root = try JSONValue.parse(##"{"openapi": "3.1.0", "components": {"schemas": {"T": {"\##(keyword)": "#"}}}}"##)
        let found = JSONSchemaValidator(root: root).violations(of: .number("1"), against: try JSONValue.parse(##"{"$ref": "#/components/schemas/T"}"##))
        #expect(found.map(\.description)
            == [##"(root): expected the schema \##(keyword) "#" names, actual not followed: in an OpenAPI document "#" is the document, not a schema"##])
    }

    /// The cases of JSON-Schema-Test-Suite's draft2020-12/optional/format/email.json (RFC 5321's
    /// Mailbox): the light check ("one @, a dot in the domain") passed `te..st@example.com` and
    /// failed a quoted local part.
    @Test(arguments: [
        ("joe.bloggs@example.com", true), ("2962", false), ("te~st@example.com", true), ("~test@example.com", true),
        ("test~@example.com", true), (#""joe bloggs"@example.com"#, true), (#""joe..bloggs"@example.com"#, true),
        (#""joe@bloggs"@example.com"#, true), ("joe.bloggs@[127.0.0.1]", true), ("joe.bloggs@[IPv6:::1]", true),
        (".test@example.com", false), ("test.@example.com", false), ("te.s.t@example.com", true), ("te..st@example.com", false),
        ("joe.bloggs@invalid=domain.com", false), ("joe.bloggs@[127.0.0.300]", false), ("a@b", true), ("ana at example", false),
    ])
    func emailIsRFC5321sMailbox(_ text: String, _ valid: Bool) throws {
        let found = JSONSchemaValidator(root: .null).violations(of: .string(text), against: try JSONValue.parse(#"{"format": "email"}"#))
        #expect(found.isEmpty == valid, "\(text): \(found.map(\.description))")
    }

    /// A recursive schema checked past the depth bound: what is below was not checked, which is a
    /// violation (the check passed 128 levels down), and a `$ref` cycle that reads no value ends so.
    @Test func aCheckPastTheDepthBoundIsNoPass() throws {
        let schema = try JSONValue.parse(##"{"type": "object", "properties": {"c": {"$ref": "#"}}}"##)
        func nested(_ levels: Int) -> JSONValue {
            (0..<levels).reduce(JSONValue.number("5")) { inner, _ in .object([JSONMember(key: "c", value: inner)]) }
        }
        let shallow = JSONSchemaValidator(root: schema).violations(of: nested(100), against: schema).map(\.description)
        #expect(shallow.count == 1 && shallow[0].hasSuffix("expected object, actual 5 (integer)"), "\(shallow)")
        let deep = JSONSchemaValidator(root: schema).violations(of: nested(200), against: schema).map(\.description)
        #expect(deep.count == 1 && deep[0].hasSuffix("expected a check at most 256 schemas deep, actual deeper: not checked below here"), "\(deep)")
        let cycle = try JSONValue.parse(##"{"$ref": "#"}"##)
        #expect(JSONSchemaValidator(root: cycle).violations(of: .number("1"), against: cycle).map(\.description)
            == ["(root): expected a check at most 256 schemas deep, actual deeper: not checked below here"])
    }

    @Test func aLongValueIsCutInTheMessage() throws {
        let long = String(repeating: "x", count: 200)
        let found = JSONSchemaValidator(root: .null).violations(of: .string(long), against: try JSONValue.parse(#"{"type": "integer"}"#))
        // Shown by its length, not its start: a part of a secret could not be masked (SchemaViolationTests).
        #expect(found.first?.actual == "… (string of 200 characters)")
    }

    /// Work a hostile schema or value could make unbounded stays within the budget: 20,000 items
    /// checked for uniqueness in one pass, an `allOf` tree under `unevaluatedProperties` stopped.
    @Test func uniqueItemsAndUnevaluatedPropertiesStayWithinTheBudget() throws {
        let many = JSONValue.array((0..<20_000).map { .number(String($0)) })
        #expect(JSONSchemaValidator(root: .null).violations(of: many, against: try JSONValue.parse(#"{"uniqueItems": true}"#)).isEmpty)
        var defs: [String] = []
        for level in 0..<41 { defs.append(##""d\##(level)": {"allOf": [{"$ref": "#/$defs/d\##(level + 1)"}, {"$ref": "#/$defs/d\##(level + 1)"}]}"##) }
        defs.append(#""d41": {"properties": {"a": true}}"#)
        let root = try JSONValue.parse(##"{"$defs": {"## + defs.joined(separator: ", ") + ##"}, "$ref": "#/$defs/d0", "unevaluatedProperties": false}"##)
        var validator = JSONSchemaValidator(root: root)
        validator.maxSteps = 100_000
        let found = validator.violations(of: try JSONValue.parse(#"{"a": 1}"#), against: root)
        #expect(found.contains { $0.description.contains("a check of at most 100000 steps") }, "\(found.map(\.description))")
    }

    @Test func anyOfInACycleStopsAtItsBudget() throws {
        // Each level tries both branches, and each fails only after going all the way down: 2^depth checks unbounded.
        let root = try JSONValue.parse(##"{"E": {"anyOf": [{"allOf": [{"$ref": "#/E"}, {"type": "string"}]}, {"allOf": [{"$ref": "#/E"}, {"type": "string"}]}]}}"##)
        var validator = JSONSchemaValidator(root: root)
        validator.maxSteps = 10_000
        let found = validator.violations(of: .number("1"), against: try JSONValue.parse(##"{"$ref": "#/E"}"##))
        #expect(found.last?.description == "(root): expected a check of at most 10000 steps, actual more: the check stopped there")
    }

    /// Property names match by their Unicode scalars, as `==` and JSONPath compare them: the
    /// composed `café` names no decomposed `cafe\u{301}` (Python's jsonschema reads them so).
    @Test func propertyNamesMatchByUnicodeScalars() throws {
        let value = try JSONValue.parse(#"{"cafe\u0301": 1}"#)
        func found(_ schema: String) throws -> [String] {
            JSONSchemaValidator(root: .null).violations(of: value, against: try JSONValue.parse(schema)).map(\.description)
        }
        #expect(try found(#"{"properties": {"caf\u00e9": true}, "additionalProperties": false}"#).count == 1)
        #expect(try found(#"{"required": ["caf\u00e9"]}"#) == [#"(root): expected a property "café", actual none"#])
        #expect(try found(#"{"properties": {"caf\u00e9": {"type": "string"}}}"#).isEmpty)
        #expect(try found(#"{"properties": {"cafe\u0301": {"type": "integer"}}, "required": ["cafe\u0301"], "additionalProperties": false}"#).isEmpty)
        #expect(try found(#"{"dependentRequired": {"cafe\u0301": ["caf\u00e9"]}}"#).count == 1)
    }
}
