import Checks
import Foundation
import Fuzzing
import OpenAPI
import Targets
import Testing
import TestSupport

/// The OpenAPI documents of the repository (examples, the planted server's) and, when the
/// steering repository has them, the public ones in ../shared/fixtures/openapi (or the folder
/// `WSH_OPENAPI_DOCUMENTS` names).
enum Documents {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var paths: [URL] {
        var folders = [repository.appendingPathComponent("examples/openapi"), repository.appendingPathComponent("Tests/Files/planted"),
                       repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures/openapi")]
        if let named = ProcessInfo.processInfo.environment["WSH_OPENAPI_DOCUMENTS"] { folders.append(URL(fileURLWithPath: named)) }
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
                .map { folder.appendingPathComponent($0) }
                .filter { url in
                    // JSON files beside the documents (the planted server's defects.json) are not documents.
                    let head = (try? FileHandle(forReadingFrom: url).read(upToCount: 4096)).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? ""
                    return ["yaml", "yml", "json"].contains(url.pathExtension) && head.contains("openapi")
                }
        }
    }

    static func imported(_ url: URL) throws -> ImportedDocument {
        try OpenAPIImporter.importDocument(Array(try Data(contentsOf: url)), path: url.path)
    }
}

@Suite struct SchemaSamplerTests {
    /// `wsh serve`'s made-up answers: every JSON response schema of every document gets a value,
    /// and the validator (which checks types, bounds, lengths, patterns, formats, required and
    /// additional properties) accepts it, for several seeds and both styles.
    @Test func everyResponseSchemaOfTheDocumentsGetsAValidValue() throws {
        let seed = SeededGenerator.seed()
        var schemas = 0
        var failures: [String] = []
        for url in Documents.paths {
            let document = try Documents.imported(url)
            let validator = JSONSchemaValidator(root: document.schemas.root)
            for operation in document.operations {
                for response in operation.responses {
                    for media in response.content where media.mediaType.contains("json") {
                        guard let schema = media.schema else { continue }
                        schemas += 1
                        for style in [SchemaSampler.Style.plain, .edges] {
                            let sampler = SchemaSampler(root: document.schemas.root, style: style)
                            for round in 0..<3 {
                                var generator = SeededRandom(seed: seed &+ UInt64(round))
                                guard let value = sampler.validValue(for: schema, using: &generator) else {
                                    failures.append("\(url.lastPathComponent) \(media.pointer) (\(style)): no value")
                                    continue
                                }
                                if let violation = validator.violations(of: value, against: schema).first {
                                    failures.append("\(url.lastPathComponent) \(media.pointer): \(violation.description)")
                                }
                            }
                        }
                    }
                }
            }
        }
        print("SchemaSamplerTests: \(schemas) response schemas in \(Documents.paths.count) documents, seed \(seed)")
        #expect(schemas > 20)
        #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(10))")
    }

    /// Inputs at the edges stay inside their schema: the bounds, lengths, enums and formats.
    @Test func valuesKeepToBoundsLengthsEnumsPatternsAndFormats() throws {
        let schema = try JSONValue.parse("""
            {"type": "object", "required": ["n", "s", "e", "p", "d", "l"], "additionalProperties": false, "properties": {
              "n": {"type": "integer", "minimum": 3, "maximum": 9},
              "x": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
              "s": {"type": "string", "minLength": 2, "maxLength": 4},
              "e": {"enum": ["a", "b"]},
              "p": {"type": "string", "pattern": "^[A-Z]{2}-[0-9]{3}$"},
              "d": {"type": "string", "format": "date-time"},
              "l": {"type": "array", "items": {"type": "boolean"}, "minItems": 1, "maxItems": 2}}}
            """)
        let seed = SeededGenerator.seed()
        let validator = JSONSchemaValidator(root: .null)
        for style in [SchemaSampler.Style.plain, .edges] {
            var generator = SeededRandom(seed: seed)
            for _ in 0..<200 {
                let value = try #require(SchemaSampler(root: .null, style: style).validValue(for: schema, using: &generator), "seed \(seed)")
                #expect(validator.violations(of: value, against: schema).isEmpty, "seed \(seed): \(value.compactText)")
                #expect(value["p"]?.string.map { $0.count == 6 && $0.dropFirst(2).first == "-" } == true, "seed \(seed)")
            }
        }
    }

    /// A map (`additionalProperties` only) gets members, as many as `minProperties` asks: it was
    /// always `{}`, which a `minProperties: 1` refuses (review of F31).
    @Test func aMapGetsMembers() throws {
        let schema = try JSONValue.parse(#"{"type": "object", "minProperties": 1, "additionalProperties": {"type": "integer", "minimum": 1}}"#)
        let three = try JSONValue.parse(#"{"type": "object", "minProperties": 3, "maxProperties": 3, "additionalProperties": {"type": "string"}}"#)
        let seed = SeededGenerator.seed()
        let validator = JSONSchemaValidator(root: .null)
        var generator = SeededRandom(seed: seed)
        for _ in 0..<50 {
            let value = try #require(SchemaSampler(root: .null, style: .plain).validValue(for: schema, using: &generator), "seed \(seed)")
            #expect(validator.violations(of: value, against: schema).isEmpty, "seed \(seed): \(value.compactText)")
            let members = try #require(SchemaSampler(root: .null, style: .plain).validValue(for: three, using: &generator), "seed \(seed)")
            #expect(validator.violations(of: members, against: three).isEmpty, "seed \(seed): \(members.compactText)")
        }
        // Where names are ruled, `key1` would break the rule: the map stays empty, as it was.
        let ruled = try JSONValue.parse(#"{"type": "object", "propertyNames": {"pattern": "^[a-z]{2}$"}, "additionalProperties": {"type": "integer"}}"#)
        let empty = try #require(SchemaSampler(root: .null, style: .plain).validValue(for: ruled, using: &generator), "seed \(seed)")
        #expect(validator.violations(of: empty, against: ruled).isEmpty, "seed \(seed): \(empty.compactText)")
    }

    /// A schema nothing satisfies gives no value, rather than one that breaks it.
    @Test func anImpossibleSchemaGivesNoValue() throws {
        let schema = try JSONValue.parse(#"{"type": "integer", "minimum": 5, "maximum": 2}"#)
        var generator = SeededRandom(seed: 1)
        #expect(SchemaSampler(root: .null, style: .plain).validValue(for: schema, using: &generator) == nil)
        let operation = FuzzOperation(name: "t", method: "GET", path: "/t",
                                      parameters: [.init(name: "n", location: .query, required: true, schema: schema),
                                                   .init(name: "q", location: .query, required: false, schema: try JSONValue.parse(#"{"pattern": "(?<=a)b"}"#))])
        #expect(operation.schemaProblems == ["query parameter 'n': no value fits: a number at least 5 and at most 2",
                                             "query parameter 'q': the pattern \"(?<=a)b\" cannot be used: lookbehind is not supported: matching must stay linear in the input (at character 1 of the pattern)"])
    }

    /// Each pattern's samples match it, whatever the seed.
    @Test func regexSamplesMatchTheirPattern() throws {
        let seed = SeededGenerator.seed()
        var generator = SeededRandom(seed: seed)
        for pattern in ["^[a-z]+$", "\\d{3}-\\d{4}", "(foo|bar)+baz?", "[^0-9]{2,5}", "^\\w+@\\w+\\.com$", "a.c", "(?i)abc", "[\\s]x{0,3}"] {
            let regex = try LinearRegex(pattern)
            let sampler = try RegexSampler(pattern)
            for _ in 0..<100 {
                let text = sampler.sample(using: &generator)
                #expect(try regex.matches(text), "seed \(seed): \(pattern) gave \(text.debugDescription)")
            }
        }
    }
}
