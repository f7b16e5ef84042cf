import Foundation
import Targets

/// The keywords that apply parts of a schema to parts of a value, or to the whole value under a
/// condition: lists (`prefixItems`, `items`, `contains`, `uniqueItems`, `unevaluatedItems`),
/// objects (`dependentRequired`, `dependentSchemas`, `propertyNames`, `unevaluatedProperties`),
/// and `not`, `if`/`then`/`else`.
extension JSONSchemaValidator {
    func checkArray(_ value: JSONValue, _ elements: [JSONValue], _ keywords: Keywords, depth: Int, into progress: inout Progress) {
        let prefix = keywords.prefixItems ?? { if case .array(let list)? = keywords.items { list } else { nil } }()
        // After the prefix: `items` (2020-12), or `additionalItems` after a list of `items` (older drafts).
        let rest: JSONValue? = keywords.prefixItems != nil ? keywords.items
            : prefix != nil ? keywords.additionalItems : keywords.items
        for (index, element) in elements.enumerated() {
            guard let schema = prefix.flatMap({ index < $0.count ? $0[index] : nil }) ?? rest else { continue }
            check(element, at: .index(index), against: schema, depth: depth, into: &progress)
        }
        if let contains = keywords.contains {
            let matching = elements.indices.filter { conforms(elements[$0], contains, depth: depth + 1, progress: &progress) }.count
            let minimum = Self.bound("minContains", keywords) ?? 1
            let maximum = Self.bound("maxContains", keywords)
            if matching < minimum || maximum.map({ matching > $0 }) == true {
                let wanted = maximum.map { "\(minimum) to \($0)" } ?? "at least \(minimum)"
                progress.add(expected: "an array with \(wanted) \(minimum == 1 && maximum == nil ? "item" : "items") matching its contains schema",
                             actual: "\(matching) matching")
            }
        }
        if keywords.uniqueItems {
            // By a canonical text of each item, in one pass: comparing every pair of 20,000 items took minutes.
            var seen: [String: Int] = [:]
            for (index, element) in elements.enumerated() {
                guard progress.step(maxSteps) else { break }
                let key = Self.canonicalText(element)
                if let earlier = seen[key] {
                    progress.add(expected: "items that are all different (uniqueItems)", actual: "items \(earlier) and \(index) are equal")
                    break
                }
                seen[key] = index
            }
        }
        if let unevaluated = keywords.unevaluatedItems {
            let evaluated = evaluatedItems(value, elements.count, keywords, depth: depth, progress: &progress)
            for index in elements.indices where !evaluated.contains(index) {
                checkLeftover(elements[index], at: .index(index), against: unevaluated, keyword: "unevaluatedItems", depth: depth, into: &progress)
            }
        }
    }

    func checkObjectParts(_ value: JSONValue, _ members: [JSONMember], _ keywords: Keywords, depth: Int, into progress: inout Progress) {
        let names = Set(members.map { ScalarText.Key($0.key) })
        for dependency in keywords.dependentRequired ?? [] where names.contains(ScalarText.Key(dependency.key)) {
            guard case .array(let required) = dependency.value else { continue }
            for case .string(let name) in required where !names.contains(ScalarText.Key(name)) {
                progress.add(expected: "a property \(JSONValue.quoted(name)), since \(JSONValue.quoted(dependency.key)) is there", actual: "none")
            }
        }
        for dependency in keywords.dependentSchemas ?? [] where names.contains(ScalarText.Key(dependency.key)) {
            check(value, dependency.value, depth: depth + 1, into: &progress)
        }
        for dependency in keywords.dependencies ?? [] where names.contains(ScalarText.Key(dependency.key)) {
            guard case .array(let required) = dependency.value else {
                check(value, dependency.value, depth: depth + 1, into: &progress)
                continue
            }
            for case .string(let name) in required where !names.contains(ScalarText.Key(name)) {
                progress.add(expected: "a property \(JSONValue.quoted(name)), since \(JSONValue.quoted(dependency.key)) is there (dependencies)", actual: "none")
            }
        }
        if let propertyNames = keywords.propertyNames {
            for member in members {
                let found = progress.found.count
                check(.string(member.key), propertyNames, depth: depth + 1, into: &progress)
                for index in found..<progress.found.count {
                    progress.found[index].expected = "a property name that is " + progress.found[index].expected
                    progress.found[index].actual = "\(JSONValue.quoted(member.key)): " + progress.found[index].actual
                }
            }
        }
        if let unevaluated = keywords.unevaluatedProperties {
            guard let evaluated = evaluatedProperties(value, members, keywords, depth: depth, progress: &progress) else { return }
            for member in members where !evaluated.contains(ScalarText.Key(member.key)) {
                checkLeftover(member.value, at: .key(member.key), against: unevaluated, keyword: "unevaluatedProperties", depth: depth, into: &progress)
            }
        }
    }

    func checkConditionals(_ value: JSONValue, _ keywords: Keywords, depth: Int, into progress: inout Progress) {
        if let not = keywords.not, conforms(value, not, depth: depth + 1, progress: &progress) {
            progress.add(expected: "a value that does not match its not schema", actual: SchemaViolation.show(value) + ", which matches it")
        }
        if let condition = keywords.ifSchema {
            let branch = conforms(value, condition, depth: depth + 1, progress: &progress) ? keywords.thenSchema : keywords.elseSchema
            if let branch { check(value, branch, depth: depth + 1, into: &progress) }
        }
    }

    /// The names of `value`'s members that a keyword of `keywords` (or of a subschema that applies
    /// to the whole value and holds) evaluated; nil when every name was.
    private func evaluatedProperties(_ value: JSONValue, _ members: [JSONMember], _ keywords: Keywords, depth: Int,
                                     progress: inout Progress) -> Set<ScalarText.Key>? {
        if keywords.additionalProperties != nil || depth >= maxDepth || !progress.step(maxSteps) { return nil }
        var names = Set((keywords.properties ?? []).map { ScalarText.Key($0.key) })
        for pattern in keywords.patternProperties ?? [] {
            guard let regex = progress.regex(pattern.key) else { return nil }
            for member in members where (try? regex.matches(member.key)) ?? true { names.insert(ScalarText.Key(member.key)) }
        }
        for schema in appliedWhole(value, keywords, members: members, depth: depth, progress: &progress) {
            guard case .object(let inner) = schema else { continue }
            let innerKeywords = Keywords(inner)
            if innerKeywords.unevaluatedProperties != nil { return nil }
            guard let more = evaluatedProperties(value, members, innerKeywords, depth: depth + 1, progress: &progress) else { return nil }
            names.formUnion(more)
        }
        return names
    }

    /// The indices of a list of `count` items that a keyword of `keywords` (or of a subschema that
    /// applies to the whole list and holds) evaluated.
    private func evaluatedItems(_ value: JSONValue, _ count: Int, _ keywords: Keywords, depth: Int, progress: inout Progress) -> Set<Int> {
        let all = Set(0..<count)
        if depth >= maxDepth || !progress.step(maxSteps) { return all }
        let prefix = keywords.prefixItems ?? { if case .array(let list)? = keywords.items { list } else { nil } }()
        if keywords.prefixItems != nil ? keywords.items != nil : (prefix == nil ? keywords.items != nil : keywords.additionalItems != nil) {
            return all
        }
        var indices = Set(0..<min(count, prefix?.count ?? 0))
        if let contains = keywords.contains, case .array(let elements) = value {
            for index in elements.indices where conforms(elements[index], contains, depth: depth + 1, progress: &progress) { indices.insert(index) }
        }
        for schema in appliedWhole(value, keywords, members: [], depth: depth, progress: &progress) {
            guard case .object(let inner) = schema else { continue }
            let innerKeywords = Keywords(inner)
            if innerKeywords.unevaluatedItems != nil { return all }
            indices.formUnion(evaluatedItems(value, count, innerKeywords, depth: depth + 1, progress: &progress))
        }
        return indices
    }

    /// The subschemas that apply to the whole value and hold for it: `$ref` (and `$dynamicRef`, `$recursiveRef`), `allOf`, those of
    /// `anyOf` and `oneOf` that match, the branch of `if` taken (with `if` itself when it held),
    /// and `dependentSchemas` whose property is there.
    private func appliedWhole(_ value: JSONValue, _ keywords: Keywords, members: [JSONMember], depth: Int,
                              progress: inout Progress) -> [JSONValue] {
        var applied: [JSONValue] = []
        if let ref = keywords.ref, let target = resolve(ref, &progress) { applied.append(target) }
        applied += dynamicTargets(keywords, &progress)
        applied += keywords.allOf ?? []
        for part in (keywords.anyOf ?? []) + (keywords.oneOf ?? []) where conforms(value, part, depth: depth + 1, progress: &progress) {
            applied.append(part)
        }
        if let condition = keywords.ifSchema {
            if conforms(value, condition, depth: depth + 1, progress: &progress) {
                applied.append(condition)
                if let then = keywords.thenSchema { applied.append(then) }
            } else if let otherwise = keywords.elseSchema {
                applied.append(otherwise)
            }
        }
        let names = Set(members.map { ScalarText.Key($0.key) })
        for dependency in keywords.dependentSchemas ?? [] where names.contains(ScalarText.Key(dependency.key)) { applied.append(dependency.value) }
        return applied
    }

    /// A text that is the same for equal values (``equal(_:_:)``): numbers by value, strings by
    /// Unicode scalars, object members sorted by key.
    static func canonicalText(_ value: JSONValue) -> String {
        switch value {
        case .number(let text): "n" + (ExactNumber(text)?.description ?? text)
        case .string(let text): "s" + text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ",")
        case .bool(let flag): flag ? "t" : "f"
        case .null: "z"
        case .array(let elements): "[" + elements.map(canonicalText).joined(separator: ";") + "]"
        case .object(let members):
            "{" + members.map { canonicalText(.string($0.key)) + ":" + canonicalText($0.value) }.sorted().joined(separator: ";") + "}"
        }
    }

    /// A whole-number bound of `keywords`, such as `minContains`.
    private static func bound(_ name: String, _ keywords: Keywords) -> Int? {
        keywords.bounds.first { $0.key == name }.flatMap { bound in if case .number(let text) = bound.value { count(text) } else { nil } }
    }

    /// Whether `number` is a whole multiple of `divisor`, in decimal; nil when either is out of
    /// Foundation's Decimal (38 digits), or the divisor is not positive.
    static func isMultiple(_ number: String, of divisor: String) -> Bool? {
        // Decimal keeps 38 digits and exponents within about ±127: past that it would round, and answer wrongly.
        func fits(_ text: String) -> Bool {
            let lowered = text.lowercased()
            let mantissa = lowered.split(separator: "e").first.map(String.init) ?? lowered
            let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
            let exponent = lowered.split(separator: "e").dropFirst().first.flatMap { Int($0) } ?? 0
            return digits.count <= 38 && abs(exponent) <= 90
        }
        guard fits(number), fits(divisor), let value = Decimal(string: number, locale: Locale(identifier: "en_US_POSIX")),
              let step = Decimal(string: divisor, locale: Locale(identifier: "en_US_POSIX")), step > 0, !value.isNaN, !step.isNaN else { return nil }
        var quotient = value / step
        var whole = Decimal()
        NSDecimalRound(&whole, &quotient, 0, .plain)
        return whole == quotient
    }
}
