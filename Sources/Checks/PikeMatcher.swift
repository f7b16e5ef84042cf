/// The yes-or-no form of ``PikeMachine``: threads are bare instruction indices over a compact copy
/// of the program, so a step allocates nothing and counts no references. `matches` runs on it.
struct PikeMatcher {
    private enum Kind: UInt8 { case scalar, set, any, split, jump, skip, assertStart, assertEnd, lineStart, lineEnd, boundary, notBoundary, match }

    private var kinds: [Kind] = []
    private var first: [Int] = []
    private var second: [Int] = []
    private var sets: [ScalarSet] = []
    private let ignoresCase: Bool
    private var visitedAt: [Int]
    private var stack: [Int] = []
    /// Instructions visited so far, empty moves included: what the step budget counts.
    private var steps = RegexSteps()

    init(program: RegexProgram, ignoresCase: Bool) {
        self.ignoresCase = ignoresCase
        visitedAt = Array(repeating: -1, count: program.instructions.count)
        for instruction in program.instructions {
            var kind = Kind.skip, a = 0, b = 0
            switch instruction {
            case .scalar(let scalar): kind = .scalar; a = Int(scalar.value)
            case .set(let set): kind = .set; a = sets.count; sets.append(set)
            case .any: kind = .any
            case .split(let preferred, let other): kind = .split; a = preferred; b = other
            case .jump(let target): kind = .jump; a = target
            case .save: kind = .skip
            case .assertStart: kind = .assertStart
            case .assertEnd: kind = .assertEnd
            case .assertLineStart: kind = .lineStart
            case .assertLineEnd: kind = .lineEnd
            case .wordBoundary(let negated): kind = negated ? .notBoundary : .boundary
            case .match: kind = .match
            }
            kinds.append(kind)
            first.append(a)
            second.append(b)
        }
    }

    /// Whether the program matches somewhere in `input`.
    mutating func matches(_ input: [Unicode.Scalar], shouldStop: () -> Bool, budget: Int) throws(RegexMatchFailure) -> Bool {
        var current: [Int] = []
        var next: [Int] = []
        add(0, at: 0, input, to: &current)
        var position = 0
        while !current.isEmpty || position <= input.count {
            try steps.spend(current.count + 1, budget: budget, shouldStop: shouldStop)
            let scalar: Unicode.Scalar? = position < input.count ? input[position] : nil
            for pc in current {
                switch kinds[pc] {
                case .match:
                    return true
                case .scalar:
                    if let scalar, equal(scalar, first[pc]) { add(pc + 1, at: position + 1, input, to: &next) }
                case .set:
                    if let scalar, sets[first[pc]].contains(scalar, ignoringCase: ignoresCase) { add(pc + 1, at: position + 1, input, to: &next) }
                case .any:
                    if let scalar, scalar != "\n" { add(pc + 1, at: position + 1, input, to: &next) }
                default:
                    break
                }
            }
            guard position < input.count else { return false }
            position += 1
            add(0, at: position, input, to: &next)
            swap(&current, &next)
            next.removeAll(keepingCapacity: true)
        }
        return false
    }

    private mutating func add(_ start: Int, at position: Int, _ input: [Unicode.Scalar], to list: inout [Int]) {
        stack.removeAll(keepingCapacity: true)
        stack.append(start)
        while let pc = stack.popLast() {
            steps.count += 1
            guard visitedAt[pc] != position else { continue }
            visitedAt[pc] = position
            switch kinds[pc] {
            case .jump: stack.append(first[pc])
            case .split:
                stack.append(second[pc])
                stack.append(first[pc])
            case .skip: stack.append(pc + 1)
            case .assertStart: if position == 0 { stack.append(pc + 1) }
            case .assertEnd: if position == input.count { stack.append(pc + 1) }
            case .lineStart: if position == 0 || input[position - 1] == "\n" { stack.append(pc + 1) }
            case .lineEnd: if position == input.count || input[position] == "\n" { stack.append(pc + 1) }
            case .boundary, .notBoundary:
                if WordBoundary.at(position, in: input) == (kinds[pc] == .boundary) { stack.append(pc + 1) }
            case .scalar, .set, .any, .match:
                list.append(pc)
            }
        }
    }

    private func equal(_ scalar: Unicode.Scalar, _ expected: Int) -> Bool {
        if Int(scalar.value) == expected { return true }
        return ignoresCase && Unicode.Scalar(UInt32(truncatingIfNeeded: expected)).map { ScalarCase.equal(scalar, $0) } == true
    }
}

/// `\b`: a word character on one side of `position` and not on the other.
enum WordBoundary {
    static func at(_ position: Int, in input: [Unicode.Scalar]) -> Bool {
        let before = position > 0 && ScalarSet.word.contains(input[position - 1], ignoringCase: false)
        let after = position < input.count && ScalarSet.word.contains(input[position], ignoringCase: false)
        return before != after
    }
}
