import Foundation
import Targets
import Testing
@testable import OpenAPI

/// Documents' YAML read through Yams into JSON trees, typed as YAML 1.2 types plain scalars,
/// and trees written back as YAML that reads as the same tree.
@Suite struct DocumentTextTests {
    /// YAML as tools write it, and the JSON tree it reads as.
    static let read: [(yaml: String, json: String)] = [
        ("a: 1\nb: two\nc: 'it''s'\nd: \"tab\\there \\u00e9\"\ne: ~\nf: true\ng: -1.5e3\nh: 0x1F\ni: 2024-05-01\nj: +1\nk: .5\n",
         #"{"a": 1, "b": "two", "c": "it's", "d": "tab\there é", "e": null, "f": true, "g": -1.5e3, "h": "0x1F", "i": "2024-05-01", "j": 1, "k": 0.5}"#),
        ("# comment\n---\nlist:\n  - a\n  - b # trailing comment\n  -\n    nested: yes\nsame-indent:\n- x\n- y\n",
         #"{"list": ["a", "b", {"nested": "yes"}], "same-indent": ["x", "y"]}"#),
        ("seq:\n  - name: a\n    in: query\n  - schema: {type: string, enum: [x, 'y z', \"w\"]}\n  - - inner\n",
         #"{"seq": [{"name": "a", "in": "query"}, {"schema": {"type": "string", "enum": ["x", "y z", "w"]}}, ["inner"]]}"#),
        ("flow: {a: 1, b: [1, 2, {c: d}], e: {}, f: []}\nempty:\nkey with spaces: value with spaces\n\"200\": quoted key\n",
         #"{"flow": {"a": 1, "b": [1, 2, {"c": "d"}], "e": {}, "f": []}, "empty": null, "key with spaces": "value with spaces", "200": "quoted key"}"#),
        ("d1: |\n  line one\n    indented\n\n  after blank\nd2: >-\n  folded\n  text\n\n  para\nd3: |-\n  strip\n",
         #"{"d1": "line one\n  indented\n\nafter blank\n", "d2": "folded text\npara", "d3": "strip"}"#),
        ("url: http://{host}:8080/v1\nref: '#/components/schemas/Pet'\nversion: \"3.0\"\ncolon: a:b\nhash: a#b\n",
         ##"{"url": "http://{host}:8080/v1", "ref": "#/components/schemas/Pet", "version": "3.0", "colon": "a:b", "hash": "a#b"}"##),
        ("a: &x {k: 1}\nb: *x\nc: !!str 5\nd: plain\n  continued\ne: [1,\n  2]\n? complex\n: key\n",
         #"{"a": {"k": 1}, "b": {"k": 1}, "c": "5", "d": "plain continued", "e": [1, 2], "complex": "key"}"#),
        ("windows: 1\r\nline: endings\r\n", #"{"windows": 1, "line": "endings"}"#),
        // YAML 1.1 merge keys, as PyYAML, SnakeYAML and js-yaml read them (they were a member
        // named "<<", and the base's `required` was lost): the mapping's own members win, then
        // the first merged mapping's; a quoted '<<' is a name.
        ("base: &b {type: object, required: [id]}\ns: {<<: *b, additionalProperties: false}\n",
         #"{"base": {"type": "object", "required": ["id"]}, "s": {"type": "object", "required": ["id"], "additionalProperties": false}}"#),
        ("a: &a {k: 1, m: 2}\nb:\n  <<: *a\n  k: 3\n", #"{"a": {"k": 1, "m": 2}, "b": {"m": 2, "k": 3}}"#),
        ("x: &x {k: 1}\ny: &y {k: 2, j: 3}\nz: {<<: [*x, *y]}\n", #"{"x": {"k": 1}, "y": {"k": 2, "j": 3}, "z": {"k": 1, "j": 3}}"#),
        ("'<<': 1\n", #"{"<<": 1}"#),
    ]

    @Test(arguments: read.indices)
    func readsTheTreeToolsMean(_ index: Int) throws {
        let (yaml, json) = Self.read[index]
        #expect(try DocumentText.parse(Array(yaml.utf8)) == (try JSONValue.parse(Array(json.utf8))), "\(yaml)")
    }

    @Test func writtenYAMLReadsBackAsTheSameTree() throws {
        let tricky = ["200", "true", "yes", "no", "on", "null", "~", "", "1.0", ".5", "0x1F", "2024-05-01", "a: b", "#x", "- x",
                      " padded ", "line\nbreak", "é", "{a}", "[1]", "'quoted'", "\"double\"", "@at", "`tick`", "*star", "&amp"]
        let tree = JSONValue.object([
            .init(key: "openapi", value: .string("3.1.0")),
            .init(key: "strings", value: .array(tricky.map(JSONValue.string))),
            .init(key: "keys", value: .object(tricky.map { .init(key: $0, value: .number("1")) })),
            .init(key: "scalars", value: .array([.null, .bool(false), .number("-1.5e3"), .number("12345678901234567890")])),
            .init(key: "empty", value: .object([.init(key: "list", value: .array([])), .init(key: "map", value: .object([]))])),
            .init(key: "nested", value: .array([.object([.init(key: "b", value: .string("first")), .init(key: "a", value: .array([.string("x")]))])])),
        ])
        let text = try DocumentText.yaml(tree)
        #expect(try DocumentText.parse(Array(text.utf8)) == tree, "\(text)")
        #expect(text.hasPrefix("openapi: 3.1.0\nstrings:\n- '200'\n- 'true'\n"), "\(text)")
        #expect(text.contains("nested:\n- b: first\n  a:\n  - x\n"), "\(text)")
    }

    /// Windows editors start a UTF-8 file with a byte order mark; YAML after one was refused.
    @Test func aByteOrderMarkIsNoPartOfTheText() throws {
        let text = "openapi: 3.0.0\ninfo: {title: T, version: '1'}\n"
        #expect(try DocumentText.parse([0xEF, 0xBB, 0xBF] + Array(text.utf8)) == (try DocumentText.parse(Array(text.utf8))))
    }

    @Test func aMergeKeyOfNoMappingIsRefused() {
        #expect(throws: DocumentText.Failure.self) { try DocumentText.parse(Array("a: {<<: 1}\n".utf8)) }
    }

    @Test func badYAMLIsRefusedWithItsLineAndColumn() {
        do {
            _ = try DocumentText.parse(Array("openapi: 3.0.0\npaths:\n  a: [1, 2\n".utf8))
            Issue.record("read unbalanced brackets")
        } catch {
            #expect(error.message.hasPrefix("not valid YAML: line 4, column 1: "), "\(error.message)")
            #expect(!error.message.contains("Yams") && !error.message.contains("YamlError"), "\(error.message)")
        }
    }

    @Test func deepNestingIsRefusedWithoutRecursingThatDeep() {
        let indented = (0..<2_000).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n")
        let flow = "a: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let aliases = "a: &x " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        for text in [indented, flow, aliases] {
            do {
                _ = try DocumentText.parse(Array(text.utf8))
                Issue.record("read a document thousands of levels deep")
            } catch {
                #expect(error.message == "the document nests deeper than 256 levels")
            }
        }
    }
}
