import Foundation
@testable import OpenAPI

/// Imports a document given as text, with other files from `files` (by path).
func importText(_ text: String, path: String? = "/docs/api.yaml", prefix: String? = nil, files: [String: String] = [:]) throws(OpenAPIImportError) -> ImportedDocument {
    try OpenAPIImporter.importDocument(Array(text.utf8), path: path, prefix: prefix, read: { files[$0].map { Array($0.utf8) } })
}

extension ImportedDocument {
    func operation(_ name: String) -> ImportedOperation? { operations.first { $0.name == name } }
}
