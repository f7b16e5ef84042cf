/// The targets of a session, in declaration order.
struct TargetRegistry {
    private(set) var names: [String] = []
    private var storage: [String: DeclaredTarget] = [:]
    /// Counts changes, so that what is derived from the targets (completion's view) is made again
    /// only after one.
    private(set) var generation = 0

    subscript(name: String) -> DeclaredTarget? { storage[name] }

    /// Declaring a target again replaces it (keeping its place in the order).
    mutating func declare(_ target: DeclaredTarget) {
        if storage[target.name] == nil { names.append(target.name) }
        storage[target.name] = target
        generation += 1
    }

    mutating func forget(_ name: String) -> Bool {
        guard storage.removeValue(forKey: name) != nil else { return false }
        names.removeAll { $0 == name }
        generation += 1
        return true
    }

    var all: [DeclaredTarget] { names.compactMap { storage[$0] } }
}
