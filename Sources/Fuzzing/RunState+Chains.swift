import Targets

extension RunState {
    /// A POST's resource and the operations on it: `POST /notes` with `GET`, `DELETE` (and the
    /// others) on `/notes/{id}`.
    struct Chain {
        var create: Int
        var parameter: String
        var read: Int?
        var delete: Int?
    }

    func chainsToRun() -> [Chain] {
        var chains: [Chain] = []
        for (index, operation) in operations.enumerated() where operation.method.uppercased() == "POST" {
            var chain = Chain(create: index, parameter: "", read: nil, delete: nil)
            for (other, candidate) in operations.enumerated() {
                guard let name = Self.itemParameter(candidate.path, under: operation.path) else { continue }
                chain.parameter = name
                switch candidate.method.uppercased() {
                case "GET": chain.read = chain.read ?? other
                case "DELETE": chain.delete = chain.delete ?? other
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

    /// One chain; false when the run must stop.
    private mutating func run(_ chain: Chain, round: Int, limit: Int) async -> Bool {
        let create = operations[chain.create]
        let input = generators[chain.create].validCase(using: &randoms[chain.create])
        let createRequest = FuzzRequest(operation: create.name, input: input)
        guard let created = await call(createRequest, limit: limit) else { return false }
        record(created, of: createRequest, operation: chain.create, expectation: generators[chain.create].expectation(of: input))
        guard let status = created.status, (200...299).contains(status) else { return true }
        var steps = [createRequest]
        let capture = Self.capture(created, parameter: chain.parameter)

        if settings.checks.contains(.location), status == 201, let location = created.header("Location"), !location.isEmpty {
            let request = FuzzRequest(operation: create.name, input: FuzzCase(), url: location)
            guard let fetched = await call(request, limit: limit) else { return false }
            if let code = fetched.status, !(200...299).contains(code) {
                note(Finding(oracle: .location, summary: "Location answered \(code)", detail: "the 201's Location \(location) answered \(code)"),
                     operation: create.name, steps: steps + [request], outcome: fetched, expectation: .valid)
            }
        }
        guard let capture else { return true }
        func itemRequest(_ index: Int) -> FuzzRequest {
            var input = generators[index].validCase(using: &randoms[index])
            input.parameters.removeAll { $0.name == chain.parameter && $0.location == .path }
            input.parameters.insert(.init(name: chain.parameter, location: .path, value: .string(capture.value)), at: 0)
            return FuzzRequest(operation: operations[index].name, input: input)
        }
        if let read = chain.read, settings.checks.contains(.location) {
            let request = itemRequest(read)
            guard let fetched = await call(request, limit: limit) else { return false }
            // The answer about a resource that exists: the one a random id seldom gets.
            record(fetched, of: request, operation: read, expectation: generators[read].expectation(of: request.input))
            if let code = fetched.status, !(200...299).contains(code) {
                note(Finding(oracle: .location, summary: "GET \(operations[read].path) answered \(code)",
                             detail: "\(operations[read].name) answered \(code) for the resource \(create.name) had just created"),
                     operation: create.name, steps: steps + [request], capture: capture, outcome: fetched, expectation: .valid)
            }
        }
        guard let delete = chain.delete else { return true }
        let deleteRequest = itemRequest(delete)
        guard let deleted = await call(deleteRequest, limit: limit) else { return false }
        record(deleted, of: deleteRequest, operation: delete, expectation: generators[delete].expectation(of: deleteRequest.input))
        guard let code = deleted.status, (200...299).contains(code), let read = chain.read, settings.checks.contains(.afterDelete) else { return true }
        steps.append(deleteRequest)
        let again = itemRequest(read)
        guard let fetched = await call(again, limit: limit) else { return false }
        if let after = fetched.status, (200...299).contains(after) {
            note(Finding(oracle: .afterDelete, summary: "GET answered \(after) after DELETE",
                         detail: "\(operations[read].name) answered \(after) after \(operations[delete].name) answered \(code)"),
                 operation: operations[delete].name, steps: steps + [again], capture: capture, outcome: fetched, expectation: .valid)
        }
        return true
    }

    /// The created resource's identifier: the body's field of the parameter's name, or `id`, or
    /// the last segment of the Location.
    static func capture(_ outcome: FuzzOutcome, parameter: String) -> FuzzFailure.Capture? {
        if !parameter.isEmpty, let body = try? JSONValue.parse(outcome.body) {
            for name in [parameter, "id"] {
                switch body[name] {
                case .string(let text)?: return .init(value: text, query: "." + name)
                case .number(let text)?: return .init(value: text, query: "." + name)
                default: continue
                }
            }
        }
        if let location = outcome.header("Location"), let last = location.split(separator: "?").first?.split(separator: "/").last {
            return .init(value: String(last), query: "header Location | split \"/\" | last")
        }
        return nil
    }
}
