import Checks
import Targets

/// Follows local `$ref`s in the document, warning once per broken or circular ref at the place
/// that names it.
final class RefResolver {
    let root: JSONValue
    private(set) var warnings: [ImportWarning] = []
    private var warned: Set<String> = []
    /// A chain of refs longer than this is taken for a cycle.
    static let maxHops = 32

    init(root: JSONValue) {
        self.root = root
    }

    /// `value`, or what its `$ref` chain ends at, with the pointer of the value returned; nil
    /// (after a warning) when a ref is broken or the chain loops.
    func resolve(_ value: JSONValue, at pointer: String) -> (value: JSONValue, pointer: String)? {
        var current = value
        var currentPointer = pointer
        var hops = 0
        while case .string(let ref)? = current["$ref"] {
            hops += 1
            guard hops <= Self.maxHops else {
                warn(pointer + "/$ref", "$ref '\(ref)' leads back to itself")
                return nil
            }
            // A ref to another file is still here when the Bundler could not read it, and said so.
            guard ref.hasPrefix("#") else { return nil }
            guard let target = JSONPointer.resolve(fragment: String(ref.dropFirst()), in: root) else {
                // An `$anchor`'s `#name` (3.1), which `expect schema` follows, has no pointer here to read it by.
                if JSONSchemaValidator.target(of: ref, in: root) == nil { warn(currentPointer + "/$ref", "broken $ref '\(ref)': nothing is there") }
                return nil
            }
            current = target
            currentPointer = PercentDecoding.decode(String(ref.dropFirst()))
        }
        return (current, currentPointer)
    }

    /// Warns about every local `$ref` under `value` that names nothing, by pointer or `$anchor`
    /// as `expect schema` follows them (bounded depth); refs to
    /// other files that could not be bundled were warned about by the ``Bundler``. The place is
    /// kept as a stack of keys and made a pointer only for a warning: a walk of a 2 MB document
    /// visits some 200,000 values.
    func checkRefs(_ value: JSONValue, at pointer: String) {
        var path: [String] = []
        checkRefs(value, base: pointer, path: &path)
    }

    private func checkRefs(_ value: JSONValue, base: String, path: inout [String]) {
        guard path.count < DocumentText.maxDepth else { return }
        switch value {
        case .object(let members):
            for member in members {
                path.append(member.key)
                if member.key == "$ref", case .string(let ref) = member.value {
                    if ref.hasPrefix("#"), JSONSchemaValidator.target(of: ref, in: root) == nil {
                        warn(JSONPointer.pointer(base, path), "broken $ref '\(ref)': nothing is there")
                    }
                } else if case .object = member.value {
                    checkRefs(member.value, base: base, path: &path)
                } else if case .array = member.value {
                    checkRefs(member.value, base: base, path: &path)
                }
                path.removeLast()
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                path.append(String(index))
                checkRefs(element, base: base, path: &path)
                path.removeLast()
            }
        default:
            break
        }
    }

    func warn(_ pointer: String, _ message: String) {
        guard warned.insert(pointer + "\u{0}" + message).inserted else { return }
        warnings.append(ImportWarning(pointer: pointer, message: message))
    }
}
