import Fuzzing

/// What `fuzz` and `wsh fuzz` are told: the targets, the budget and checks, the reports, and
/// what the run may touch.
struct FuzzOptions: Equatable, Sendable {
    /// Target names; none fuzzes every declared target.
    var targets: [String] = []
    /// Calls in all; nil: 100 a target.
    var calls: Int?
    /// Printed on every run; nil picks one.
    var seed: UInt64?
    var duration: Duration?
    /// How long one call may take before it counts as no answer.
    var timeout: Duration = .seconds(5)
    var jobs = 1
    var rate: Double?
    var stateful = false
    /// The checks made; empty: all.
    var checks: [Oracle] = []
    var junitReport: String?
    var jsonReport: String?
    /// Hosts other than loopback that may be fuzzed.
    var allowedHosts: [String] = []
    /// Send methods other than GET, HEAD and OPTIONS.
    var allowWrites = false

    static let usage = "fuzz [TARGET...] [--calls N] [--seed S] [--time D] [--timeout D] [--jobs N] [--rate R] [--stateful] [--check NAME]... [--allow-host H]... [--allow-writes] [--report-junit F] [--report-json F]"
    static let flags = ["--calls", "--seed", "--time", "--timeout", "--jobs", "--rate", "--stateful", "--check", "--allow-host", "--allow-writes",
                        "--report-junit", "--report-json"]

    /// A wrong word: its index among the words and what is wrong.
    struct Problem: Error, Equatable {
        var index: Int
        var message: String
    }

    /// The options the words after `fuzz` give.
    static func parse(_ words: [String]) -> Result<FuzzOptions, Problem> {
        var options = FuzzOptions()
        var index = 0
        // Where a check only `--stateful` chains can fail was asked for.
        var chainCheck: (index: Int, name: String)?
        while index < words.count {
            let word = words[index]
            guard word.hasPrefix("--") else {
                options.targets.append(word)
                index += 1
                continue
            }
            if word == "--stateful" { options.stateful = true; index += 1; continue }
            if word == "--allow-writes" { options.allowWrites = true; index += 1; continue }
            guard flags.contains(word) else {
                return .failure(Problem(index: index, message: "unknown fuzz option '\(word.shortened())'"))
            }
            guard index + 1 < words.count else { return .failure(Problem(index: index, message: "\(word) needs a value")) }
            let value = words[index + 1]
            if let message = options.set(word, value) { return .failure(Problem(index: index + 1, message: message)) }
            if word == "--check", chainCheck == nil, let name = options.checks.first(where: { [.location, .afterDelete].contains($0) }) {
                chainCheck = (index + 1, name.rawValue)
            }
            index += 2
        }
        if let chainCheck, let message = options.chainCheckProblem {
            return .failure(Problem(index: chainCheck.index, message: message))
        }
        return .success(options)
    }

    /// A check only `--stateful` chains can fail (`location`, `after-delete`) asked for without it:
    /// it would check nothing and report no failure.
    var chainCheckProblem: String? {
        guard !stateful, let check = checks.first(where: { [.location, .afterDelete].contains($0) }) else { return nil }
        return "--check \(check.rawValue) needs --stateful: only its chains (create, fetch, delete) can fail it"
    }

    /// Sets the option `flag` to `value`; the problem with the value, if any.
    mutating func set(_ flag: String, _ value: String) -> String? {
        switch flag {
        case "--calls":
            guard let count = Int(value), (1...10_000_000).contains(count) else { return "--calls takes a number of calls from 1 to 10000000" }
            calls = count
        case "--seed":
            guard let number = UInt64(value) else { return "--seed takes a whole number from 0 to \(UInt64.max)" }
            seed = number
        case "--time":
            guard let time = DurationText.parse(value), time > .zero else { return "--time takes a duration such as 30s or 5m" }
            duration = time
        case "--timeout":
            guard let time = DurationText.parse(value), time > .zero else { return "--timeout takes a duration such as 2s or 500ms" }
            timeout = time
        case "--jobs":
            guard let count = Int(value), (1...256).contains(count) else { return "--jobs takes a number from 1 to 256" }
            jobs = count
        case "--rate":
            let number = value.hasSuffix("/s") ? String(value.dropLast(2)) : value
            guard let perSecond = Double(number), perSecond >= 0.01, perSecond <= 1_000_000 else {
                return "--rate takes calls a second from 0.01 to 1000000, such as 50 or 50/s"
            }
            rate = perSecond
        case "--check":
            for name in value.split(separator: ",") {
                guard let oracle = Oracle(rawValue: String(name)) else {
                    return "unknown check '\(String(name).shortened())': the checks are \(Oracle.allCases.map(\.rawValue).joined(separator: ", "))"
                }
                checks.append(oracle)
            }
        case "--allow-host": allowedHosts.append(value.lowercased())
        case "--report-junit": junitReport = value
        case "--report-json": jsonReport = value
        default: return "unknown fuzz option '\(flag)'"
        }
        return nil
    }
}
