import ArgumentParser

extension LaunchOptions {
    /// What swift-argument-parser makes of a command line (``fullParse(_:)``).
    public enum FullParse: Equatable, Sendable {
        /// Start the shell with these options.
        case run(LaunchOptions)
        /// Write this text and a newline to stdout and exit 0: `--help`, `--version`.
        case exit(output: String)
        /// Write this text and a newline to stderr and exit 1: a usage error, with the usage.
        case usageError(String)
    }

    /// The command line: a request verb (`wsh get URL`, `wsh PROPFIND URL`, `wsh request PROPFIND
    /// URL`), `serve`, `test`, or the shell's own
    /// flags, with `--help`, `--version` and the messages for usage errors.
    public static func fullParse(_ arguments: [String]) -> FullParse {
        let arguments = CommandLineRequest.withoutRequestWord(arguments)
        if let first = arguments.first, CommandLineRequest.isVerb(first) { return .run(LaunchOptions(request: arguments)) }
        if arguments == ["--experimental-dump-help"] { return .exit(output: ManualDump.text) }
        if arguments.first == "serve" { return serveParse(Array(arguments.dropFirst())) }
        if arguments.first == "test" { return testParse(Array(arguments.dropFirst())) }
        if arguments.first == "fuzz" { return fuzzParse(Array(arguments.dropFirst())) }
        if arguments.first == "load" { return loadParse(Array(arguments.dropFirst())) }
        do {
            let parsed = try WSHCommand.parse(arguments)
            if parsed.command != nil, parsed.file != nil {
                throw ValidationError("-c and FILE cannot be used together")
            }
            var options = LaunchOptions(file: parsed.file, command: parsed.command, assignments: parsed.variables + parsed.assignments,
                                        stub: parsed.stub, noRC: parsed.noRC)
            options.environment = parsed.environment
            options.secretAssignments = parsed.secrets
            return .run(options)
        } catch {
            let message = WSHCommand.fullMessage(for: error)
            return WSHCommand.exitCode(for: error) == .success ? .exit(output: message) : .usageError(message)
        }
    }
}

extension LaunchOptions {
    /// `wsh SUBCOMMAND ...` read by `Command`, then made into options by `options`; its help, or
    /// its usage error with the usage, as swift-argument-parser says them.
    static func subcommandParse<Command: ParsableCommand>(_ type: Command.Type, _ arguments: [String],
                                                          _ options: (Command) throws -> LaunchOptions) -> FullParse {
        do {
            return .run(try options(try Command.parse(arguments)))
        } catch {
            let message = Command.fullMessage(for: error)
            return Command.exitCode(for: error) == .success ? .exit(output: message) : .usageError(message)
        }
    }

    /// `wsh fuzz ...`.
    static func fuzzParse(_ arguments: [String]) -> FullParse {
        subcommandParse(FuzzCommand.self, arguments) { parsed in
            var options = LaunchOptions(noRC: true)
            options.fuzz = (parsed.files, try parsed.options)
            options.environment = parsed.environment
            return options
        }
    }

    /// `wsh load ...`.
    static func loadParse(_ arguments: [String]) -> FullParse {
        subcommandParse(LoadCommand.self, arguments) { parsed in
            var options = LaunchOptions(noRC: true)
            options.load = try parsed.options
            options.environment = parsed.environment
            return options
        }
    }

    /// `wsh serve ...`.
    static func serveParse(_ arguments: [String]) -> FullParse {
        subcommandParse(ServeCommand.self, arguments) { parsed in
            var options = LaunchOptions(stub: parsed.stub, noRC: true)
            options.serve = (parsed.files, parsed.settings)
            options.environment = parsed.environment
            return options
        }
    }
}
