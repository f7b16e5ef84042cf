import Targets

/// What the importer reads off a schema: its type for help, its default and enum values as a
/// call writes them, and an object's properties with those of its `allOf` parts.
struct SchemaFacts {
    let resolver: RefResolver

    static let jsonTypes: Set<String> = ["null", "boolean", "object", "array", "number", "string", "integer"]

    /// The schema's `type` names (3.1 allows a list).
    static func types(_ schema: JSONValue) -> [String] {
        switch schema["type"] {
        case .string(let type)?: [type]
        case .array(let types)?: types.compactMap(\.string)
        default: []
        }
    }

    /// `string`, `integer`, `array of string`, `object`; empty when the schema says nothing.
    func typeText(_ schema: JSONValue?, pointer: String) -> String {
        guard let schema, let (resolved, at) = resolver.resolve(schema, at: pointer) else { return "" }
        let types = Self.types(resolved).filter { $0 != "null" }
        guard let type = types.first else { return "" }
        if type == "array", let items = resolved["items"] {
            let inner = typeText(items, pointer: at + "/items")
            return inner.isEmpty ? "array" : "array of \(inner)"
        }
        if case .string(let format)? = resolved["format"], type == "string" { return "string (\(format))" }
        return type
    }

    /// The schema resolved, or nil.
    func resolved(_ schema: JSONValue?, pointer: String) -> (value: JSONValue, pointer: String)? {
        guard let schema else { return nil }
        return resolver.resolve(schema, at: pointer)
    }

    /// `enum` values (of an array's items too) as text.
    func enumValues(_ schema: JSONValue?, pointer: String) -> [String] {
        guard let (resolved, at) = resolved(schema, pointer: pointer) else { return [] }
        if case .array(let values)? = resolved["enum"] { return values.map(Self.text) }
        if Self.types(resolved).contains("array"), let items = resolved["items"] { return enumValues(items, pointer: at + "/items") }
        return []
    }

    /// A value as `key=value` writes it: strings as they are, anything else as JSON.
    static func text(_ value: JSONValue) -> String {
        value.plainText
    }

    /// An object schema's properties, its own and its `allOf` parts' (resolved, one level of
    /// nesting per part, bounded), in order, with the names it requires.
    func properties(_ schema: JSONValue?, pointer: String, depth: Int = 0) -> (properties: [(name: String, schema: JSONValue, pointer: String)], required: Set<String>) {
        guard depth < 8, let (resolved, at) = resolved(schema, pointer: pointer) else { return ([], []) }
        var properties: [(name: String, schema: JSONValue, pointer: String)] = []
        var required: Set<String> = []
        if case .array(let parts)? = resolved["allOf"] {
            for (index, part) in parts.enumerated() {
                let inner = self.properties(part, pointer: at + "/allOf/\(index)", depth: depth + 1)
                for property in inner.properties where !properties.contains(where: { $0.name == property.name }) { properties.append(property) }
                required.formUnion(inner.required)
            }
        }
        if case .object(let members)? = resolved["properties"] {
            for member in members {
                let property = (name: member.key, schema: member.value, pointer: JSONPointer.appending(at + "/properties", member.key))
                if let index = properties.firstIndex(where: { $0.name == member.key }) { properties[index] = property } else { properties.append(property) }
            }
        }
        if case .array(let names)? = resolved["required"] { required.formUnion(names.compactMap(\.string)) }
        return (properties, required)
    }

    /// Why a 3.0 `nullable: true` lets no null through beside these members, or nil when it does.
    static func ineffectiveNullable(_ members: [JSONMember]) -> String? {
        // Only these can refuse null beside it: `properties`, `minLength` and the like apply to one
        // type each, and null passes them.
        let constrains = members.contains { ["allOf", "anyOf", "oneOf", "$ref", "enum", "const", "not"].contains($0.key) }
        if !members.contains(where: { $0.key == "type" }), constrains {
            return "nullable: true has no type beside it, so it lets no null through (OpenAPI 3.0.3: it widens an explicit type only): "
                + "a null answer fails expect schema; write the type (type: object beside allOf), or oneOf with a {nullable: true} schema"
        }
        if case .array(let values)? = members.first(where: { $0.key == "enum" })?.value, !values.contains(.null) {
            return "nullable: true beside an enum without null lets no null through (OpenAPI 3.0.3: the enum still decides): "
                + "a null answer fails expect schema; add null to the enum"
        }
        return nil
    }

    /// Warns about `type` values that are not JSON types, anywhere under `value` (bounded).
    /// Under `properties` (and other maps of schemas by name), a key is a name, never a keyword.
    /// In a 3.1 document, a `nullable` (3.0's keyword, which 3.1 dropped) is warned of too: it is
    /// not read, so it lets no null through.
    func checkTypes(_ value: JSONValue, pointer: String, namesAreKeys: Bool = false) {
        var path: [String] = []
        let nullableIsGone = !(resolver.root["openapi"]?.string ?? "3.0").hasPrefix("3.0")
        checkTypes(value, base: pointer, path: &path, namesAreKeys: namesAreKeys, nullableIsGone: nullableIsGone)
    }

    private func checkTypes(_ value: JSONValue, base: String, path: inout [String], namesAreKeys: Bool, nullableIsGone: Bool) {
        guard path.count < 64 else { return }
        switch value {
        case .object(let members):
            for member in members {
                switch member.value {
                case .object, .array: break
                case .string where member.key == "type" && !namesAreKeys: break
                case .bool(true) where member.key == "nullable" && !namesAreKeys && nullableIsGone:
                    path.append(member.key)
                    resolver.warn(JSONPointer.pointer(base, path),
                                  "nullable is OpenAPI 3.0's, and this document is 3.1, which does not read it: null is not let through; write type: [T, \"null\"]")
                    path.removeLast()
                    continue
                case .bool(true) where member.key == "nullable" && !namesAreKeys:
                    // 3.0.3: nullable adds null to an explicit `type` only, and an `enum` still decides;
                    // generators write it beside `allOf: [$ref]`, meaning a null answer passes.
                    if let problem = Self.ineffectiveNullable(members) {
                        path.append(member.key)
                        resolver.warn(JSONPointer.pointer(base, path), problem)
                        path.removeLast()
                    }
                    continue
                default: continue
                }
                path.append(member.key)
                defer { path.removeLast() }
                if namesAreKeys {
                    checkTypes(member.value, base: base, path: &path, namesAreKeys: false, nullableIsGone: nullableIsGone)
                } else if member.key == "type", member.value.string != nil || { if case .array = member.value { true } else { false } }() {
                    let names: [JSONValue] = if case .array(let list) = member.value { list } else { [member.value] }
                    for name in names where !(name.string.map { Self.jsonTypes.contains($0) } ?? false) {
                        resolver.warn(JSONPointer.pointer(base, path), "unknown type \(name.compactText): the types are string, number, integer, boolean, array, object and null")
                    }
                } else if !Self.valueKeys.contains(member.key), !member.key.hasPrefix("x-") {
                    checkTypes(member.value, base: base, path: &path, namesAreKeys: Self.schemaMaps.contains(member.key), nullableIsGone: nullableIsGone)
                }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                switch element {
                case .object, .array: break
                default: continue
                }
                path.append(String(index))
                checkTypes(element, base: base, path: &path, namesAreKeys: false, nullableIsGone: nullableIsGone)
                path.removeLast()
            }
        default:
            break
        }
    }

    /// Keys whose values are data, not schemas.
    private static let valueKeys: Set<String> = ["example", "examples", "default", "enum", "const", "securitySchemes", "security"]
    /// Keys whose values map names to schemas (or parameters, media types...).
    private static let schemaMaps: Set<String> = ["properties", "patternProperties", "$defs", "definitions", "schemas", "content",
                                                  "responses", "parameters", "headers", "requestBodies", "encoding"]
}
