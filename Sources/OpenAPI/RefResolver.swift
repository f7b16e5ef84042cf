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
            guard ref.hasPrefix("#"), let target = JSONPointer.resolve(String(ref.dropFirst()), in: root) else {
                warn(currentPointer + "/$ref", "broken $ref '\(ref)': nothing is there")
                return nil
            }
            current = target
            currentPointer = String(ref.dropFirst())
        }
        return (current, currentPointer)
    }

    func warn(_ pointer: String, _ message: String) {
        guard warned.insert(pointer + "\u{0}" + message).inserted else { return }
        warnings.append(ImportWarning(pointer: pointer, message: message))
    }
}
