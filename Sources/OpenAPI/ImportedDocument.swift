import Targets

/// What `use openapi` makes of a document: one target declaration per operation, what help and
/// completion show of each, the warnings about what could not be read, and notes (security).
public struct ImportedDocument: Sendable {
    /// `info.title`.
    public var title: String
    /// The operations, in the document's order.
    public var operations: [ImportedOperation]
    /// Problems in the document, each naming its place; what they concern is left out.
    public var warnings: [ImportWarning]
    /// What the user should know after the import: how the API authenticates.
    public var notes: [String]
    /// The document's schemas, for checking answers.
    public var schemas: SchemaDocument
}

/// One operation as a target.
public struct ImportedOperation: Sendable {
    /// The target's name: operationId (after PREFIX and a `.`), else method and path.
    public var name: String
    /// The wsh declaration, `target NAME { ... }`, which the shell parses as if typed.
    public var declaration: String
    public var method: String
    /// The path template as the document writes it, after the server's path.
    public var path: String
    public var summary: String
    public var description: String
    public var parameters: [ParameterInfo]
    public var responses: [ResponseInfo]
    /// Where the operation is in the document (`/paths/~1pets/get`).
    public var pointer: String
    /// The request body's media type (the one the declaration sends) and schema, when it has one.
    public var requestBody: MediaSchema? = nil
    /// Whether the document says the body is required.
    public var requestBodyRequired = false
    /// A required body with no field to declare (a string, a list, a map, a file): each call gives
    /// it whole (`call NAME @FILE`), as wsh invents no data to send in its place.
    public var wholeBody: WholeBody? = nil
}

/// A required request body a call gives whole: what it is, and the document's example of it.
public struct WholeBody: Sendable, Equatable {
    public var mediaType: String
    /// `string`, `array of object`...; empty when the schema names no type.
    public var type: String
    /// The document's example (else its default, const or first enum value), as JSON text.
    public var example: String?
}

/// A parameter as help and completion show it.
public struct ParameterInfo: Sendable, Equatable {
    public enum Location: String, Sendable {
        case path, query, header, cookie, body
    }
    /// The name a call gives: `limit`, `filter[color]` (deepObject), a body field's name.
    public var name: String
    public var location: Location
    public var description: String
    public var required: Bool
    /// `enum` values as a call writes them.
    public var enumValues: [String]
    /// `string`, `integer`, `array of string`...
    public var type: String
    /// The default as a call writes it, if any.
    public var defaultValue: String?
    /// Its schema as the document writes it (`$ref`s point into the ``SchemaDocument``), if any.
    public var schema: JSONValue? = nil
}

/// A declared answer: its status (`200`, `2XX`, `default`), description and schema per media type.
public struct ResponseInfo: Sendable {
    public var status: String
    public var description: String
    public var content: [MediaSchema]
    /// The headers the answer declares, in the document's order.
    public var headers: [HeaderInfo] = []
}

/// A header a declared answer carries: `X-Rate-Limit: {required: true, schema: {type: integer}}`.
public struct HeaderInfo: Sendable {
    public var name: String
    public var required: Bool
    /// Its schema (`$ref`s point into the ``SchemaDocument``), if any.
    public var schema: JSONValue?
    /// Its `example`, the first of its `examples`, or its schema's example, if any.
    public var example: JSONValue?
}

/// A media type of an answer and its schema (a JSON Schema value whose `$ref`s point into the
/// ``SchemaDocument``), nil when the document gives none.
public struct MediaSchema: Sendable {
    public var mediaType: String
    public var schema: JSONValue?
    /// Where the schema is, for messages.
    public var pointer: String
    /// The example the document gives (`example`, the first of `examples`, the schema's), nil
    /// when there is none or when it does not match the schema.
    public var example: JSONValue? = nil
}

/// The whole document as a JSON tree (external files' parts bundled into it), against which
/// `$ref`s in schemas resolve; shared by every operation of one import.
public final class SchemaDocument: Sendable {
    public let root: JSONValue
    public init(root: JSONValue) { self.root = root }
}

/// A problem in a document: where (a JSON pointer) and what.
public struct ImportWarning: Sendable, Equatable, CustomStringConvertible {
    public var pointer: String
    public var message: String
    public var description: String { "\(pointer.isEmpty ? "/" : pointer): \(message)" }
}

/// Why a document could not be imported at all.
public struct OpenAPIImportError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
