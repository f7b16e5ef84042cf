extension LaunchOptions {
    /// What the command line asks for when it takes no help, usage errors or flag spellings
    /// beyond the plain forms; nil sends it to swift-argument-parser, which owns the full
    /// grammar, `--help` and the messages. It saves that parser's start-up (reflection over
    /// the command's properties, about a millisecond) on every plain run of wsh.
    public enum QuickParse: Equatable, Sendable {
        case run(LaunchOptions)
        case version
    }

    public static func quickParse(_ arguments: [String]) -> QuickParse? {
        if arguments == ["--version"] { return .version }
        if let first = arguments.first, CommandLineRequest.isVerb(first) { return .run(LaunchOptions(request: arguments)) }
        // `wsh serve` has a grammar of its own, which swift-argument-parser reads.
        if arguments.first == "test" { return quickTestWorkerParse(arguments).map(QuickParse.run) }
        if arguments.first == "serve" { return nil }
        var options = LaunchOptions()
        var index = 0
        var positional: [String] = []
        var variables: [String] = []
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-c":
                // swift-argument-parser takes only a value after `-c`: `-c --stub` is its usage error.
                guard options.command == nil, index + 1 < arguments.count, isValue(arguments[index + 1]) else { return nil }
                options.command = arguments[index + 1]
                index += 2
                continue
            case "--var":
                guard index + 1 < arguments.count, isValue(arguments[index + 1]) else { return nil }
                variables.append(arguments[index + 1])
                index += 2
                continue
            case "--stub" where !options.stub: options.stub = true
            case "--norc" where !options.noRC: options.noRC = true
            case "--":
                positional += arguments[(index + 1)...]
                index = arguments.count
                continue
            default:
                guard isValue(argument) else { return nil }
                positional.append(argument)
            }
            index += 1
        }
        if let file = positional.first {
            guard options.command == nil else { return nil }
            options.file = file
            options.assignments = Array(positional.dropFirst())
        }
        options.assignments = variables + options.assignments
        return .run(options)
    }

    /// Whether swift-argument-parser reads `argument` as a value rather than a flag: `-` alone is one.
    private static func isValue(_ argument: String) -> Bool {
        !argument.hasPrefix("-") || argument == "-"
    }
}

