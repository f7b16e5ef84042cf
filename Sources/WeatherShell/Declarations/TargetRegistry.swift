/// The targets of a session, in declaration order.
struct TargetRegistry {
    /// `name`, or `name-2`, `name-3`... the first that `taken` does not hold: what an importer
    /// names a target whose name another one already has.
    static func unusedName(_ name: String, among taken: Set<String>) -> String {
        guard taken.contains(name) else { return name }
        var counter = 2
        while taken.contains("\(name)-\(counter)") { counter += 1 }
        return "\(name)-\(counter)"
    }

    private(set) var names: [String] = []
    /// Boxed: a DeclaredTarget (declaration, samples, compiled Target) is a few hundred bytes, and
    /// the dictionary moved every one each time it grew (2% of loading 10,000 targets).
    private var storage: [String: Box] = [:]

    private final class Box {
        let target: DeclaredTarget
        init(_ target: DeclaredTarget) { self.target = target }
    }
    /// Counts changes, so that what is derived from the targets (completion's view) is made again
    /// only after one.
    private(set) var generation = 0

    subscript(name: String) -> DeclaredTarget? { storage[name]?.target }

    /// Declaring a target again replaces it (keeping its place in the order).
    mutating func declare(_ target: DeclaredTarget) {
        if storage[target.name] == nil { names.append(target.name) }
        storage[target.name] = Box(target)
        generation += 1
    }

    mutating func forget(_ name: String) -> Bool {
        guard storage.removeValue(forKey: name) != nil else { return false }
        names.removeAll { $0 == name }
        generation += 1
        return true
    }

    var all: [DeclaredTarget] { names.compactMap { storage[$0]?.target } }
}
