import Foundation
import Testing
@testable import OpenAPI

/// Bad input never crashes the import: every prefix of a real-shaped document, and the same with
/// bytes changed, imports or is refused with a message.
@Suite struct TruncatedDocumentTests {
    static let petstore = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/openapi/petstore.yaml")

    @Test func everyPrefixImportsOrIsRefused() throws {
        let bytes = Array(try Data(contentsOf: Self.petstore))
        var imported = 0
        for end in stride(from: 0, through: bytes.count, by: 3) {
            if (try? OpenAPIImporter.importDocument(Array(bytes[..<end]), path: nil)) != nil { imported += 1 }
        }
        #expect(imported > 0)
    }

    @Test func changedBytesImportOrAreRefused() throws {
        let bytes = Array(try Data(contentsOf: Self.petstore))
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var changed = bytes
            for _ in 0..<(1 + round % 5) {
                let position = Int.random(in: 0..<changed.count, using: &generator)
                changed[position] = [UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "\n"), UInt8(ascii: "|"),
                                     UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), 0xC3, 0x00].randomElement(using: &generator) ?? 0
            }
            _ = try? OpenAPIImporter.importDocument(changed, path: nil)
        }
    }
}
