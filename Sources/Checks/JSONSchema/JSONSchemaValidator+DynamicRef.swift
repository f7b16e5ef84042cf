import Targets

/// `$dynamicRef` (2020-12) and `$recursiveRef` (2019-09), in a document that is one schema
/// resource: no `$id` below its root. The dynamic scope of a check then holds that one resource,
/// so the outermost `$dynamicAnchor` of a name is the one the reference finds first, and
/// `$recursiveRef: "#"` names the root whether or not it has `$recursiveAnchor`. What wsh cannot
/// follow (more resources, another file, an OpenAPI document's root) is a violation, as a `$ref`
/// to another file is: never skipped.
extension JSONSchemaValidator {
    /// The anchors of the document's schemas and whether it embeds more resources, read once per check.
    struct Anchors {
        /// Each `$anchor` and `$dynamicAnchor` name, with the schemas that carry it.
        var named: [String: [JSONValue]] = [:]
        /// Some schema below the root has an `$id`: a resource of its own.
        var embedsResources = false
        /// The `$id`s below the root, as written.
        var ids: Set<String> = []
    }

    /// What `$dynamicRef` or `$recursiveRef` (`keyword`) names: the schema, or why there is none
    /// to check against (a violation's actual text).
    func dynamicTarget(_ keyword: String, _ ref: String, _ progress: inout Progress) -> Result<JSONValue, DynamicRefProblem> {
        if progress.anchors == nil { progress.anchors = Self.anchors(in: root) }
        let anchors = progress.anchors ?? Anchors()
        if ref == "#", root["openapi"] != nil || root["swagger"] != nil {
            return .failure(.notFollowed("in an OpenAPI document \"#\" is the document, not a schema"))
        }
        if keyword == "$recursiveRef" {
            guard ref == "#" else { return .failure(.notFollowed("$recursiveRef is written \"#\" (2019-09)")) }
            if anchors.embedsResources { return .failure(.notFollowed(Self.moreResources)) }
            return .success(root)
        }
        guard ref.hasPrefix("#") else { return .failure(.notFollowed("only refs within the document (#...) are")) }
        // A JSON pointer: the same as `$ref`.
        if ref == "#" || ref.hasPrefix("#/") {
            return resolve(ref, &progress).map { .success($0) } ?? .failure(.nothing("no such place in the document"))
        }
        if anchors.embedsResources { return .failure(.notFollowed(Self.moreResources)) }
        let name = String(ref.dropFirst())
        let found = anchors.named[name] ?? []
        if found.count == 1 { return .success(found[0]) }
        if found.isEmpty { return .failure(.nothing("no $dynamicAnchor or $anchor \(JSONValue.quoted(name)) in the document")) }
        return .failure(.notFollowed("more than one schema is anchored \(JSONValue.quoted(name))"))
    }

    /// Why a `$dynamicRef` or `$recursiveRef` names no schema.
    enum DynamicRefProblem: Error {
        case nothing(String)
        case notFollowed(String)

        var actual: String {
            switch self {
            case .nothing(let why): "nothing: " + why
            case .notFollowed(let why): "not followed: " + why
            }
        }
    }

    static let moreResources = "the document holds more than one schema resource ($id below its root), whose dynamic scope wsh does not follow"

    /// The anchors of every schema in `root`; values that are data (`enum`, `const`, `default`,
    /// `examples`) are not looked into.
    static func anchors(in root: JSONValue) -> Anchors {
        var anchors = Anchors()
        var pending: [(value: JSONValue, depth: Int)] = [(root, 0)]
        while let (value, depth) = pending.popLast() {
            switch value {
            case .object(let members):
                for member in members {
                    switch (member.key, member.value) {
                    case ("$anchor", .string(let name)), ("$dynamicAnchor", .string(let name)): anchors.named[name, default: []].append(value)
                    case ("$id", .string(let id)) where depth > 0:
                        anchors.embedsResources = true
                        anchors.ids.insert(id)
                    case ("enum", _), ("const", _), ("default", _), ("examples", _), ("example", _): continue
                    default: pending.append((member.value, depth + 1))
                    }
                }
            case .array(let elements):
                pending += elements.map { ($0, depth + 1) }
            default:
                break
            }
        }
        return anchors
    }

    /// Checks `value` against what the `$dynamicRef` or `$recursiveRef` of `keywords` names.
    func checkDynamicRefs(_ value: JSONValue, _ keywords: Keywords, depth: Int, into progress: inout Progress) {
        for (keyword, ref) in [("$dynamicRef", keywords.dynamicRef), ("$recursiveRef", keywords.recursiveRef)] {
            guard let ref else { continue }
            switch dynamicTarget(keyword, ref, &progress) {
            case .success(let target):
                check(value, target, depth: depth + 1, into: &progress)
            case .failure(let problem):
                progress.addUncheckable(expected: "the schema \(keyword) \(JSONValue.quoted(ref)) names", actual: problem.actual)
            }
        }
    }

    /// The schemas the `$dynamicRef` or `$recursiveRef` of `keywords` names, for what they evaluate.
    func dynamicTargets(_ keywords: Keywords, _ progress: inout Progress) -> [JSONValue] {
        [("$dynamicRef", keywords.dynamicRef), ("$recursiveRef", keywords.recursiveRef)].compactMap { keyword, ref in
            ref.flatMap { try? dynamicTarget(keyword, $0, &progress).get() }
        }
    }
}
