import Foundation
import Targets

/// Checks a JSON value against a JSON Schema as OpenAPI 3.0 and 3.1 and draft 2020-12 write
/// them: `type`, `enum`, `const`, the bounds (`minimum`, `maximum`, their exclusive forms as 3.0
/// and 3.1 write them, `multipleOf`, `minLength`, `maxLength`, `minItems`, `maxItems`,
/// `minProperties`, `maxProperties`), `pattern` (by ``LinearRegex``), `required`,
/// `dependentRequired`, `uniqueItems`, `properties`, `patternProperties`, `additionalProperties`,
/// `unevaluatedProperties`, `propertyNames`, `dependentSchemas`, drafts 4 to 7's `dependencies`
/// (in a schema file of those drafts or of none named), `items` (a schema, or a list with
/// `additionalItems` as older drafts write it), `prefixItems`, `unevaluatedItems`, `contains`
/// (with `minContains`, `maxContains`), `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`,
/// `$ref` (local, `#/...` or an `$anchor`'s `#name`; its siblings ignored in OpenAPI 3.0 and drafts 3 to 7), `$dynamicRef` and `$recursiveRef` (in a document of one schema
/// resource), `nullable` (OpenAPI 3.0's: it adds null to an explicit `type` only), `readOnly`/`writeOnly` by direction, and the formats of
/// ``SchemaFormats``. A check cannot pass by accident: a `$ref` that names nothing here (or
/// another file), a `$dynamicRef` wsh cannot follow and a pattern the engine refuses are violations, not skipped. Work is bounded:
/// schemas nest at most ``maxDepth`` levels (a `$ref` cycle that never reaches the value's end
/// stops there) and at most ``maxSteps`` checks are made.
public struct JSONSchemaValidator: Sendable {
    /// The document `$ref`s point into.
    public let root: JSONValue
    /// How deep schema checks may nest (each `$ref`, combinator and property is a level).
    public var maxDepth = 256
    /// How many (value, schema) checks one call may make: `anyOf` inside a `$ref` cycle could
    /// otherwise double the work at each level.
    public var maxSteps = 20_000_000
    /// Which way the value goes, for `readOnly` and `writeOnly`: a required `readOnly` property
    /// (an id the server assigns) may be absent from a request, a required `writeOnly` one (a
    /// password) from an answer, as OpenAPI says.
    public var direction: Direction = .either

    /// Which way a value goes.
    public enum Direction: Sendable {
        case either, request, response
    }

    /// One step of the place being checked; the pointer is written only for a violation (a 1 MB
    /// answer has some 50,000 values, and writing each one's pointer was a third of the check).
    enum Token {
        case key(String)
        case index(Int)
    }

    /// What one call to ``violations(of:against:at:)`` has found and spent.
    struct Progress {
        var found: [SchemaViolation] = []
        var steps = 0
        var stopped = false
        var path: [Token] = []
        /// Each `$ref` followed so far and what it named (nil: nothing).
        var refs: [String: JSONValue?] = [:]
        /// The document's anchors, read at its first `$dynamicRef` or `$recursiveRef`.
        var anchors: Anchors?
        /// Each pattern compiled so far (nil: refused by the engine, so not checked).
        var regexes: [String: LinearRegex?] = [:]

        mutating func regex(_ pattern: String) -> LinearRegex? {
            if let known = regexes[pattern] { return known }
            let compiled = try? LinearRegex(pattern)
            regexes[pattern] = .some(compiled)
            return compiled
        }

        var pointer: String {
            path.map { token in
                switch token {
                case .key(let key): "/" + JSONPointer.escape(key)
                case .index(let index): "/\(index)"
                }
            }.joined()
        }

        mutating func add(expected: String, actual: String) {
            found.append(SchemaViolation(pointer: pointer, expected: expected, actual: actual))
        }

        /// What could not be checked (a `$ref` to nothing, a pattern the engine refuses): a
        /// violation that stays one inside `not`, `if` or `anyOf`, whose own violations are set aside.
        var cannotCheck: [SchemaViolation] = []

        mutating func addUncheckable(expected: String, actual: String) {
            add(expected: expected, actual: actual)
            if let last = found.last, !cannotCheck.contains(where: { $0.description == last.description }) { cannotCheck.append(last) }
        }

        /// One more step of work; false once the budget is spent.
        mutating func step(_ budget: Int) -> Bool {
            steps += 1
            if steps > budget { stopped = true }
            return !stopped
        }
    }

    /// The keywords of one schema object, read in one pass over its members.
    struct Keywords {
        var ref: String?
        var dynamicRef: String?
        var recursiveRef: String?
        var nullable = false
        var type: JSONValue?
        var enumValues: [JSONValue]?
        var constant: JSONValue?
        var format: String?
        var required: [JSONValue]?
        var properties: [JSONMember]?
        var items: JSONValue?
        var allOf: [JSONValue]?
        var anyOf: [JSONValue]?
        var oneOf: [JSONValue]?
        var additionalProperties: JSONValue?
        var patternProperties: [JSONMember]?
        var bounds: [(key: String, value: JSONValue)] = []
        var pattern: String?
        var not: JSONValue?
        var ifSchema: JSONValue?
        var thenSchema: JSONValue?
        var elseSchema: JSONValue?
        var contains: JSONValue?
        var prefixItems: [JSONValue]?
        var additionalItems: JSONValue?
        var dependentRequired: [JSONMember]?
        var dependentSchemas: [JSONMember]?
        /// OpenAPI's `discriminator` (`propertyName`, `mapping`), read beside `oneOf` or `anyOf`.
        var discriminator: JSONValue?
        /// Drafts 4 to 7's `dependencies`: names a present property requires, or a schema.
        var dependencies: [JSONMember]?
        var propertyNames: JSONValue?
        var uniqueItems = false
        var multipleOf: String?
        var unevaluatedProperties: JSONValue?
        var unevaluatedItems: JSONValue?

        /// Whether any keyword that reads the parts of an object or a list is there.
        var readsParts: Bool {
            properties != nil || additionalProperties != nil || patternProperties != nil || dependentRequired != nil
                || dependentSchemas != nil || propertyNames != nil || unevaluatedProperties != nil || dependencies != nil
        }

        init(_ members: [JSONMember]) {
            for member in members {
                switch (member.key, member.value) {
                case ("$ref", .string(let text)): ref = text
                case ("$dynamicRef", .string(let text)): dynamicRef = text
                case ("$recursiveRef", .string(let text)): recursiveRef = text
                case ("nullable", .bool(let flag)): nullable = flag
                case ("type", _): type = member.value
                case ("enum", .array(let list)): enumValues = list
                case ("const", _): constant = member.value
                case ("format", .string(let text)): format = text
                case ("required", .array(let list)): required = list
                case ("properties", .object(let list)): properties = list
                case ("items", _): items = member.value
                case ("allOf", .array(let list)): allOf = list
                case ("anyOf", .array(let list)): anyOf = list
                case ("oneOf", .array(let list)): oneOf = list
                case ("additionalProperties", _): additionalProperties = member.value
                case ("patternProperties", .object(let list)): patternProperties = list
                case ("pattern", .string(let text)): pattern = text
                case ("minimum", _), ("maximum", _), ("exclusiveMinimum", _), ("exclusiveMaximum", _),
                     ("minLength", .number), ("maxLength", .number), ("minItems", .number), ("maxItems", .number),
                     ("minProperties", .number), ("maxProperties", .number), ("minContains", .number), ("maxContains", .number):
                    bounds.append((member.key, member.value))
                case ("not", _): not = member.value
                case ("if", _): ifSchema = member.value
                case ("then", _): thenSchema = member.value
                case ("else", _): elseSchema = member.value
                case ("contains", _): contains = member.value
                case ("prefixItems", .array(let list)): prefixItems = list
                case ("additionalItems", _): additionalItems = member.value
                case ("dependentRequired", .object(let list)): dependentRequired = list
                case ("dependentSchemas", .object(let list)): dependentSchemas = list
                case ("dependencies", .object(let list)): dependencies = list
                case ("discriminator", .object): discriminator = member.value
                case ("propertyNames", _): propertyNames = member.value
                case ("uniqueItems", .bool(let flag)): uniqueItems = flag
                case ("multipleOf", .number(let text)): multipleOf = text
                case ("unevaluatedProperties", _): unevaluatedProperties = member.value
                case ("unevaluatedItems", _): unevaluatedItems = member.value
                default: break
                }
            }
        }
    }

    /// Whether `nullable` is read: OpenAPI 3.0's keyword, which 3.1 dropped (there `type: [T, "null"]`).
    let readsNullable: Bool
    /// Whether `dependencies` is read: drafts 4 to 7's keyword, which 2019-09 split in two
    /// (`dependentRequired`, `dependentSchemas`).
    let readsDependencies: Bool
    /// Whether a `$ref`'s sibling keywords are ignored: OpenAPI 3.0 ("any properties added SHALL
    /// be ignored") and drafts 3 to 7 ("All other properties in a "$ref" object MUST be
    /// ignored"); 2019-09, 2020-12 and OpenAPI 3.1 apply them.
    let ignoresRefSiblings: Bool
    /// The draft a schema file names by `$schema` (3, 4, 6, 7), 0 for a later one, none or an
    /// OpenAPI document: draft-06's `const`, `contains`, `propertyNames` and draft-07's
    /// `if`/`then`/`else` are not read in a file of an earlier draft, as they are not keywords there.
    let olderDraft: Int
    /// Whether `root` is an OpenAPI document, whose own formats (`int32`, `int64`, `byte`) are checked.
    let isOpenAPI: Bool

    /// A validator whose `$ref`s resolve in `root` (an OpenAPI document, or any JSON for schemas
    /// without refs), for values going `direction` (an OpenAPI answer: `.response`).
    /// `nullable` is read unless `root` is an OpenAPI document of 3.1 or later.
    public init(root: JSONValue, direction: Direction = .either) {
        self.root = root
        self.direction = direction
        let version = root["openapi"]?.string ?? ""
        readsNullable = version.isEmpty || version.hasPrefix("3.0")
        // A schema file of those drafts, or of none named; not an OpenAPI document, whose schemas have no `dependencies`.
        let draft = root["$schema"]?.string ?? ""
        olderDraft = version.isEmpty ? Self.draftNumber(draft) : 0
        isOpenAPI = !version.isEmpty
        readsDependencies = version.isEmpty && (draft.isEmpty || olderDraft > 0)
        ignoresRefSiblings = version.hasPrefix("3.0") || olderDraft > 0
    }

    /// 3, 4, 6 or 7 for a `$schema` naming draft-03 to draft-07 (`http://json-schema.org/draft-04/schema#`), else 0.
    static func draftNumber(_ schemaURI: String) -> Int {
        [3, 4, 6, 7].first { schemaURI.contains("draft-0\($0)") } ?? 0
    }

    /// Every way `value` differs from `schema`, in document order; empty when it conforms.
    /// `pointer` is where the schema is in ``root`` (unused: refs are absolute, `#/...`).
    public func violations(of value: JSONValue, against schema: JSONValue, at pointer: String = "") -> [SchemaViolation] {
        var progress = Progress()
        check(value, schema, depth: 0, into: &progress)
        for violation in progress.cannotCheck where !progress.found.contains(where: { $0.description == violation.description }) {
            progress.found.append(violation)
        }
        if progress.stopped {
            progress.found.append(SchemaViolation(pointer: "", expected: "a check of at most \(maxSteps) steps", actual: "more: the check stopped there"))
        }
        return progress.found
    }

    /// The JSON type name of a value: `null`, `boolean`, `integer`, `number`, `string`, `array`, `object`.
    public static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number(let literal): isInteger(literal) ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// `3`, `3.0` and `1e3` are integers; `3.5` is not.
    static func isInteger(_ literal: String) -> Bool {
        if !literal.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) { return true }
        return ExactNumber(literal)?.isInteger == true
    }

    /// A count keyword's value (`maxLength`, `minItems`...) as a number of things: `3`, and as
    /// JSON Schema reads them `3.0` and `3e0` too; a count past 64 bits is `Int.max`, which no
    /// value reaches. Nil for a negative or fractional value (a shape problem, reported before).
    static func count(_ literal: String) -> Int? {
        if let plain = Int(literal) { return plain >= 0 ? plain : nil }
        guard !literal.hasPrefix("-"), isInteger(literal), let number = Double(literal), number.isFinite || number > 0 else { return nil }
        return number >= 9.0e18 ? Int.max : Int(number)
    }

    func check(_ value: JSONValue, _ schema: JSONValue, depth: Int, into progress: inout Progress) {
        progress.steps += 1
        if progress.steps > maxSteps { progress.stopped = true }
        guard !progress.stopped, depth < maxDepth, case .object(let members) = schema else {
            // `false` as a schema accepts nothing (3.1); `true` or anything else: no check. Too
            // deep is no pass: what is below the bound was not checked.
            if schema == .bool(false) { progress.add(expected: "nothing (the schema is false)", actual: SchemaViolation.show(value)) }
            if !progress.stopped, depth >= maxDepth, case .object = schema {
                progress.addUncheckable(expected: "a check at most \(maxDepth) schemas deep", actual: "deeper: not checked below here")
            }
            return
        }
        var keywords = Keywords(members)
        if !readsDependencies { keywords.dependencies = nil }
        if olderDraft > 0, olderDraft < 7 {
            (keywords.ifSchema, keywords.thenSchema, keywords.elseSchema) = (nil, nil, nil)
            if olderDraft < 6 { (keywords.constant, keywords.contains, keywords.propertyNames) = (nil, nil, nil) }
        }
        if let ref = keywords.ref {
            if let target = resolve(ref, &progress) {
                check(value, target, depth: depth + 1, into: &progress)
            } else {
                progress.addUncheckable(expected: "the schema $ref \(JSONValue.quoted(ref)) names",
                                        actual: Self.refProblem(ref, in: root, anchors: &progress.anchors))
            }
            if ignoresRefSiblings { return }
        }
        if keywords.dynamicRef != nil || keywords.recursiveRef != nil { checkDynamicRefs(value, keywords, depth: depth, into: &progress) }
        if let types = Self.types(keywords, nullable: readsNullable), !types.isEmpty, !types.contains(where: { Self.matches(value, type: $0) }) {
            progress.add(expected: types.joined(separator: " or "), actual: SchemaViolation.show(value))
            return
        }
        if let allowed = keywords.enumValues, !allowed.contains(where: { Self.equal($0, value) }) {
            let list = allowed.prefix(10).map(\.compactText).joined(separator: ", ") + (allowed.count > 10 ? ", …" : "")
            progress.add(expected: "one of \(list)", actual: SchemaViolation.show(value))
        }
        if let constant = keywords.constant, !Self.equal(constant, value) {
            progress.add(expected: constant.compactText, actual: SchemaViolation.show(value))
        }
        if let format = keywords.format, case .string(let text) = value, let valid = SchemaFormats.check(format, text), !valid {
            progress.add(expected: "\(["email", "ipv4", "ipv6"].contains(format) ? "an" : "a") \(format) string", actual: SchemaViolation.show(value))
        }
        if isOpenAPI, let format = keywords.format, SchemaFormats.checkOpenAPI(format, value) == false {
            progress.add(expected: format == "byte" ? "a byte string (base64)" : "an \(format) number (\(SchemaFormats.range(format)))",
                         actual: SchemaViolation.show(value))
        }
        if !keywords.bounds.isEmpty || keywords.pattern != nil || keywords.multipleOf != nil { checkBounds(value, keywords, into: &progress) }
        switch value {
        case .object(let valueMembers):
            checkObject(valueMembers, keywords, depth: depth, into: &progress)
            if keywords.readsParts { checkObjectParts(value, valueMembers, keywords, depth: depth, into: &progress) }
        case .array(let elements):
            checkArray(value, elements, keywords, depth: depth, into: &progress)
        default:
            break
        }
        checkCombinators(value, keywords, depth: depth, into: &progress)
        checkConditionals(value, keywords, depth: depth, into: &progress)
    }

    func checkObject(_ members: [JSONMember], _ keywords: Keywords, depth: Int, into progress: inout Progress) {
        let properties = keywords.properties ?? []
        if let required = keywords.required {
            for case .string(let name) in required where !members.contains(where: { ScalarText.equal($0.key, name) }) {
                if direction != .either, let schema = properties.last(where: { ScalarText.equal($0.key, name) })?.value,
                   isOneWay(schema, progress: &progress) { continue }
                progress.add(expected: "a property \(JSONValue.quoted(name))", actual: "none")
            }
        }
        if keywords.properties == nil, keywords.additionalProperties == nil, keywords.patternProperties == nil { return }
        for member in members {
            if let declared = properties.last(where: { ScalarText.equal($0.key, member.key) })?.value {
                check(member.value, at: .key(member.key), against: declared, depth: depth, into: &progress)
                continue
            }
            // A name a pattern of patternProperties matches is checked against that pattern's
            // schema, not additionalProperties; a pattern the engine refuses matches every name.
            var matchedPattern = false
            for pattern in keywords.patternProperties ?? [] {
                guard let regex = progress.regex(pattern.key) else {
                    progress.addUncheckable(expected: "property names checked against patternProperties \(JSONValue.quoted(pattern.key))",
                                            actual: Self.refused(pattern.key))
                    matchedPattern = true
                    continue
                }
                guard (try? regex.matches(member.key)) ?? true else { continue }
                matchedPattern = true
                check(member.value, at: .key(member.key), against: pattern.value, depth: depth, into: &progress)
            }
            guard !matchedPattern, let propertySchema = keywords.additionalProperties else { continue }
            checkLeftover(member.value, at: .key(member.key), against: propertySchema, keyword: "additionalProperties", depth: depth, into: &progress)
        }
    }

    /// `value`, a member's or an item's, against `schema`, its place on the path for violations.
    func check(_ value: JSONValue, at token: Token, against schema: JSONValue, depth: Int, into progress: inout Progress) {
        progress.path.append(token)
        check(value, schema, depth: depth + 1, into: &progress)
        progress.path.removeLast()
    }

    /// A member or item no other keyword took, against the schema of `keyword`
    /// (`additionalProperties`, `unevaluatedProperties`, `unevaluatedItems`): `false` refuses it,
    /// by name for a member.
    func checkLeftover(_ value: JSONValue, at token: Token, against schema: JSONValue, keyword: String, depth: Int, into progress: inout Progress) {
        guard schema == .bool(false) else { return check(value, at: token, against: schema, depth: depth, into: &progress) }
        switch token {
        case .key(let name):
            progress.add(expected: "no property \(JSONValue.quoted(name)) (\(keyword) is false)", actual: "one")
        case .index:
            progress.path.append(token)
            progress.add(expected: "no item here (\(keyword) is false)", actual: SchemaViolation.show(value))
            progress.path.removeLast()
        }
    }

    /// Why `pattern` was not checked: what wsh's regular expressions say of it (lookaround, an
    /// escape they do not have, or no pattern at all).
    static func refused(_ pattern: String) -> String {
        do {
            _ = try LinearRegex(pattern)
            return "not checked"
        } catch {
            return "not checked: wsh's regular expressions cannot run this pattern: \(error.description)"
        }
    }

    /// `1 item`, `2 items`.
    static func counted(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) " + (noun.hasSuffix("y") ? noun.dropLast() + "ies" : noun + "s")
    }

    /// Whether a property's schema marks it for the other way: `readOnly` in a request,
    /// `writeOnly` in an answer.
    private func isOneWay(_ schema: JSONValue, progress: inout Progress) -> Bool {
        var current = schema
        for _ in 0..<8 {
            guard case .string(let ref)? = current["$ref"], let target = resolve(ref, &progress) else { break }
            current = target
        }
        switch direction {
        case .request: return current["readOnly"] == .bool(true)
        case .response: return current["writeOnly"] == .bool(true)
        case .either: return false
        }
    }

    /// The numeric, length and count bounds, and `pattern`.
    private func checkBounds(_ value: JSONValue, _ keywords: Keywords, into progress: inout Progress) {
        var exclusiveMinimum = false, exclusiveMaximum = false
        for bound in keywords.bounds {
            if bound.key == "exclusiveMinimum", bound.value == .bool(true) { exclusiveMinimum = true }
            if bound.key == "exclusiveMaximum", bound.value == .bool(true) { exclusiveMaximum = true }
        }
        for bound in keywords.bounds {
            guard case .number(let limitText) = bound.value, let limit = ExactNumber(limitText) else { continue }
            switch (bound.key, value) {
            case ("minimum", .number(let text)), ("exclusiveMinimum", .number(let text)):
                guard let number = ExactNumber(text) else { continue }
                let exclusive = bound.key == "exclusiveMinimum" || exclusiveMinimum
                if exclusive ? !(limit < number) : number < limit {
                    progress.add(expected: "a number \(exclusive ? ">" : ">=") \(limitText)", actual: text)
                }
            case ("maximum", .number(let text)), ("exclusiveMaximum", .number(let text)):
                guard let number = ExactNumber(text) else { continue }
                let exclusive = bound.key == "exclusiveMaximum" || exclusiveMaximum
                if exclusive ? !(number < limit) : limit < number {
                    progress.add(expected: "a number \(exclusive ? "<" : "<=") \(limitText)", actual: text)
                }
            case ("minLength", .string(let text)), ("maxLength", .string(let text)):
                guard let count = Self.count(limitText) else { continue }
                let length = text.unicodeScalars.count
                let isMinimum = bound.key == "minLength"
                if isMinimum ? length < count : length > count {
                    progress.add(expected: "a string of \(isMinimum ? "at least" : "at most") \(Self.counted(count, "character"))", actual: Self.counted(length, "character"))
                }
            case ("minProperties", .object(let members)), ("maxProperties", .object(let members)):
                guard let count = Self.count(limitText) else { continue }
                let isMinimum = bound.key == "minProperties"
                if isMinimum ? members.count < count : members.count > count {
                    progress.add(expected: "an object of \(isMinimum ? "at least" : "at most") \(Self.counted(count, "property"))",
                                 actual: Self.counted(members.count, "property"))
                }
            case ("minItems", .array(let elements)), ("maxItems", .array(let elements)):
                guard let count = Self.count(limitText) else { continue }
                let isMinimum = bound.key == "minItems"
                if isMinimum ? elements.count < count : elements.count > count {
                    progress.add(expected: "an array of \(isMinimum ? "at least" : "at most") \(Self.counted(count, "item"))", actual: Self.counted(elements.count, "item"))
                }
            default:
                break
            }
        }
        if let pattern = keywords.pattern, case .string(let text) = value {
            if let regex = progress.regex(pattern) {
                if let matches = try? regex.matches(text), !matches {
                    progress.add(expected: "a string matching \(JSONValue.quoted(pattern))", actual: SchemaViolation.show(value))
                }
            } else {
                progress.addUncheckable(expected: "a string matching \(JSONValue.quoted(pattern))", actual: Self.refused(pattern))
            }
        }
        if let divisor = keywords.multipleOf, case .number(let text) = value {
            switch Self.isMultiple(text, of: divisor) {
            case false?: progress.add(expected: "a multiple of \(divisor)", actual: text)
            case nil: progress.addUncheckable(expected: "a multiple of \(divisor)", actual: "\(text), which is past the 38 digits wsh checks this for")
            case true?: break
            }
        }
    }

    private func checkCombinators(_ value: JSONValue, _ keywords: Keywords, depth: Int, into progress: inout Progress) {
        if let parts = keywords.allOf {
            for part in parts { check(value, part, depth: depth + 1, into: &progress) }
        }
        if keywords.oneOf != nil || keywords.anyOf != nil, let discriminator = keywords.discriminator, root["openapi"] != nil,
           case .string(let property)? = discriminator["propertyName"], case .object(let members) = value,
           case .string(let name)? = members.last(where: { ScalarText.equal($0.key, property) })?.value {
            return checkDiscriminated(value, property: property, name: name, discriminator: discriminator, depth: depth, into: &progress)
        }
        if let parts = keywords.anyOf, !parts.isEmpty {
            var matched = false
            for part in parts where conforms(value, part, depth: depth + 1, progress: &progress) {
                matched = true
                break
            }
            if !matched {
                progress.add(expected: "a value matching any of \(parts.count) schemas (anyOf)", actual: SchemaViolation.show(value) + ", which matches none")
            }
        }
        if let parts = keywords.oneOf, !parts.isEmpty {
            var matching = 0
            for part in parts where conforms(value, part, depth: depth + 1, progress: &progress) { matching += 1 }
            if matching != 1 {
                progress.add(expected: "a value matching exactly one of \(parts.count) schemas (oneOf)",
                             actual: SchemaViolation.show(value) + ", which matches \(matching == 0 ? "none" : "\(matching)")")
            }
        }
    }

    /// OpenAPI's `discriminator`: the answer's `property` names the schema it is (by `mapping`,
    /// else as a schema of `components/schemas`), and it is checked against that one, in place
    /// of `oneOf`/`anyOf` (where a dog with a cat's fields matched the cat, and a right answer
    /// matching two parts failed). A name that names no schema is a violation.
    private func checkDiscriminated(_ value: JSONValue, property: String, name: String, discriminator: JSONValue,
                                    depth: Int, into progress: inout Progress) {
        var ref = "#/components/schemas/" + JSONPointer.escape(name)
        if case .string(let mapped)? = discriminator["mapping"]?[name] {
            ref = mapped.hasPrefix("#") ? mapped : "#/components/schemas/" + JSONPointer.escape(mapped)
        }
        guard let target = resolve(ref, &progress) else {
            var mapped = ""
            if case .object(let mapping)? = discriminator["mapping"] { mapped = mapping.map(\.key).joined(separator: ", ") }
            progress.path.append(.key(property))
            progress.add(expected: "a \(JSONValue.quoted(property)) naming a schema (discriminator" + (mapped.isEmpty ? "" : ": \(mapped)") + ")",
                         actual: SchemaViolation.show(.string(name)) + ", which names none")
            progress.path.removeLast()
            return
        }
        check(value, target, depth: depth + 1, into: &progress)
    }

    /// Whether `value` conforms, its violations kept apart (they are not the answer's: another part may match).
    func conforms(_ value: JSONValue, _ schema: JSONValue, depth: Int, progress: inout Progress) -> Bool {
        let found = progress.found
        progress.found = []
        check(value, schema, depth: depth, into: &progress)
        let conforms = progress.found.isEmpty
        progress.found = found
        return conforms
    }

    /// What a ref names, followed once per check (``target(of:in:anchors:)``).
    func resolve(_ ref: String, _ progress: inout Progress) -> JSONValue? {
        if let known = progress.refs[ref] { return known }
        let target = Self.target(of: ref, in: root, anchors: &progress.anchors)
        progress.refs[ref] = .some(target)
        return target
    }

    /// What a ref within the document names: a JSON pointer (`#/...`, `#`), or an `$anchor`
    /// (`#name`) that one schema of the document carries, in a document of one schema resource
    /// (no `$id` below its root, which would scope its anchors); nil for anything else.
    /// `anchors` is read from `root` at the first `#name`.
    public static func target(of ref: String, in root: JSONValue) -> JSONValue? {
        var anchors: Anchors?
        return target(of: ref, in: root, anchors: &anchors)
    }

    static func target(of ref: String, in root: JSONValue, anchors: inout Anchors?) -> JSONValue? {
        if ref == "#" || ref.hasPrefix("#/") { return JSONPointer.resolve(fragment: String(ref.dropFirst()), in: root) }
        guard ref.hasPrefix("#") else { return nil }
        if anchors == nil { anchors = Self.anchors(in: root) }
        guard let known = anchors, !known.embedsResources, let found = known.named[String(ref.dropFirst())], found.count == 1 else { return nil }
        return found[0]
    }

    /// Why `ref` names no schema in `root` (``target(of:in:anchors:)`` is nil), as a violation's actual text.
    static func refProblem(_ ref: String, in root: JSONValue, anchors: inout Anchors?) -> String {
        if ref == "#" || ref.hasPrefix("#/") { return "nothing: no such place in the document" }
        if anchors == nil { anchors = Self.anchors(in: root) }
        let known = anchors ?? Anchors()
        if ref.hasPrefix("#") {
            let name = String(ref.dropFirst())
            if known.embedsResources { return "not followed: " + moreResources }
            if (known.named[name]?.count ?? 0) > 1 { return "not followed: more than one schema is anchored \(JSONValue.quoted(name))" }
            return "nothing: no $anchor \(JSONValue.quoted(name)) in the document"
        }
        if known.ids.contains(ref) {
            return "not followed: it is the $id of a schema in the document, and wsh follows a ref by pointer (#/...) or $anchor (#name)"
        }
        // Under `use openapi` refs to other files were read at the import; one still here could not be, and was warned of.
        return root["openapi"] != nil ? "not followed: the import could not read it (see its warning)"
            : "not followed: only refs within the document (#/... or #name) are"
    }

    /// `type` as a list of names; a name that is not a JSON type is left out (the importer warned).
    private static func types(_ keywords: Keywords, nullable readsNullable: Bool) -> [String]? {
        var names: [String]
        switch keywords.type {
        case .string(let name)?: names = [name]
        case .array(let list)?: names = list.compactMap(\.string)
        default: return nil
        }
        names = names.filter { ["null", "boolean", "object", "array", "number", "string", "integer"].contains($0) }
        // OpenAPI 3.0: `nullable` adds null to the types `type` names, if it names any; the
        // other keywords (an `enum`, an `allOf` part) still apply to null.
        if readsNullable, keywords.nullable, !names.isEmpty { names.append("null") }
        return names
    }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): true
        case ("integer", .number(let literal)): isInteger(literal)
        default: false
        }
    }

    /// JSON equality, as `expect` has it (``TypedValues/equal(_:_:)``): numbers by value (`1.0` is
    /// `1`), strings by Unicode scalars, objects whatever their members' order.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.array, .string), (.object, .string): false
        default: TypedValues.equal(left, right)
        }
    }
}
