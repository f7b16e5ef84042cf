import Foundation
import Targets

/// Writes targets as an OpenAPI 3.1 document (`openapi export FILE`). The document is built as
/// a JSON tree and written as YAML or JSON, members in the targets' order; the tests check what
/// it writes with openapi-spec-validator. Targets that came from a document keep its descriptions and response
/// schemas (with that document's `components/schemas`); others get schemas from their
/// parameters and examples from their samples.
public enum OpenAPIExporter {
    /// One target to write.
    public struct Entry: Sendable {
        public var target: Target
        /// What its document said of it, when it was imported.
        public var operation: ImportedOperation?
        public var schemas: SchemaDocument?

        public init(target: Target, operation: ImportedOperation? = nil, schemas: SchemaDocument? = nil) {
            self.target = target
            self.operation = operation
            self.schemas = schemas
        }
    }

    public enum Format: Sendable { case yaml, json }

    /// The document's text; notes on the targets that could not be written (two targets on one
    /// method and path: the first is kept); and the credentials typed as text that were left
    /// out, one `TARGET: PLACE` each (`b: header X-Api-Key`).
    public static func export(_ entries: [Entry], title: String = "wsh session", format: Format)
        throws(OpenAPIImportError) -> (text: String, notes: [String], credentials: [String]) {
        let (tree, notes, credentials) = documentTree(entries, title: title)
        switch format {
        case .json: return (tree.prettyText + "\n", notes, credentials)
        case .yaml:
            do {
                return (try DocumentText.yaml(tree), notes, credentials)
            } catch {
                throw OpenAPIImportError(message: error.message)
            }
        }
    }

    /// The document as a JSON tree.
    static func documentTree(_ entries: [Entry], title: String) -> (JSONValue, [String], [String]) {
        var notes: [String] = []
        var credentials: [String] = []
        var paths: [(path: String, operations: [(method: String, value: JSONValue)])] = []
        var schemas: [JSONMember] = []
        var copiedDocuments: [ObjectIdentifier] = []
        for entry in entries {
            let target = entry.target
            var path = target.path.isEmpty ? "/" : target.path
            if !path.hasPrefix("/") { path = "/" + path }
            if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
            // `{id=7}`: the default goes in the parameter's schema, not the path.
            path = path.replacing(/\{([^}=]+)=[^}]*\}/) { "{" + $0.output.1 + "}" }
            let method = target.method.rawValue.lowercased()
            guard OpenAPIImporter.methods.contains(method) else {
                notes.append("\(target.name): the method \(target.method.rawValue) has no place in OpenAPI 3.1: left out")
                continue
            }
            if let schemasDocument = entry.schemas, !copiedDocuments.contains(ObjectIdentifier(schemasDocument)) {
                copiedDocuments.append(ObjectIdentifier(schemasDocument))
                copySchemas(from: schemasDocument.root, into: &schemas)
            }
            var leftOut: [String] = []
            let operation = operationTree(entry, credentials: &leftOut)
            if let index = paths.firstIndex(where: { $0.path == path }) {
                if paths[index].operations.contains(where: { $0.method == method }) {
                    notes.append("\(target.name): another target already has \(target.method.rawValue) \(path): left out")
                    continue
                }
                paths[index].operations.append((method, operation))
            } else {
                paths.append((path, [(method, operation)]))
            }
            credentials += leftOut.map { "\(target.name): \($0)" }
        }
        var document: [JSONMember] = [
            JSONMember(key: "openapi", value: .string("3.1.0")),
            JSONMember(key: "info", value: .object([JSONMember(key: "title", value: .string(title)), JSONMember(key: "version", value: .string("1"))])),
            JSONMember(key: "paths", value: .object(paths.map { path in
                JSONMember(key: path.path, value: .object(path.operations.map { JSONMember(key: $0.method, value: $0.value) }))
            })),
        ]
        var components: [JSONMember] = []
        if !schemas.isEmpty { components.append(JSONMember(key: "schemas", value: .object(schemas))) }
        let usesBasic = paths.contains { $0.operations.contains { $0.value["security"] != nil } }
        if usesBasic {
            let scheme = JSONValue.object([JSONMember(key: "type", value: .string("http")), JSONMember(key: "scheme", value: .string("basic"))])
            components.append(JSONMember(key: "securitySchemes", value: .object([JSONMember(key: basicScheme, value: scheme)])))
        }
        if !components.isEmpty { document.append(JSONMember(key: "components", value: .object(components))) }
        return (.object(document), notes, credentials)
    }

    /// A source document's schemas, and its bundled parts as schemas `wsh-bundled-N`, refs rewritten to match.
    private static func copySchemas(from root: JSONValue, into schemas: inout [JSONMember]) {
        if case .object(let members)? = root["components"]?["schemas"] {
            for member in members where !schemas.contains(where: { $0.key == member.key }) {
                schemas.append(JSONMember(key: member.key, value: rewriteRefs(member.value)))
            }
        }
        if case .object(let members)? = root[Bundler.key] {
            for member in members { schemas.append(JSONMember(key: "wsh-bundled-" + member.key, value: rewriteRefs(member.value))) }
        }
    }

    /// A schema as 3.1 writes it: refs into bundled parts point at their copies under
    /// `components/schemas`, and 3.0's `nullable` is a `null` type.
    static func rewriteRefs(_ value: JSONValue, depth: Int = 0) -> JSONValue {
        guard depth < DocumentText.maxDepth else { return value }
        switch value {
        case .object(var members):
            // 3.0's `nullable: true` is 3.1's `type: [T, "null"]`.
            if let nullable = members.firstIndex(where: { $0.key == "nullable" }), members[nullable].value == .bool(true),
               let type = members.firstIndex(where: { $0.key == "type" }), case .string(let name) = members[type].value {
                members[type].value = .array([.string(name), .string("null")])
                members.remove(at: nullable)
            }
            return .object(members.map { member in
                if member.key == "$ref", case .string(let ref) = member.value, ref.hasPrefix("#/\(Bundler.key)/") {
                    return JSONMember(key: "$ref", value: .string("#/components/schemas/wsh-bundled-" + ref.dropFirst(Bundler.key.count + 3)))
                }
                return JSONMember(key: member.key, value: rewriteRefs(member.value, depth: depth + 1))
            })
        case .array(let elements):
            return .array(elements.map { rewriteRefs($0, depth: depth + 1) })
        default:
            return value
        }
    }
}
