/// Runs a ``RegexProgram`` over an input, all threads in lock step: each input position is read
/// once, and each instruction holds at most one thread per position, so the work is bounded by
/// instructions × positions whatever the pattern.
struct PikeMachine {
    private struct Thread {
        var pc: Int
        var slots: [Int]
    }

    private let program: [RegexProgram.Instruction]
    private let input: [Unicode.Scalar]
    private let ignoresCase: Bool
    private let slotCount: Int
    /// The position at which each instruction last received a thread: a thread list is a set.
    private var visitedAt: [Int]
    /// The work list of ``add(_:at:to:)``, kept between calls so that adding a thread allocates nothing.
    private var stack: [Thread] = []
    /// Instructions visited so far, empty moves included: what the step budget counts.
    private var steps = RegexSteps()

    init(program: RegexProgram, input: [Unicode.Scalar], ignoresCase: Bool) {
        self.program = program.instructions
        self.input = input
        self.ignoresCase = ignoresCase
        self.slotCount = program.slotCount
        visitedAt = Array(repeating: -1, count: program.instructions.count)
    }

    /// The capture slots of the leftmost match at or after `start`, or nil. Runs on one machine
    /// share its step budget.
    mutating func run(from start: Int = 0, shouldStop: () -> Bool, budget: Int) throws(RegexMatchFailure) -> [Int]? {
        var current: [Thread] = []
        var next: [Thread] = []
        var matched: [Int]?
        if start > 0 {
            for index in visitedAt.indices { visitedAt[index] = -1 }
        }
        add(Thread(pc: 0, slots: Array(repeating: -1, count: slotCount)), at: start, to: &current)
        var position = start
        while true {
            if current.isEmpty, matched != nil { break }
            try steps.spend(current.count + 1, budget: budget, shouldStop: shouldStop)
            let scalar: Unicode.Scalar? = position < input.count ? input[position] : nil
            for thread in current {
                switch program[thread.pc] {
                case .match:
                    matched = thread.slots
                case .scalar(let expected):
                    if let scalar, equal(scalar, expected) { add(Thread(pc: thread.pc + 1, slots: thread.slots), at: position + 1, to: &next) }
                    continue
                case .set(let set):
                    if let scalar, set.contains(scalar, ignoringCase: ignoresCase) {
                        add(Thread(pc: thread.pc + 1, slots: thread.slots), at: position + 1, to: &next)
                    }
                    continue
                case .any:
                    if let scalar, scalar != "\n" { add(Thread(pc: thread.pc + 1, slots: thread.slots), at: position + 1, to: &next) }
                    continue
                default:
                    continue
                }
                // A match cuts the threads of lower priority, as a backtracking engine would never reach them.
                break
            }
            guard position < input.count else { break }
            position += 1
            if matched == nil {
                add(Thread(pc: 0, slots: Array(repeating: -1, count: slotCount)), at: position, to: &next)
            }
            swap(&current, &next)
            next.removeAll(keepingCapacity: true)
        }
        return matched
    }

    /// Adds `thread` and every thread its empty moves reach (jumps, splits, saves, assertions), in
    /// priority order, with an explicit stack: a chain of thousands of splits must not recurse.
    private mutating func add(_ thread: Thread, at position: Int, to list: inout [Thread]) {
        stack.removeAll(keepingCapacity: true)
        stack.append(thread)
        while var thread = stack.popLast() {
            steps.count += 1
            guard visitedAt[thread.pc] != position else { continue }
            visitedAt[thread.pc] = position
            switch program[thread.pc] {
            case .jump(let target):
                thread.pc = target
                stack.append(thread)
            case .split(let preferred, let other):
                stack.append(Thread(pc: other, slots: thread.slots))
                thread.pc = preferred
                stack.append(thread)
            case .save(let slot):
                thread.slots[slot] = position
                thread.pc += 1
                stack.append(thread)
            case .assertStart:
                guard position == 0 else { continue }
                thread.pc += 1
                stack.append(thread)
            case .assertEnd:
                guard position == input.count else { continue }
                thread.pc += 1
                stack.append(thread)
            case .assertLineStart:
                guard position == 0 || input[position - 1] == "\n" else { continue }
                thread.pc += 1
                stack.append(thread)
            case .assertLineEnd:
                guard position == input.count || input[position] == "\n" else { continue }
                thread.pc += 1
                stack.append(thread)
            case .wordBoundary(let negated):
                guard WordBoundary.at(position, in: input) != negated else { continue }
                thread.pc += 1
                stack.append(thread)
            case .scalar, .set, .any, .match:
                list.append(thread)
            }
        }
    }

    private func equal(_ scalar: Unicode.Scalar, _ expected: Unicode.Scalar) -> Bool {
        if scalar == expected { return true }
        return ignoresCase && ScalarCase.equal(scalar, expected)
    }
}
