import Targets

/// Follows a query's path through a JSON value: the one walker for queries, `expect` and the
/// weather commands' readings.
public enum JSONWalk {
    /// Follows path steps; on a miss says where and what was there instead; an empty list
    /// that a key no value reached has made empty comes with why (`.items[*].stauts`), so that
    /// `for` and `let` can refuse it as they refuse a key that is not there. Keys match by their
    /// Unicode scalars, as `==` and JSONPath compare them (`.café` is not the key `cafe\u{301}`). After `[*]`, a slice,
    /// `..name` or `[? ]`, the path goes on from each value found, and the result is one flat list
    /// of every value reached, in order, as RFC 9535's node lists are: a value the rest of the path
    /// does not reach is left out, and a second `[*]` adds the values it reaches to the same list.
    /// `holds` decides `[? EXPR]` for each element; `reads` names the key of the element EXPR reads
    /// (nil when it reads none, or asks whether it exists): a `[? ]` that kept nothing of a list none
    /// of whose elements has that key (`[? .stauts == "ok"]`) says so, as a key step does.
    /// `typo` is that key when one of them has a key close to it (`status`), and whether a `[? ]`
    /// read it (else a key step did): the list is empty by a typo, most likely, not by the answer.
    public static func walk<Condition>(
        _ root: JSONValue, _ steps: [QueryStep<Condition>], where holds: (Condition, JSONValue) throws -> Bool,
        reads: (Condition) -> String? = { _ in nil }
    ) rethrows -> (value: JSONValue?, missing: String, typo: (key: String, inFilter: Bool)?) {
        var current = root
        var path = ""
        for (position, step) in steps.enumerated() {
            switch step {
            case .key(let key):
                guard case .object(let members) = current else {
                    return (nil, "\(path.isEmpty ? "the body" : path) is \(kind(current)), not an object", nil)
                }
                guard let next = members.last(where: { ScalarText.equal($0.key, key) })?.value else {
                    return (nil, noKeyText(key, at: path, keys: members.map(\.key)), nil)
                }
                current = next
                path += keyStep(key)
            case .index(let index):
                guard case .array(let elements) = current else {
                    return (nil, "\(path.isEmpty ? "the body" : path) is \(kind(current)), not an array", nil)
                }
                let position = index < 0 ? elements.count + index : index
                guard elements.indices.contains(position) else {
                    return (nil, "index \(index) is outside \(path.isEmpty ? "the array" : path) of \(elements.count) elements", nil)
                }
                current = elements[position]
                path += "[\(index)]"
            case .all, .slice, .descendants, .filter:
                guard let first = try children(of: current, step, where: holds) else {
                    return (nil, "\(path.isEmpty ? "the body" : path) is \(kind(current)), not an array", nil)
                }
                var nodes = first
                var reason = NoKey.none
                if nodes.isEmpty, let read = keyRead(step, reads) { reason = noKey(read, from: [current]) }
                for next in steps[(position + 1)...] {
                    let before = nodes
                    nodes = try nodes.flatMap { try children(of: $0, next, where: holds) ?? [] }
                    // A key no value reached has (`.items[*].stauts`), or a filter's condition reads
                    // (`[? .stauts == "ok"]`): a typo, most likely, which the empty list it gives says in `missing`.
                    guard nodes.isEmpty, !before.isEmpty, reason.text.isEmpty, let read = keyRead(next, reads) else { continue }
                    reason = noKey(read, from: before)
                }
                return (.array(nodes), reason.text, reason.typo)
            }
        }
        return (current, "", nil)
    }

    /// The values one step reaches from `value`, as a node list; nil when a fan-out step meets a
    /// value it cannot go into (a key or index step that reaches nothing gives an empty list).
    private static func children<Condition>(
        of value: JSONValue, _ step: QueryStep<Condition>, where holds: (Condition, JSONValue) throws -> Bool
    ) rethrows -> [JSONValue]? {
        switch (step, value) {
        case (.key(let key), .object(let members)): return members.last(where: { ScalarText.equal($0.key, key) }).map { [$0.value] } ?? []
        case (.key, _): return []
        case (.index(let index), .array(let elements)):
            let position = index < 0 ? elements.count + index : index
            return elements.indices.contains(position) ? [elements[position]] : []
        case (.index, _): return []
        case (.all, .array(let elements)): return elements
        case (.all, .object(let members)): return members.map(\.value)
        case (.filter(let filter), .array(let elements)): return try elements.filter { try holds(filter, $0) }
        case (.filter(let filter), .object(let members)): return try members.map(\.value).filter { try holds(filter, $0) }
        case (.slice(let from, let to), .array(let elements)): return slice(elements, from, to)
        case (.descendants(let key), _): return descendants(named: key, in: value)
        case (.all, _), (.filter, _), (.slice, _): return nil
        }
    }

    /// A key as a path writes it: `.name`, or `."two words"`.
    static func keyStep(_ key: String) -> String {
        key.contains(" ") || key.isEmpty ? ".\(JSONValue.quoted(key))" : ".\(key)"
    }

    /// The message for a key step that found no `key` in an object with `keys`, at `path` (the
    /// steps before, `""` at the top), naming a key close to it.
    static func noKeyText(_ key: String, at path: String, keys: [String]) -> String {
        let guess = EditDistance.closest(to: key, in: keys).map { " (did you mean '\($0)'?)" } ?? ""
        return "no key '\(key)' at \(path.isEmpty ? "the top" : path)\(guess); keys: \(keys.prefix(12).joined(separator: ", "))"
    }

    /// How a step that reached nothing read a key: a key step, `..key`, or a `[? ]` whose condition reads it.
    enum KeyRead {
        case key(String), descendants(String), filter(String)
    }

    /// The key `step` reads, if any (a `[? ]`'s as `reads` names it).
    private static func keyRead<Condition>(_ step: QueryStep<Condition>, _ reads: (Condition) -> String?) -> KeyRead? {
        switch step {
        case .key(let key): .key(key)
        case .descendants(let key): .descendants(key)
        case .filter(let condition): reads(condition).map(KeyRead.filter)
        case .index, .all, .slice: nil
        }
    }

    /// Why a step that read a key as `read` says reached nothing from `values`: the shared reason
    /// of a path's walk and a JSONPath's (``JSONPath/typo(in:)``). A key close to it is a typo's,
    /// as 0.4.9 had it, but where `pluralIsNoTypo` (the JSONPath forms first checked in 0.4.10):
    /// there its singular or plural (`errors` beside `error`) is an answer (``EditDistance/typo(of:in:)``).
    static func noKey(_ read: KeyRead, from values: [JSONValue], pluralIsNoTypo: Bool = false) -> NoKey {
        let close: (String, [String]) -> String? = { key, names in
            pluralIsNoTypo ? EditDistance.typo(of: key, in: names) : EditDistance.closest(to: key, in: names)
        }
        return switch read {
        case .key(let key): noKeyReason(key, in: values, close: close)
        case .descendants(let key): noKeyReason(key, below: values, close: close)
        case .filter(let key): noKeyReason(key, filtering: values, close: close)
        }
    }

    /// Why a list is empty: a key no value it went over has, and that key again when one of
    /// theirs is close to it as a typo.
    struct NoKey {
        var text: String
        var typo: (key: String, inFilter: Bool)?
        static let none = NoKey(text: "", typo: nil)
    }

    /// Why a key step reached nothing from `values`: none of them has `key`, with the closest
    /// key they have.
    private static func noKeyReason(_ key: String, in values: [JSONValue], close isTypo: (String, [String]) -> String?) -> NoKey {
        let names = keys(of: values)
        let close = EditDistance.closest(to: key, in: names)
        let count = values.count == 1 ? "the value" : "any of the \(values.count) values"
        return NoKey(text: "no key '\(key)' in \(count) reached" + (close.map { " (did you mean '\($0)'?)" } ?? ""),
                     typo: isTypo(key, names) == nil ? nil : (key, false))
    }

    /// Why `..key` reached nothing under `values`, when a member at some depth is named close to
    /// `key` (`..stauts` where items have `status`); none when no name is close.
    private static func noKeyReason(_ key: String, below values: [JSONValue], close isTypo: (String, [String]) -> String?) -> NoKey {
        var names: [String] = []
        var pending = values
        // Each name once, the first 256 met: enough for a guess, bounded on a huge answer.
        while let value = pending.popLast(), names.count < 256 {
            switch value {
            case .object(let members):
                for member in members where !names.contains(where: { ScalarText.equal($0, member.key) }) { names.append(member.key) }
                pending.append(contentsOf: members.map(\.value))
            case .array(let elements): pending.append(contentsOf: elements)
            default: break
            }
        }
        // `..` asks "wherever it is, if anywhere": a key absent with none close to it is an empty
        // list (a cleanup loop over nothing), and only a near miss (`..stauts`) a typo.
        guard let close = isTypo(key, names) else { return .none }
        return NoKey(text: "no key '\(key)' at any depth (did you mean '\(close)'?)", typo: (key, false))
    }

    /// The keys of the objects among `values`, each once, the first 64.
    private static func keys(of values: [JSONValue]) -> [String] {
        var keys: [String] = []
        for case .object(let members) in values {
            for member in members where !keys.contains(where: { ScalarText.equal($0, member.key) }) { keys.append(member.key) }
            if keys.count >= 64 { break }
        }
        return keys
    }

    /// Why a `[? ]` whose condition reads `key` kept nothing of the lists (or objects) in
    /// `containers`: none of their elements has `key`, and one has a key close to it (`status` for
    /// `stauts`); "" otherwise. An optional key none has (`[? .error == "fatal"]`) keeps nothing, rightly.
    private static func noKeyReason(_ key: String, filtering containers: [JSONValue], close isTypo: (String, [String]) -> String?) -> NoKey {
        var elements: [JSONValue] = []
        for container in containers {
            switch container {
            case .array(let values): elements += values
            case .object(let members): elements += members.map(\.value)
            default: break
            }
        }
        let hasKey: (JSONValue) -> Bool = { element in
            guard case .object(let members) = element else { return false }
            return members.contains { ScalarText.equal($0.key, key) }
        }
        guard !elements.isEmpty, !elements.contains(where: hasKey), let guess = isTypo(key, keys(of: elements)) else {
            return .none
        }
        let count = elements.count == 1 ? "the element" : "any of the \(elements.count) elements"
        return NoKey(text: "no key '\(key)' in \(count) '[? ]' went over (did you mean '\(guess)'?)", typo: (key, true))
    }

    /// `elements[from..<to]`, Python's way: negative bounds count from the end, bounds past the ends are clamped.
    private static func slice(_ elements: [JSONValue], _ from: Int?, _ to: Int?) -> [JSONValue] {
        func bound(_ value: Int?, _ otherwise: Int) -> Int {
            guard let value else { return otherwise }
            return min(elements.count, max(0, value < 0 ? elements.count + value : value))
        }
        let start = bound(from, 0), end = bound(to, elements.count)
        return start < end ? Array(elements[start..<end]) : []
    }

    /// Every value of a member named `key`, at any depth (an object's own before its children's);
    /// iterative, so depth costs no stack.
    private static func descendants(named key: String, in root: JSONValue) -> [JSONValue] {
        var found: [JSONValue] = []
        var pending: [JSONValue] = [root]
        while let value = pending.popLast() {
            switch value {
            case .object(let members):
                for member in members where ScalarText.equal(member.key, key) { found.append(member.value) }
                pending.append(contentsOf: members.reversed().map(\.value))
            case .array(let elements):
                pending.append(contentsOf: elements.reversed())
            default:
                break
            }
        }
        return found
    }

    /// What kind of value this is, for messages: `a string`, `an array`.
    public static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

}
