import Foundation
import Testing
import TestSupport
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

    /// Each changed document imports (its operations' declarations and warnings said in text) or is
    /// refused with a message in the user's words: never a crash, an empty message, a Swift type's
    /// name or a build path.
    @Test func changedBytesImportOrAreRefused() throws {
        let bytes = Array(try Data(contentsOf: Self.petstore))
        let seed = SeededGenerator.seed()
        var generator = SeededGenerator(seed: seed)
        var imported = 0, refused = 0
        for round in 0..<300 {
            var changed = bytes
            for _ in 0..<(1 + round % 5) {
                let position = Int.random(in: 0..<changed.count, using: &generator)
                changed[position] = [UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "\n"), UInt8(ascii: "|"),
                                     UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), 0xC3, 0x00].randomElement(using: &generator) ?? 0
            }
            let said: [String]
            do {
                let document = try OpenAPIImporter.importDocument(changed, path: nil)
                imported += 1
                said = document.warnings.map(\.description) + document.operations.map(\.declaration)
                #expect(document.operations.allSatisfy { !$0.declaration.isEmpty }, "seed \(seed), round \(round)")
            } catch {
                refused += 1
                #expect(!error.message.isEmpty, "seed \(seed), round \(round)")
                said = [error.message]
            }
            for text in said {
                #expect(!text.contains("Error(") && !text.contains(".swift") && !text.contains("Swift."),
                        "seed \(seed), round \(round): \(text)")
            }
        }
        // Both outcomes are met, so both were checked: one change in a long document often leaves it readable.
        #expect(imported > 0 && refused > 0, "seed \(seed): \(imported) imported, \(refused) refused")
    }
}
