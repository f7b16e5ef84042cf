/// A regular expression compiled to instructions for a Pike VM (Thompson's construction with
/// captures): every instruction is visited at most once per input position.
struct RegexProgram: Sendable {
    enum Instruction: Sendable {
        case scalar(Unicode.Scalar)
        case set(ScalarSet)
        case any
        /// Try `preferred` first, then `other`.
        case split(preferred: Int, other: Int)
        case jump(Int)
        /// Record the input position in capture slot `slot`.
        case save(slot: Int)
        case assertStart
        case assertEnd
        case assertLineStart
        case assertLineEnd
        case wordBoundary(negated: Bool)
        case match
    }

    /// Programs past this size are refused; counted repetitions would otherwise grow them without limit.
    static let maximumInstructions = 100_000

    private(set) var instructions: [Instruction] = []
    let slotCount: Int

    init(_ node: RegexNode, groupCount: Int) throws(RegexError) {
        slotCount = (groupCount + 1) * 2
        try emit(.save(slot: 0))
        try compile(node)
        try emit(.save(slot: 1))
        try emit(.match)
    }

    private mutating func emit(_ instruction: Instruction) throws(RegexError) {
        guard instructions.count < Self.maximumInstructions else {
            throw RegexError(message: "the pattern is too large once its repetitions are counted out", offset: nil)
        }
        instructions.append(instruction)
    }

    private mutating func compile(_ node: RegexNode) throws(RegexError) {
        switch node {
        case .empty: break
        case .scalar(let scalar): try emit(.scalar(scalar))
        case .set(let set): try emit(.set(set))
        case .any: try emit(.any)
        case .startAnchor: try emit(.assertStart)
        case .endAnchor: try emit(.assertEnd)
        case .lineStart: try emit(.assertLineStart)
        case .lineEnd: try emit(.assertLineEnd)
        case .wordBoundary(let negated): try emit(.wordBoundary(negated: negated))
        case .concatenation(let items):
            for item in items { try compile(item) }
        case .group(let inner, let index):
            if let index { try emit(.save(slot: index * 2)) }
            try compile(inner)
            if let index { try emit(.save(slot: index * 2 + 1)) }
        case .alternation(let branches):
            var jumpsToEnd: [Int] = []
            for (offset, branch) in branches.enumerated() {
                if offset < branches.count - 1 {
                    let split = instructions.count
                    try emit(.split(preferred: split + 1, other: -1))
                    try compile(branch)
                    jumpsToEnd.append(instructions.count)
                    try emit(.jump(-1))
                    instructions[split] = .split(preferred: split + 1, other: instructions.count)
                } else {
                    try compile(branch)
                }
            }
            for jump in jumpsToEnd { instructions[jump] = .jump(instructions.count) }
        case .repetition(let body, let low, let high, let greedy):
            for _ in 0..<low { try compile(body) }
            if let high {
                var splits: [Int] = []
                for _ in low..<high {
                    splits.append(instructions.count)
                    try emit(.jump(-1))
                    try compile(body)
                }
                for split in splits { instructions[split] = branch(from: split, skipTo: instructions.count, greedy: greedy) }
            } else {
                let loop = instructions.count
                try emit(.jump(-1))
                try compile(body)
                try emit(.jump(loop))
                instructions[loop] = branch(from: loop, skipTo: instructions.count, greedy: greedy)
            }
        }
    }

    /// A split at `index` that enters the body right after it or skips to `skipTo`.
    private func branch(from index: Int, skipTo: Int, greedy: Bool) -> Instruction {
        greedy ? .split(preferred: index + 1, other: skipTo) : .split(preferred: skipTo, other: index + 1)
    }
}
