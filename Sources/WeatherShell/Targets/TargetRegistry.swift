/// The targets of a session, in declaration order.
struct TargetRegistry {
    private(set) var names: [String] = []
    private var storage: [String: DeclaredTarget] = [:]

    subscript(name: String) -> DeclaredTarget? { storage[name] }

    /// Declaring a target again replaces it (keeping its place in the order).
    mutating func declare(_ target: DeclaredTarget) {
        if storage[target.name] == nil { names.append(target.name) }
        storage[target.name] = target
    }

    mutating func forget(_ name: String) -> Bool {
        guard storage.removeValue(forKey: name) != nil else { return false }
        names.removeAll { $0 == name }
        return true
    }

    var all: [DeclaredTarget] { names.compactMap { storage[$0] } }
}
