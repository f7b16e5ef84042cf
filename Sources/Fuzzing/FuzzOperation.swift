import Checks
import Targets

/// What `wsh fuzz` knows of one target: where its inputs go and what they may be, and what its
/// answers may be. Built by the shell from a declaration, its samples and its OpenAPI operation.
public struct FuzzOperation: Sendable {
    /// Where an input is sent.
    public enum Location: String, Sendable {
        case path, query, header
    }

    /// A path, query or header parameter.
    public struct Parameter: Sendable {
        /// The name a call gives it by.
        public var name: String
        /// Where it is sent.
        public var location: Location
        /// Whether the API needs it: leaving it out makes the input invalid (OpenAPI), and a
        /// generated valid input always has it.
        public var required: Bool
        /// What its values may be; `{}` for anything.
        public var schema: JSONValue
        /// Sent as given in every call and never changed (a value that holds a secret, such as an API key).
        public var fixed: Bool
        /// The declaration gives it a default, which a call sends when it gives none: a generated
        /// input always has it, so that `call` can say the input again.
        public var alwaysSent: Bool
        /// The schema is guessed (from a default), not the API's contract, even in an operation
        /// whose schemas are: a value it refuses is not an invalid input.
        public var schemaIsGuess: Bool

        /// A parameter; see each property for what it means.
        public init(name: String, location: Location, required: Bool, schema: JSONValue, fixed: Bool = false, alwaysSent: Bool = false,
                    schemaIsGuess: Bool = false) {
            self.name = name
            self.location = location
            self.required = required
            self.schema = schema
            self.fixed = fixed
            self.alwaysSent = alwaysSent
            self.schemaIsGuess = schemaIsGuess
        }
    }

    /// How the body is written.
    public enum BodyKind: String, Sendable {
        case json, form, multipart
    }

    /// A declared answer: its status (`200`, `2XX`, `default`) and its media types, each with its
    /// schema when it has one.
    public struct Answer: Sendable {
        /// A media type and its schema.
        public struct Content: Sendable {
            /// `application/json`, `text/*`; empty when the declaration says none (a sample's shape).
            public var mediaType: String
            /// Its schema, for JSON; nil when the declaration gives none.
            public var schema: JSONValue?

            /// A media type with its schema, if any.
            public init(mediaType: String, schema: JSONValue?) {
                self.mediaType = mediaType
                self.schema = schema
            }
        }

        /// `200`, `2XX` or `default`.
        public var status: String
        /// The media types declared, each with its schema.
        public var content: [Content]

        /// An answer of `status` with `content`.
        public init(status: String, content: [Content]) {
            self.status = status
            self.content = content
        }

        /// The media types declared (none for a sample's shape, whose media type is not checked).
        public var mediaTypes: [String] { content.map(\.mediaType).filter { !$0.isEmpty } }

        /// Whether this answer is the one declared for `code`: its own number, its `2XX` range, or `default`.
        func covers(_ code: Int) -> Bool {
            if status == String(code) { return true }
            if status.count == 3, status.uppercased().hasSuffix("XX"), let hundred = Int(status.prefix(1)) { return code / 100 == hundred }
            return status == "default"
        }
    }

    /// The target's name, as `call` writes it.
    public var name: String
    /// The HTTP method, as the declaration writes it.
    public var method: String
    /// The path template, `{name}` for a path parameter.
    public var path: String
    /// The path, query and header parameters.
    public var parameters: [Parameter]
    /// How the body is written; nil for no body.
    public var bodyKind: BodyKind?
    /// The body's schema (an object whose properties are the fields, for form bodies).
    public var bodySchema: JSONValue?
    /// Whether the body's schema is the API's contract: not when it is guessed from declared
    /// defaults, even in an operation whose other schemas are.
    public var bodySchemaIsContract = true
    /// Whether an input without a body is invalid (OpenAPI `requestBody.required`).
    public var bodyRequired: Bool
    /// Body fields the declaration gives a default, always in a generated body (see ``Parameter/alwaysSent``).
    public var bodyFieldsAlwaysSent: [String] = []
    /// The answers declared: OpenAPI responses, or the samples' statuses and shapes.
    public var answers: [Answer]
    /// The document the schemas' `$ref`s point into.
    public var root: JSONValue
    /// Whether the schemas are the API's contract (OpenAPI), so an input they refuse is invalid
    /// and a 2xx to it a failure; a hand-written declaration's inferred types are guesses.
    public var schemasAreContract: Bool

    /// An operation; see each property for what it means.
    public init(name: String, method: String, path: String, parameters: [Parameter] = [], bodyKind: BodyKind? = nil,
                bodySchema: JSONValue? = nil, bodyRequired: Bool = false, answers: [Answer] = [], root: JSONValue = .null,
                schemasAreContract: Bool = false) {
        self.name = name
        self.method = method
        self.path = path
        self.parameters = parameters
        self.bodyKind = bodyKind
        self.bodySchema = bodySchema
        self.bodyRequired = bodyRequired
        self.answers = answers
        self.root = root
        self.schemasAreContract = schemasAreContract
    }

    /// Whether the method changes state (anything but GET, HEAD and OPTIONS).
    public var writes: Bool { !Self.readMethods.contains(method.uppercased()) }

    /// The methods fuzz sends without `--allow-writes`.
    public static let readMethods = ["GET", "HEAD", "OPTIONS"]

    /// The declared answer for `code`: its own status first, then its range, then `default`.
    public func answer(for code: Int) -> Answer? {
        answers.first { $0.status == String(code) } ?? answers.first { $0.status != "default" && $0.covers(code) }
            ?? answers.first { $0.status == "default" }
    }

    /// A schema of the shape of a sample: the same types at the same paths (an array's elements
    /// like its first), a null's place open to anything, each value its place's `default`. For an
    /// answer no property is required; for a request body written out (a `.http` file's JSON)
    /// `requiringKeys` keeps every key in generated bodies.
    public static func shape(of sample: JSONValue, requiringKeys: Bool = false) -> JSONValue {
        func typed(_ name: String) -> [JSONMember] {
            [JSONMember(key: "type", value: .string(name)), JSONMember(key: "default", value: sample)]
        }
        switch sample {
        case .null: return .object([])
        case .bool: return .object(typed("boolean"))
        case .number: return .object(typed("number"))
        case .string: return .object(typed("string"))
        case .array(let elements):
            return .object([JSONMember(key: "type", value: .string("array"))]
                           + (elements.first.map { [JSONMember(key: "items", value: shape(of: $0, requiringKeys: requiringKeys))] } ?? []))
        case .object(let members):
            var schema = [JSONMember(key: "type", value: .string("object")),
                          JSONMember(key: "properties", value: .object(members.map { JSONMember(key: $0.key, value: shape(of: $0.value, requiringKeys: requiringKeys)) }))]
            if requiringKeys { schema.append(JSONMember(key: "required", value: .array(members.map { .string($0.key) }))) }
            return .object(schema)
        }
    }

    /// A schema guessed from a declared default: its JSON type for `key:=JSON`, else integer,
    /// number or boolean when the text reads so, else string.
    public static func schema(guessedFrom value: ParameterValue?) -> JSONValue {
        func typed(_ name: String, _ example: JSONValue) -> JSONValue {
            .object([JSONMember(key: "type", value: .string(name)), JSONMember(key: "default", value: example)])
        }
        switch value {
        case .json(let text)?:
            guard let parsed = try? JSONValue.parse(text) else { return .object([]) }
            return typed(JSONSchemaValidator.typeName(parsed), parsed)
        case .text(let text)?:
            if Int(text) != nil { return typed("integer", .number(text)) }
            if Double(text) != nil, text.contains(".") { return typed("number", .number(text)) }
            if text == "true" || text == "false" { return typed("boolean", .bool(text == "true")) }
            return typed("string", .string(text))
        default:
            return .object([])
        }
    }
}
