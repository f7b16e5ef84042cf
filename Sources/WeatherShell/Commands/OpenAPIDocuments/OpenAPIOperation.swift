import OpenAPI

/// An operation of an imported OpenAPI document, kept with its target.
struct OpenAPIOperation: Sendable {
    var operation: ImportedOperation
    /// The document, against whose schemas answers are checked.
    var schemas: SchemaDocument
    /// The file or URL it came from, as given.
    var source: String
}
