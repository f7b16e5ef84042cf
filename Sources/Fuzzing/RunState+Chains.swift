import Targets

extension RunState {
    /// A POST's resource and the operations on it: `POST /notes` with `GET`, `DELETE` (and the
    /// others) on `/notes/{id}`.
    struct Chain {
        var create: Int
        /// The operations on the created item, each with the name of its path's item parameter.
        var read: (index: Int, parameter: String)?
        var delete: (index: Int, parameter: String)?

        /// The name the created item's id is read from the answer by (`id` is tried after it).
        var itemParameterName: String { read?.parameter ?? delete?.parameter ?? "" }
    }

    func chainsToRun() -> [Chain] {
        var chains: [Chain] = []
        for (index, operation) in operations.enumerated() where operation.method.uppercased() == "POST" {
            var chain = Chain(create: index, read: nil, delete: nil)
            for (other, candidate) in operations.enumerated() {
                guard let name = Self.itemParameter(candidate.path, under: operation.path) else { continue }
                switch candidate.method.uppercased() {
                case "GET": chain.read = chain.read ?? (other, name)
                case "DELETE": chain.delete = chain.delete ?? (other, name)
                default: break
                }
            }
            chains.append(chain)
        }
        return chains
    }

    /// `id` when `path` is `collection/{id}`.
    static func itemParameter(_ path: String, under collection: String) -> String? {
        let base = collection.hasSuffix("/") ? String(collection.dropLast()) : collection
        guard path.hasPrefix(base + "/{"), path.hasSuffix("}") else { return nil }
        let name = path.dropFirst(base.count + 2).dropLast()
        return name.contains("/") || name.contains("{") || name.isEmpty ? nil : String(name)
    }

    /// For each POST in turn, until the budget is spent (at most ten rounds): create with a valid
    /// input; on a 2xx, fetch what it created (its Location, and GET on its path), delete it, and
    /// fetch it again.
    mutating func chains(until limit: Int) async {
        let chains = chainsToRun()
        guard !chains.isEmpty else { return }
        for round in 0..<10 {
            for chain in chains {
                guard await run(chain, round: round, limit: limit) else { return }
            }
        }
    }

    /// One chain; false when the run must stop. What its calls find is noted with the calls
    /// before them (the create, then the delete), which a reproducer needs.
    private mutating func run(_ chain: Chain, round: Int, limit: Int) async -> Bool {
        let create = operations[chain.create]
        let input = generators[chain.create].validCase(using: &randoms[chain.create])
        let createRequest = FuzzRequest(operation: create.name, input: input)
        guard let created = await call(createRequest, limit: limit) else { return false }
        record(created, of: createRequest, operation: chain.create, expectation: generators[chain.create].expectation(of: input), countedByCall: true)
        guard let status = created.status, (200...299).contains(status) else { return true }
        var steps = [createRequest]
        var curls = [created.curl].compactMap { $0 }
        let capture = Self.capture(created, parameter: chain.itemParameterName)

        if settings.checks.contains(.location), status == 201, let location = created.header("Location"), !location.isEmpty {
            let request = FuzzRequest(operation: create.name, input: FuzzCase(), url: location)
            guard let fetched = await call(request, limit: limit) else { return false }
            if fetched.status != nil { checkedByOperation[create.name, default: []].insert(.location) }
            if let code = fetched.status, !(200...299).contains(code) {
                note(Finding(oracle: .location, summary: "Location answered \(code)", detail: "the 201's Location \(location) answered \(code)"),
                     operation: create.name, steps: steps + [request], outcome: fetched, expectation: .valid, earlierCurls: curls)
            }
        }
        guard let capture else { return true }
        func itemRequest(_ operation: (index: Int, parameter: String)) -> FuzzRequest {
            var input = generators[operation.index].validCase(using: &randoms[operation.index])
            input.parameters.removeAll { $0.name == operation.parameter && $0.location == .path }
            input.parameters.insert(.init(name: operation.parameter, location: .path, value: .string(capture.value)), at: 0)
            return FuzzRequest(operation: operations[operation.index].name, input: input)
        }
        /// The checks of one answer about the created item, noted with the calls that led to it;
        /// alone, with the item's id written out, when nothing deletes it (the item stays, and an
        /// answer that depends on the id shows again).
        func judge(_ outcome: FuzzOutcome, of request: FuzzRequest, operation index: Int, after steps: [FuzzRequest]) {
            for finding in judges[index].findings(outcome, expectation: generators[index].expectation(of: request.input),
                                                  made: &checkedByOperation[request.operation, default: []]) {
                if chain.delete == nil {
                    note(finding, operation: request.operation, steps: [request], outcome: outcome, expectation: .valid)
                } else {
                    note(finding, operation: request.operation, steps: steps + [request], capture: capture, outcome: outcome, expectation: .valid,
                         earlierCurls: curls)
                }
            }
        }
        if let read = chain.read {
            let request = itemRequest(read)
            guard let fetched = await call(request, limit: limit) else { return false }
            // The answer about a resource that exists: the one a random id seldom gets.
            judge(fetched, of: request, operation: read.index, after: steps)
            if settings.checks.contains(.location), fetched.status != nil { checkedByOperation[create.name, default: []].insert(.location) }
            if settings.checks.contains(.location), let code = fetched.status, !(200...299).contains(code) {
                note(Finding(oracle: .location, summary: "GET \(operations[read.index].path) answered \(code)",
                             detail: "\(operations[read.index].name) answered \(code) for the resource \(create.name) had just created"),
                     operation: create.name, steps: steps + [request], capture: capture, outcome: fetched, expectation: .valid,
                     earlierCurls: curls)
            }
        }
        guard let delete = chain.delete else { return true }
        let deleteRequest = itemRequest(delete)
        guard let deleted = await call(deleteRequest, limit: limit) else { return false }
        judge(deleted, of: deleteRequest, operation: delete.index, after: steps)
        guard let code = deleted.status, (200...299).contains(code), let read = chain.read, settings.checks.contains(.afterDelete) else { return true }
        steps.append(deleteRequest)
        curls += [deleted.curl].compactMap { $0 }
        let again = itemRequest(read)
        guard let fetched = await call(again, limit: limit) else { return false }
        if fetched.status != nil { checkedByOperation[operations[delete.index].name, default: []].insert(.afterDelete) }
        if let after = fetched.status, (200...299).contains(after) {
            note(Finding(oracle: .afterDelete, summary: "GET answered \(after) after DELETE",
                         detail: "\(operations[read.index].name) answered \(after) after \(operations[delete.index].name) answered \(code)"),
                 operation: operations[delete.index].name, steps: steps + [again], capture: capture, outcome: fetched, expectation: .valid,
                 earlierCurls: curls)
        }
        return true
    }

    /// The created resource's identifier: the body's field of the parameter's name, or `id`, at
    /// its top level; else the last segment of the Location; else a field of the parameter's name,
    /// then `id`, one level down (`{"data": {"id": 5}}`, JSON:API's place), then two. An empty
    /// value is none.
    static func capture(_ outcome: FuzzOutcome, parameter: String) -> FuzzFailure.Capture? {
        let body = parameter.isEmpty ? nil : try? JSONValue.parse(outcome.body)
        let levels = body.map(levels(below:)) ?? []
        if let top = levels.first, let found = field(in: top, names: [parameter, "id"]) { return found }
        if let location = outcome.header("Location"), let last = location.split(separator: "?").first?.split(separator: "/").last {
            return .init(value: String(last), query: "header Location | split \"/\" | last")
        }
        for name in [parameter, "id"] {
            for level in levels.dropFirst() {
                if let found = field(in: level, names: [name]) { return found }
            }
        }
        return nil
    }

    /// The objects at depth 0, 1 and 2 of `body`, each with its path, reached through names a query
    /// can write bare (`.data.id`).
    private static func levels(below body: JSONValue) -> [[(path: String, value: JSONValue)]] {
        var levels: [[(path: String, value: JSONValue)]] = [[("", body)]]
        while levels.count < 3, let last = levels.last {
            levels.append(last.flatMap { path, value in
                guard case .object(let members) = value else { return [(path: String, value: JSONValue)]() }
                return members.filter { isBareName($0.key) }.map { (path + "." + $0.key, $0.value) }
            })
        }
        return levels
    }

    /// The first of `names` (in order, then in document order) holding a non-empty string or a number.
    private static func field(in level: [(path: String, value: JSONValue)], names: [String]) -> FuzzFailure.Capture? {
        for name in names where !name.isEmpty {
            for (path, value) in level {
                switch value[name] {
                case .string(let text)? where !text.isEmpty: return .init(value: text, query: path + "." + name)
                case .number(let text)?: return .init(value: text, query: path + "." + name)
                default: continue
                }
            }
        }
        return nil
    }

    /// A member name made of letters, digits and `_`, not starting with a digit.
    private static func isBareName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}
