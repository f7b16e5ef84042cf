import Targets

extension RunState {
    /// Each failure of one call made as small as it will go while it still fails the same way:
    /// optional parameters and body fields left out, strings emptied or halved, numbers made 0 or
    /// halved, arrays cut to one element or none. A candidate is kept when the same check fails
    /// with the same summary.
    mutating func shrinkFailures(until limit: Int) async {
        for index in failures.indices where failures[index].steps.count == 1 && failures[index].steps[0].input.rawBody == nil {
            var spent = 0
            let failure = failures[index]
            guard let operationIndex = operations.firstIndex(where: { $0.name == failure.operation }) else { continue }
            var best = failure.steps[0]
            var improved = true
            while improved, spent < settings.shrinkCalls {
                improved = false
                for candidate in Self.smaller(best.input, than: operations[operationIndex]) {
                    guard spent < settings.shrinkCalls else { break }
                    let request = FuzzRequest(operation: best.operation, input: candidate)
                    let expectation = generators[operationIndex].expectation(of: candidate)
                    spent += 1
                    guard let outcome = await call(request, limit: limit) else { return }
                    let findings = judges[operationIndex].findings(outcome, expectation: expectation)
                    if findings.contains(where: { $0.oracle == failure.oracle && $0.summary == failure.summary }),
                       let finding = findings.first(where: { $0.oracle == failure.oracle }) {
                        best = request
                        failures[index].steps = [request]
                        failures[index].detail = finding.detail
                        failures[index].curl = outcome.curl
                        failures[index].expectation = expectation
                        failures[index].shrunk = true
                        improved = true
                        break
                    }
                }
            }
        }
    }

    /// How big an input is: its values and fields count most, then the length of their texts.
    static func size(_ input: FuzzCase) -> Int {
        input.parameters.reduce(0) { $0 + 1000 + $1.value.compactText.count } + size(input.body)
    }

    private static func size(_ body: JSONValue?) -> Int {
        switch body {
        case nil: 0
        case .object(let members)?: members.reduce(1000) { $0 + 1000 + $1.key.count + size($1.value) }
        case .array(let elements)?: elements.reduce(1000) { $0 + size($1) }
        case let value?: value.compactText.count
        }
    }

    /// Inputs smaller than `input`, the most promising first; required parameters and path
    /// parameters stay.
    static func smaller(_ input: FuzzCase, than operation: FuzzOperation) -> [FuzzCase] {
        var candidates: [FuzzCase] = []
        for (index, value) in input.parameters.enumerated() {
            let declared = operation.parameters.first { $0.name == value.name && $0.location == value.location }
            if value.location != .path, declared?.required != true, declared?.alwaysSent != true {
                var candidate = input
                candidate.parameters.remove(at: index)
                candidates.append(candidate)
            }
        }
        if case .object(let members)? = input.body {
            let required = requiredNames(operation).union(operation.bodyFieldsAlwaysSent)
            for (index, member) in members.enumerated() where !required.contains(member.key) {
                var fewer = members
                fewer.remove(at: index)
                var candidate = input
                candidate.body = .object(fewer)
                candidates.append(candidate)
            }
        }
        for (index, value) in input.parameters.enumerated() {
            // An empty path segment names another route.
            for simpler in simpler(value.value) where value.location != .path || !FuzzCase.texts(simpler, in: .path)[0].isEmpty {
                var candidate = input
                candidate.parameters[index].value = simpler
                candidates.append(candidate)
            }
        }
        if case .object(let members)? = input.body {
            for (index, member) in members.enumerated() {
                for simpler in simpler(member.value) {
                    var changed = members
                    changed[index].value = simpler
                    var candidate = input
                    candidate.body = .object(changed)
                    candidates.append(candidate)
                }
            }
        }
        let size = size(input)
        return candidates.filter { Self.size($0) < size }
    }

    private static func requiredNames(_ operation: FuzzOperation) -> Set<String> {
        guard let schema = operation.bodySchema else { return [] }
        return Set(SchemaSampler.requiredNames(SchemaSampler(root: operation.root, style: .plain).resolved(schema)))
    }

    /// Simpler values of the same type: `""` and half a string, `0` and half a number, one element or none.
    static func simpler(_ value: JSONValue) -> [JSONValue] {
        switch value {
        case .string(let text) where !text.isEmpty:
            let scalars = Array(text.unicodeScalars)
            var half = String.UnicodeScalarView()
            half.append(contentsOf: scalars.prefix(scalars.count / 2))
            return [.string(""), .string(String(half))]
        case .number(let text):
            guard let number = Int(text), number != 0 else { return text == "0" ? [] : [.number("0")] }
            return ([0, number < 0 ? -1 : 1, number / 2].filter { $0 != number }).map { .number(String($0)) }
        case .array(let elements) where !elements.isEmpty:
            return [.array([]), .array([elements[0]])] + (elements.count > 2 ? [.array(Array(elements.prefix(2)))] : [])
        case .object(let members) where !members.isEmpty:
            return [.object([])]
        default:
            return []
        }
    }
}
