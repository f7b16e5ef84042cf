import Checks
import Targets

/// The JSON body HTTPie 3 builds from data items whose names are paths (``NestedJSONPath``),
/// item by item as httpie/cli/nested_json/interpret.py does: a missing container is made for
/// the step that needs it, an index pads an array with nulls, a value set twice at one path is
/// the last one. One choice of wsh's is kept: a plain name given twice (`tag=a tag=b`) is an
/// array of its values, as in a body with no paths.
struct NestedJSONBody {
    /// The body so far: nil before the first item, an object, or an array (`[]:=1`).
    private(set) var root: JSONValue?
    private var plainKeys: Set<String> = []
    private var repeatedKeys: Set<String> = []

    /// The largest index a step may name: each index below it is sent as a null.
    static let indexLimit = 10_000

    /// Why an item cannot go where its path says, and where in its name.
    struct PlacementError: Error, Equatable {
        var message: String
        var range: Range<Int>
    }

    /// Puts `value` where `path` says.
    mutating func insert(_ value: JSONValue, at path: NestedJSONPath) throws(PlacementError) {
        if path.steps.count == 1, case .key(let key) = path.steps[0].step, case .object(var members)? = root,
           plainKeys.contains(key), let index = members.firstIndex(where: { $0.key == key }) {
            if repeatedKeys.contains(key), case .array(let elements) = members[index].value {
                members[index].value = .array(elements + [value])
            } else {
                members[index].value = .array([members[index].value, value])
                repeatedKeys.insert(key)
            }
            root = .object(members)
            return
        }
        if path.steps.count == 1, case .key(let key) = path.steps[0].step { plainKeys.insert(key) }
        root = try Self.place(value, at: path.steps[...], in: root, before: "")
    }

    /// `node` with `value` placed at `steps` inside it; a nil node is made for the first step.
    private static func place(_ value: JSONValue, at steps: ArraySlice<NestedJSONPath.Located>, in node: JSONValue?,
                              before: String) throws(PlacementError) -> JSONValue {
        guard let located = steps.first else { return value }
        let rest = steps.dropFirst()
        let here = before + text(of: located.step, root: steps.startIndex == 0)
        switch located.step {
        case .key(let key):
            let current = node ?? .object([])
            guard case .object(var members) = current else { throw mismatch(located, current, before, wanted: "an object") }
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = try place(value, at: rest, in: members[index].value, before: here)
            } else {
                members.append(JSONMember(key: key, value: try place(value, at: rest, in: nil, before: here)))
            }
            return .object(members)
        case .index(let index):
            let current = node ?? .array([])
            guard case .array(var elements) = current else { throw mismatch(located, current, before, wanted: "an array") }
            guard index <= indexLimit else {
                throw PlacementError(message: "an index past \(indexLimit) is refused: the array would be sent with that many nulls",
                                     range: located.range)
            }
            while elements.count <= index { elements.append(.null) }
            let existing = elements[index] == .null ? nil : elements[index]
            elements[index] = try rest.isEmpty ? value : place(value, at: rest, in: existing, before: here)
            return .array(elements)
        case .append:
            let current = node ?? .array([])
            guard case .array(var elements) = current else { throw mismatch(located, current, before, wanted: "an array") }
            elements.append(try place(value, at: rest, in: nil, before: here))
            return .array(elements)
        }
    }

    private static func mismatch(_ located: NestedJSONPath.Located, _ found: JSONValue, _ before: String,
                                 wanted: String) -> PlacementError {
        let access = switch located.step {
        case .key: "key"
        case .index: "index"
        case .append: "append"
        }
        let subject = before.isEmpty ? "the body" : "'\(before)'"
        return PlacementError(message: "'\(access)' access on \(subject) needs \(wanted), and an earlier item made it \(JSONWalk.kind(found))",
                              range: located.range)
    }


    /// A step as a path writes it, for messages: `a`, `[b]`, `[0]`, `[]`.
    private static func text(of step: NestedJSONPath.Step, root: Bool) -> String {
        switch step {
        case .key(let key): root ? key : "[\(key)]"
        case .index(let index): "[\(index)]"
        case .append: "[]"
        }
    }
}
