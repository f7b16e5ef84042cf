import Foundation
import Targets
import Testing
@testable import OpenAPI

/// The fast YAML reader agrees with Yams on what it reads, and leaves the rest to Yams.
@Suite struct BlockYAMLTests {
    static let read: [String] = [
        "a: 1\nb: two\nc: 'it''s'\nd: \"tab\\there \\u00e9\"\ne: ~\nf: true\ng: -1.5e3\nh: 0x1F\ni: 2024-05-01\n",
        "# comment\n---\nlist:\n  - a\n  - b # trailing comment\n  -\n    nested: yes\nsame-indent:\n- x\n- y\n",
        "seq:\n  - name: a\n    in: query\n  - name: b\n    schema: {type: string, enum: [x, 'y z', \"w\"]}\n  - - inner\n    - list\n",
        "flow: {a: 1, b: [1, 2, {c: d}], e: {}, f: []}\nempty:\nkey with spaces: value with spaces\n\"200\": quoted key\n'x:y': z\n",
        "d1: |\n  line one\n    indented\n\n  after blank\nd2: >-\n  folded\n  text\n\n  para\nd3: |+\n  keep\n\nnext: 1\nd4: |-\n  strip\n",
        "url: http://{host}:8080/v1\npath: /pets/{petId}\nref: '#/components/schemas/Pet'\nversion: \"3.0\"\ncolon: a:b\nhash: a#b\n",
        "windows: 1\r\nline: endings\r\n",
    ]

    /// YAML the fast reader leaves to Yams.
    static let givenUp: [String] = [
        "a: &x 1\nb: *x\n",
        "a: !!str 5\n",
        "a: plain\n  continued\n",
        "a: \"quoted\n  continued\"\n",
        "? complex\n: key\n",
        "a: 1\n---\nb: 2\n",
        "a: [1,\n  2]\n",
        "d: |2\n   indented\n",
    ]

    @Test(arguments: read.indices)
    func readsAsYamsDoes(_ index: Int) throws {
        let text = Self.read[index]
        let fast = try #require((try? BlockYAML.parse(Array(text.utf8))) ?? nil, "gave up on:\n\(text)")
        #expect(fast == (try DocumentText.yams(text)), "\(text)")
    }

    @Test(arguments: givenUp.indices)
    func leavesTheRestToYams(_ index: Int) {
        #expect((try? BlockYAML.parse(Array(Self.givenUp[index].utf8))) ?? nil == nil, "\(Self.givenUp[index])")
    }

    @Test func theExampleDocumentAndTheTestDocumentsReadTheSame() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/openapi/petstore.yaml")
        for text in [try String(contentsOf: examples, encoding: .utf8), ImportTests.petstore] {
            let fast = try #require((try? BlockYAML.parse(Array(text.utf8))) ?? nil)
            #expect(fast == (try DocumentText.yams(text)))
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
