import Foundation
import Targets
import Yams

/// An OpenAPI document's text as a JSON tree and back: JSON through wsh's own parser (which keeps
/// number literals exactly), YAML through Yams.
enum DocumentText {
    struct Failure: Error {
        var message: String
    }

    /// A document may nest this deep; deeper is refused rather than recursed into.
    static let maxDepth = 256
    /// YAML aliases may repeat a node many times (a "billion laughs" document): past this many
    /// values the document is refused instead of expanded.
    static let maxValues = 4_000_000

    /// The tree of `bytes`, JSON when it starts with `{` or `[`, else YAML.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        if start < bytes.count, bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") {
            do {
                return try JSONValue.parse(bytes)
            } catch {
                throw Failure(message: "not valid JSON: \(error)")
            }
        }
        // A byte order mark is no part of the text: Yams refused the document with one.
        guard let text = String(validating: bytes[(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)...], as: UTF8.self) else {
            throw Failure(message: "not UTF-8 text")
        }
        return try yams(text)
    }

    /// The tree as block YAML, members in their order. A string is written plain only when YAML
    /// 1.1 and 1.2 readers both take it back as that string (`'200'`, `'true'`, `'1.0'` are quoted).
    static func yaml(_ tree: JSONValue) throws(Failure) -> String {
        do {
            return try Yams.serialize(node: node(tree), width: -1, allowUnicode: true)
        } catch {
            throw Failure(message: "cannot write YAML: " + (String(describing: error).split(separator: "\n").first.map(String.init) ?? ""))
        }
    }

    private static func node(_ value: JSONValue) -> Node {
        switch value {
        case .null: .scalar(.init("null"))
        case .bool(let flag): .scalar(.init(flag ? "true" : "false"))
        case .number(let literal): .scalar(.init(literal))
        case .string(let text): .scalar(stringScalar(text))
        case .array(let elements): .sequence(.init(elements.map(node)))
        case .object(let members): .mapping(.init(members.map { (.scalar(stringScalar($0.key)), node($0.value)) }))
        }
    }

    private static func stringScalar(_ text: String) -> Node.Scalar {
        // Yams quotes what YAML 1.1 would read as another type (`yes`, `0x1F`); 1.2's types are checked here.
        let scalar = text.represented()
        guard scalar.style == .any, typedPlain(text) == .string(text) else { return .init(text, Tag(.str), .singleQuoted) }
        return scalar
    }

    /// The tree of a YAML text, read by Yams.
    private static func yams(_ text: String) throws(Failure) -> JSONValue {
        let node: Node?
        do {
            // The basic resolver leaves plain scalars untyped: ``scalar(_:)`` types them, much
            // faster than Yams's regular expressions and as YAML 1.2's JSON schema does.
            node = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            // libyaml stops at 1,000 levels, so Yams never recurses deeper; ``convert`` stops at 256.
            if case .parser(_, let problem, _, _) = error, problem.hasPrefix("Maximum nesting level") {
                throw Failure(message: "the document nests deeper than \(maxDepth) levels")
            }
            throw Failure(message: "not valid YAML: " + Self.describe(error))
        } catch {
            throw Failure(message: "not valid YAML")
        }
        guard let node else { throw Failure(message: "the document is empty") }
        var budget = maxValues
        return try convert(node, depth: 0, budget: &budget)
    }

    private static func convert(_ node: Node, depth: Int, budget: inout Int) throws(Failure) -> JSONValue {
        budget -= 1
        guard budget > 0 else { throw Failure(message: "the document expands to more than \(maxValues) values (YAML aliases)") }
        guard depth < maxDepth else { throw Failure(message: "the document nests deeper than \(maxDepth) levels") }
        switch node {
        case .scalar(let scalar):
            return Self.scalar(scalar)
        case .mapping(let mapping):
            var members: [JSONMember] = []
            members.reserveCapacity(mapping.count)
            var merged: [JSONMember] = []
            for (key, value) in mapping {
                let name = key.scalar?.string ?? ""
                // YAML 1.1's merge key (`<<: *base`, `<<: [*a, *b]`), as PyYAML, SnakeYAML and
                // js-yaml read it: the mappings' members, under this mapping's own, the first
                // mapping's before a later one's.
                if name == "<<", key.scalar?.style == .plain {
                    let sources: [Node] = if case .sequence(let list) = value { Array(list) } else { [value] }
                    for source in sources {
                        guard case .object(let list) = try convert(source, depth: depth + 1, budget: &budget) else {
                            throw Failure(message: "a merge key '<<' takes a mapping or a list of mappings" + (key.mark.map { " (line \($0.line))" } ?? ""))
                        }
                        for member in list where !merged.contains(where: { $0.key == member.key }) { merged.append(member) }
                    }
                    continue
                }
                members.append(JSONMember(key: name, value: try convert(value, depth: depth + 1, budget: &budget)))
            }
            if !merged.isEmpty {
                members = merged.filter { member in !members.contains { $0.key == member.key } } + members
            }
            return .object(members)
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            elements.reserveCapacity(sequence.count)
            for element in sequence { elements.append(try convert(element, depth: depth + 1, budget: &budget)) }
            return .array(elements)
        case .alias:
            return .null
        }
    }

    /// A plain scalar typed as YAML 1.2's JSON-compatible core schema types it; a quoted one, or one
    /// tagged `!!str`, is a string.
    private static func scalar(_ scalar: Node.Scalar) -> JSONValue {
        guard scalar.style == .plain, scalar.tag.rawValue != Tag.Name.str.rawValue else { return .string(scalar.string) }
        return typedPlain(scalar.string)
    }

    /// A plain scalar's value: null, a boolean, a number or a string.
    private static func typedPlain(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if let number = jsonNumber(text) { return .number(number) }
        return .string(text)
    }

    /// `text` as a JSON number literal when YAML reads it as a number: JSON's own form, and `+1`,
    /// `.5`, `1.` written as JSON writes them.
    private static func jsonNumber(_ text: String) -> String? {
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
            || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return nil }
        if isJSONNumber(text) { return text }
        guard text.utf8.allSatisfy({ "0123456789+-.eE".utf8.contains($0) }), let value = Double(text), value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// RFC 8259's number grammar.
    private static func isJSONNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }

    /// Yams's error as `line L, column C: problem`, without its echo of the document.
    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return "line \(mark.line), column \(mark.column): \(problem)"
        default:
            return String(describing: error).split(separator: "\n").first.map(String.init) ?? "unreadable"
        }
    }
}
