import Targets

/// One thing that makes a schema no JSON Schema a check can trust, at its JSON pointer.
public struct SchemaShapeProblem: CustomStringConvertible, Sendable {
    /// What kind of problem it is, for a reader that treats some kinds apart.
    public enum Kind: Sendable {
        /// A `type` no JSON value has (`"objekt"`).
        case unknownType
        /// A key one edit or two from a keyword (`"requird"`), which may be an annotation.
        case nearMissKeyword
        /// A `$ref` that names nothing wsh can follow.
        case brokenRef
        /// Anything else: a keyword's value of the wrong form, or no schema at all.
        case wrongForm
    }

    /// The JSON pointer of the schema the problem is in; empty for the root.
    public let pointer: String
    /// The problem in words, without its place.
    public let message: String
    public let kind: Kind

    /// The place the problem is in: its pointer, or `(root)`.
    public var place: String { pointer.isEmpty ? "(root)" : pointer }
    public var description: String { place + ": " + message }
}

extension JSONSchemaValidator {
    /// What makes `schema` no JSON Schema a check can trust, each with its JSON pointer: a schema
    /// that is neither an object nor a boolean, a `type` no JSON value has (`"objekt"`), a keyword
    /// whose value has the wrong form (`"required": "name"`, `"allOf": {...}`), or a keyword one
    /// edit or two from a known one (`"requird"`), or a `$ref` that names nothing wsh can follow
    /// (`"#/$defs/gone"`, `"other.json"`). The validator reads such a keyword as absent, so a body
    /// would pass whatever it held. Empty for a well-formed schema; at most `limit`.
    public static func shapeProblems(of schema: JSONValue, limit: Int = 10) -> [SchemaShapeProblem] {
        var problems: [SchemaShapeProblem] = []
        collectShapeProblems(schema, at: "", depth: 0, into: &problems, limit: limit, draft: draftNumber(schema["$schema"]?.string ?? ""))
        var anchors: Anchors?
        collectRefProblems(schema, at: "", in: schema, anchors: &anchors, into: &problems, limit: limit)
        return problems
    }

    /// ``shapeProblems(of:limit:)`` of `schema` and of every schema its local `$ref`s reach in
    /// `root` (an OpenAPI document's schemas), each place named by its pointer in `root`.
    public static func shapeProblems(of schema: JSONValue, at pointer: String, in root: JSONValue, limit: Int = 10) -> [SchemaShapeProblem] {
        var problems: [SchemaShapeProblem] = []
        var anchors: Anchors?
        collectShapeProblems(schema, at: pointer, depth: 0, into: &problems, limit: limit)
        collectRefProblems(schema, at: pointer, in: root, anchors: &anchors, into: &problems, limit: limit)
        var seen: Set<String> = [], pending = localRefs(in: schema)
        while let ref = pending.popLast(), problems.count < limit, seen.count < 1000 {
            guard seen.insert(ref).inserted, let target = JSONPointer.resolve(fragment: String(ref.dropFirst()), in: root) else { continue }
            collectShapeProblems(target, at: String(ref.dropFirst()), depth: 0, into: &problems, limit: limit)
            collectRefProblems(target, at: String(ref.dropFirst()), in: root, anchors: &anchors, into: &problems, limit: limit)
            pending += localRefs(in: target)
        }
        return problems
    }

    /// A problem per `$ref` under `schema` that names no schema of `root` wsh can follow (a
    /// place that is not there, an `$anchor` no schema has, another file, an `$id`): a check
    /// against it would be no check, so it is refused, naming the ref and why.
    private static func collectRefProblems(_ schema: JSONValue, at pointer: String, in root: JSONValue, anchors: inout Anchors?,
                                           into problems: inout [SchemaShapeProblem], limit: Int, depth: Int = 0) {
        guard problems.count < limit, depth < 64 else { return }
        switch schema {
        case .object(let members):
            for member in members {
                if member.key == "$ref", case .string(let ref) = member.value, target(of: ref, in: root, anchors: &anchors) == nil {
                    if problems.count < limit {
                        problems.append(SchemaShapeProblem(pointer: pointer, message: "$ref \(JSONValue.quoted(ref)) names no schema wsh can check against: "
                                                           + refProblem(ref, in: root, anchors: &anchors), kind: .brokenRef))
                    }
                }
                if ["example", "examples", "default", "enum", "const"].contains(member.key) { continue }
                collectRefProblems(member.value, at: pointer + "/" + JSONPointer.escape(member.key), in: root, anchors: &anchors,
                                   into: &problems, limit: limit, depth: depth + 1)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                collectRefProblems(element, at: pointer + "/\(index)", in: root, anchors: &anchors, into: &problems, limit: limit, depth: depth + 1)
            }
        default:
            break
        }
    }

    /// Every `#/...` `$ref` under `value` (bounded depth).
    private static func localRefs(in value: JSONValue, depth: Int = 0) -> [String] {
        guard depth < 64 else { return [] }
        switch value {
        case .object(let members):
            return members.flatMap { member -> [String] in
                if member.key == "$ref", case .string(let ref) = member.value { return ref.hasPrefix("#/") ? [ref] : [] }
                if ["example", "examples", "default", "enum", "const"].contains(member.key) { return [] }
                return localRefs(in: member.value, depth: depth + 1)
            }
        case .array(let elements): return elements.flatMap { localRefs(in: $0, depth: depth + 1) }
        default: return []
        }
    }

    static let typeNames: Set<String> = ["null", "boolean", "object", "array", "number", "string", "integer"]

    private static let subschemaKeywords: Set<String> = [
        "not", "if", "then", "else", "contains", "propertyNames", "additionalProperties", "additionalItems",
        "unevaluatedProperties", "unevaluatedItems",
    ]
    private static let schemaListKeywords: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]
    private static let schemaMapKeywords: Set<String> = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"]
    private static let countKeywords: Set<String> = [
        "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains",
    ]
    private static let numberKeywords: Set<String> = ["minimum", "maximum", "multipleOf"]
    private static let otherKeywords: Set<String> = [
        "type", "enum", "const", "required", "items", "pattern", "format", "$ref", "$id", "$schema", "$anchor", "$comment",
        "title", "description", "default", "examples", "example", "exclusiveMinimum", "exclusiveMaximum", "uniqueItems",
        "dependentRequired", "dependencies", "nullable", "readOnly", "writeOnly", "deprecated", "discriminator", "xml",
        "externalDocs", "contentMediaType", "contentEncoding", "contentSchema", "$dynamicRef", "$dynamicAnchor", "$vocabulary",
        "$recursiveRef", "$recursiveAnchor", "id", "links",
    ]
    private static let knownKeywords = subschemaKeywords.union(schemaListKeywords).union(schemaMapKeywords)
        .union(countKeywords).union(numberKeywords).union(otherKeywords)

    /// What a keyword's value is, as its wrong-form message names it: its kind in plain words
    /// (`an object`, `an empty list`), or a number, a short list or string itself (`-1`, `[1]`,
    /// `the string "5"`), whose kind may be the right one.
    static func described(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text.count <= 24 ? text : "a number"
        case .string(let text): return text.count <= 24 ? "the string " + JSONValue.quoted(text) : "a string"
        case .object: return "an object"
        case .array(let list):
            if list.isEmpty { return "an empty list" }
            let text = value.compactText
            return text.count <= 24 ? text : "a list"
        }
    }

    /// Why a schema's pattern cannot be checked as JSON Schema means it (ECMA-262): wsh's engine
    /// cannot run it (`\p{L}`, `\cJ`, lookaround, or no regular expression at all: `([`), or it
    /// uses a POSIX class, which ECMA-262 reads as a plain bracket (`[[:digit:]]` is `[:digt` then
    /// `]`) and wsh's engine as the class. Nil for a pattern both read alike.
    static func patternProblem(_ pattern: String) -> String? {
        do {
            guard let posix = try LinearRegex(pattern).posixClass else { return nil }
            return "uses the POSIX class '\(posix)', which ECMA-262, the syntax of JSON Schema's patterns, does not have: write a range such as [0-9]"
        } catch where error.isUnsupported {
            // A lookahead or `\p{L}`: a right pattern wsh cannot run. Only a string that reaches it
            // goes unchecked, a violation saying so; the rest of the schema is checked.
            return nil
        } catch {
            return "is no pattern: \(error.description)"
        }
    }

    /// A hint for a YAML 1.1 boolean (`no`, `yes`, `on`, `off`) that a YAML 1.2 reader takes as a string.
    private static func yamlBoolean(_ value: JSONValue) -> String {
        guard let text = value.string, ["yes", "no", "y", "n", "on", "off", "true", "false"].contains(text.lowercased()) else { return "" }
        return " (\(JSONValue.quoted(text)) is a string in YAML 1.2, which wsh reads: write true or false)"
    }

    /// Keywords a draft added, by the draft (``draftNumber(_:)``) that added them.
    private static let laterKeywords = ["const": 6, "contains": 6, "propertyNames": 6, "if": 7, "then": 7, "else": 7]

    /// `draft`: the draft a schema file names (``draftNumber(_:)``), 0 for others.
    private static func collectShapeProblems(_ schema: JSONValue, at pointer: String, depth: Int, into problems: inout [SchemaShapeProblem], limit: Int,
                                             draft: Int = 0) {
        guard problems.count < limit, depth < 64 else { return }
        func add(_ problem: String, _ kind: SchemaShapeProblem.Kind = .wrongForm) {
            if problems.count < limit { problems.append(SchemaShapeProblem(pointer: pointer, message: problem, kind: kind)) }
        }
        guard case .object(let members) = schema else {
            if case .bool = schema { return }
            add("a schema is an object or true/false, not \(described(schema))")
            return
        }
        for member in members {
            let key = member.key, value = member.value
            let path = pointer + "/" + JSONPointer.escape(key)
            func wrong(_ form: String) { add("'\(key)' takes \(form), not \(described(value))" + yamlBoolean(value)) }
            if let since = laterKeywords[key], draft > 0, draft < since {
                // Not a keyword of the draft the file names: the validator reads it as absent, as
                // that draft says, so a check would pass what the author meant to refuse.
                add("'\(key)' is no draft-0\(draft) keyword, so no check reads it: name draft-0\(since) or later in $schema")
                continue
            }
            switch key {
            case "type" where value != .array([]):
                let names: [JSONValue]
                if case .array(let list) = value { names = list } else { names = [value] }
                for name in names {
                    guard let text = name.string else { wrong("a type name or a list of them"); break }
                    if !typeNames.contains(text) {
                        let guess = EditDistance.closest(to: text, in: typeNames.sorted())
                        add("unknown type \"\(text)\"" + (guess.map { " (did you mean \"\($0)\"?)" } ?? "") + "; types: \(typeNames.sorted().joined(separator: ", "))", .unknownType)
                    }
                }
            case "type":
                wrong("a type name or a non-empty list of them")
            case "uniqueItems", "nullable", "readOnly", "writeOnly", "deprecated":
                guard case .bool = value else { wrong("true or false"); continue }
            case _ where (key == "exclusiveMinimum" || key == "exclusiveMaximum") && (draft == 3 || draft == 4):
                // Draft-04's form: a flag beside minimum/maximum (draft-06 made it the bound itself).
                guard case .bool = value else { wrong("true or false in draft-04 (a number from draft-06 on)"); continue }
            case "exclusiveMinimum", "exclusiveMaximum":
                switch value {
                case .number, .bool: continue
                default: wrong("a number (or, as OpenAPI 3.0 writes it, true or false)")
                }
            case "dependentRequired":
                guard case .object(let map) = value else { wrong("an object of lists of property names"); continue }
                for entry in map {
                    guard case .array(let names) = entry.value, names.allSatisfy({ $0.string != nil }) else {
                        add("'dependentRequired' \(JSONValue.quoted(entry.key)) takes a list of property names, not \(entry.value.compactText)")
                        continue
                    }
                }
            case "dependencies":
                guard case .object(let map) = value else { wrong("an object of lists of property names or of schemas"); continue }
                for entry in map {
                    if case .array(let names) = entry.value {
                        if !names.allSatisfy({ $0.string != nil }) {
                            add("'dependencies' \(JSONValue.quoted(entry.key)) takes a list of property names, not \(entry.value.compactText)")
                        }
                    } else {
                        collectShapeProblems(entry.value, at: path + "/" + JSONPointer.escape(entry.key), depth: depth + 1, into: &problems, limit: limit, draft: draft)
                    }
                }
            case "required":
                guard case .array(let names) = value, names.allSatisfy({ $0.string != nil }) else { wrong("a list of property names"); continue }
            case "enum":
                guard case .array = value else { wrong("a list of values"); continue }
            case "pattern":
                guard let text = value.string else { wrong("a string"); continue }
                if let problem = patternProblem(text) { add("'pattern' \(JSONValue.quoted(text)) " + problem) }
            case "patternProperties":
                guard case .object(let map) = value else { wrong("an object of schemas"); continue }
                for entry in map {
                    if let problem = patternProblem(entry.key) { add("'patternProperties' \(JSONValue.quoted(entry.key)) " + problem) }
                    collectShapeProblems(entry.value, at: path + "/" + JSONPointer.escape(entry.key), depth: depth + 1, into: &problems, limit: limit, draft: draft)
                }
            case "format", "$ref", "$dynamicRef", "$recursiveRef", "$anchor", "$dynamicAnchor":
                guard value.string != nil else { wrong("a string"); continue }
            case "items":
                if case .array(let list) = value {
                    for (index, item) in list.enumerated() { collectShapeProblems(item, at: path + "/\(index)", depth: depth + 1, into: &problems, limit: limit, draft: draft) }
                } else {
                    collectShapeProblems(value, at: path, depth: depth + 1, into: &problems, limit: limit, draft: draft)
                }
            case _ where subschemaKeywords.contains(key):
                if case .string = value { wrong("a schema, an object or true/false"); continue }
                collectShapeProblems(value, at: path, depth: depth + 1, into: &problems, limit: limit, draft: draft)
            case _ where schemaListKeywords.contains(key):
                guard case .array(let list) = value, !list.isEmpty else { wrong("a list of schemas"); continue }
                for (index, item) in list.enumerated() { collectShapeProblems(item, at: path + "/\(index)", depth: depth + 1, into: &problems, limit: limit, draft: draft) }
            case _ where schemaMapKeywords.contains(key):
                guard case .object(let map) = value else { wrong("an object of schemas"); continue }
                for entry in map { collectShapeProblems(entry.value, at: path + "/" + JSONPointer.escape(entry.key), depth: depth + 1, into: &problems, limit: limit, draft: draft) }
            case _ where countKeywords.contains(key):
                guard case .number(let literal) = value, isInteger(literal), !literal.hasPrefix("-") else { wrong("a whole number, 0 or more"); continue }
            case "multipleOf":
                guard case .number(let literal) = value else { wrong("a number above 0"); continue }
                // JSON Schema: "MUST be strictly greater than 0"; 0 or -2 failed every value, blaming its digits.
                if let number = ExactNumber(literal), let zero = ExactNumber("0"), !(zero < number) { add("'multipleOf' takes a number above 0, not \(literal)") }
            case _ where numberKeywords.contains(key):
                guard case .number = value else { wrong("a number"); continue }
            case _ where otherKeywords.contains(key) || key.hasPrefix("x-"):
                continue
            default:
                if let guess = EditDistance.closest(to: key, in: knownKeywords.sorted()) {
                    add("unknown keyword '\(key)' (did you mean '\(guess)'?), which no check would read", .nearMissKeyword)
                }
            }
        }
    }
}
