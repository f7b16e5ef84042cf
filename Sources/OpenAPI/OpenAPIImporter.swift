import Checks
import Foundation
import Targets

/// Reads an OpenAPI 3.0 or 3.1 document (JSON or YAML) into one target declaration per
/// operation (LANGUAGE.md, "OpenAPI"). Lenient as real documents need: a problem in one part is a
/// warning naming its JSON pointer, and the rest is imported. Knows nothing of the shell.
public enum OpenAPIImporter {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Imports the document in `bytes`, read from `path` (relative `$ref`s to other files are read
    /// from its directory through `read`; for a document from the network, its URL, and `read`
    /// is given the absolute URL of each document a ref names). `prefix` goes before each
    /// target's name, with a `.`.
    public static func importDocument(_ bytes: [UInt8], path: String?, prefix: String? = nil,
                                      read: @escaping (String) -> [UInt8]? = Self.readFile) throws(OpenAPIImportError) -> ImportedDocument {
        let tree: JSONValue
        do {
            tree = try DocumentText.parse(bytes)
        } catch {
            throw OpenAPIImportError(message: error.message)
        }
        guard case .object = tree else { throw OpenAPIImportError(message: "not an OpenAPI document: it is not an object") }
        if tree["swagger"] != nil {
            throw OpenAPIImportError(message: "this is a Swagger 2.0 document, which wsh does not read: convert it to OpenAPI 3 first (for example with swagger2openapi, or the converter at converter.swagger.io)")
        }
        guard let version = tree["openapi"]?.string ?? tree["openapi"].map(SchemaFacts.text) else {
            throw OpenAPIImportError(message: "not an OpenAPI document: it has no 'openapi' field giving its version")
        }
        guard version.hasPrefix("3.0") || version.hasPrefix("3.1") else {
            throw OpenAPIImportError(message: "OpenAPI \(version) is not read: wsh reads OpenAPI 3.0 and 3.1")
        }
        var bundler = Bundler(read: read)
        let root = bundler.bundle(tree, path: path)
        let resolver = RefResolver(root: root)
        for warning in bundler.warnings { resolver.warn(warning.pointer, warning.message) }
        resolver.checkRefs(root, at: "")
        let facts = SchemaFacts(resolver: resolver)
        for key in ["components", Bundler.key] { if let part = root[key] { facts.checkTypes(part, pointer: "/" + key) } }
        if let paths = root["paths"] { facts.checkTypes(paths, pointer: "/paths", namesAreKeys: true) }
        let reader = OperationReader(resolver: resolver, facts: facts, validator: JSONSchemaValidator(root: root, direction: .response))

        let documentServer = Self.server(root["servers"], pointer: "/servers", resolver: resolver)
        var operations: [ImportedOperation] = []
        var names: [String: String] = [:]
        if case .object(let paths)? = root["paths"] {
            for entry in paths {
                let itemPointer = JSONPointer.appending("/paths", entry.key)
                guard let (item, _) = resolver.resolve(entry.value, at: itemPointer), case .object(let members) = item else { continue }
                let pathServer = Self.server(item["servers"], pointer: itemPointer + "/servers", resolver: resolver) ?? documentServer
                var pathParameters: [(value: JSONValue, pointer: String)] = []
                if case .array(let list)? = item["parameters"] {
                    pathParameters = list.enumerated().map { ($0.element, itemPointer + "/parameters/\($0.offset)") }
                }
                for member in members where methods.contains(member.key.lowercased()) {
                    let pointer = JSONPointer.appending(itemPointer, member.key)
                    guard case .object = member.value else {
                        resolver.warn(pointer, "an operation is an object: left out")
                        continue
                    }
                    let method = member.key.uppercased()
                    var name = Self.name(member.value["operationId"]?.string, method: method, path: entry.key)
                    if let prefix, !prefix.isEmpty { name = prefix + "." + name }
                    if let earlier = names[name] {
                        var number = 2
                        while names["\(name)_\(number)"] != nil { number += 1 }
                        let renamed = "\(name)_\(number)"
                        resolver.warn(pointer + (member.value["operationId"] != nil ? "/operationId" : ""),
                                      "the name '\(name)' is taken by \(earlier): this operation is '\(renamed)'")
                        name = renamed
                    }
                    names[name] = pointer
                    let server = Self.located(Self.server(member.value["servers"], pointer: pointer + "/servers", resolver: resolver) ?? pathServer,
                                              in: path)
                    operations.append(reader.read(.init(name: name, method: method, path: entry.key, server: server,
                                                        operation: member.value, pathParameters: pathParameters, pointer: pointer)))
                }
            }
        }
        // OpenAPI 3.1's webhooks are requests the API sends, not ones it answers.
        if case .object(let webhooks)? = root["webhooks"], !webhooks.isEmpty {
            resolver.warn("/webhooks", "\(webhooks.count == 1 ? "1 webhook" : "\(webhooks.count) webhooks") (requests the API sends, not ones it answers) not declared")
        }
        return ImportedDocument(title: root["info"]?["title"]?.string ?? "", operations: operations,
                                warnings: resolver.warnings, notes: SecurityNotes.notes(root),
                                schemas: SchemaDocument(root: root))
    }

    /// A file's bytes, or nil.
    public static func readFile(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }

    /// The first server's URL with its variables filled with their defaults.
    static func server(_ value: JSONValue?, pointer: String, resolver: RefResolver) -> String? {
        guard case .array(let servers)? = value, let first = servers.first else { return nil }
        guard var url = first["url"]?.string else {
            resolver.warn(pointer + "/0", "a server needs a 'url': left out")
            return nil
        }
        if case .object(let variables)? = first["variables"] {
            for variable in variables {
                guard let value = variable.value["default"].map(SchemaFacts.text) else {
                    resolver.warn(JSONPointer.appending(pointer + "/0/variables", variable.key), "a server variable needs a default")
                    continue
                }
                url = url.replacingOccurrences(of: "{\(variable.key)}", with: value)
            }
        }
        return url
    }

    /// Whether `source` is an `http` or `https` URL, a document fetched from the network, rather
    /// than a file's path.
    public static func isURL(_ source: String) -> Bool {
        Bundler.isURL(source)
    }

    /// A relative server URL (`/v1`) of a document from the network, resolved against the
    /// document's URL, as OpenAPI says; with no server, the document's origin (its default server
    /// is `/`). A local document's stays as it is: a relative one leaves the host to `set base`.
    static func located(_ server: String?, in path: String?) -> String? {
        guard let path, Bundler.isURL(path), !(server?.contains("://") ?? false),
              let url = URL(string: server ?? "/", relativeTo: URL(string: path))?.absoluteURL else { return server }
        let text = url.absoluteString
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// The operationId in target-name characters, else `get_v1_forecast` from method and path.
    static func name(_ operationId: String?, method: String, path: String) -> String {
        if let operationId, case let cleaned = clean(operationId), !cleaned.isEmpty { return cleaned }
        let segments = path.split(separator: "/").map { clean(String($0)) }.filter { !$0.isEmpty }
        return ([method.lowercased()] + segments).joined(separator: "_")
    }

    /// Letters, digits, `_`, `-` and `.` kept; anything else is `_`, with runs and ends trimmed.
    private static func clean(_ text: String) -> String {
        var result = ""
        for char in text {
            let keep = char.isASCII && (char.isLetter || char.isNumber || char == "_" || char == "-" || char == ".")
            if keep {
                result.append(char)
            } else if !result.hasSuffix("_") {
                result.append("_")
            }
        }
        return result.trimmingCharacters(in: CharacterSet(charactersIn: "_.-"))
    }
}
