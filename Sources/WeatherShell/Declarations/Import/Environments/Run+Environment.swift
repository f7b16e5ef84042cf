import Foundation

/// The environment `set env NAME` chose: its name, where it was read, and the variables it set.
struct SelectedEnvironment {
    var name: String
    var directory: String
    var values: [EnvironmentFiles.Value]
}

extension Run {
    /// Where `set env`, `env` and Tab look for environment files: beside the `.http` file or
    /// collection last used, when environment files are there (JetBrains and Postman keep them
    /// beside the requests), else in the directory of the file being run.
    var environmentDirectory: String {
        if let used = session.requestsFileDirectory, !EnvironmentFiles.names(in: used).isEmpty { return used }
        return currentFile.directory
    }

    /// `set env NAME` (`--env NAME`; `off` for none): sets the environment's variables, read from
    /// the files in `directory` (``EnvironmentFiles``), as the session's; its secrets are masked
    /// from then on. The variables of the environment chosen before go, unless set again since.
    /// A `--var` of the same name wins.
    func selectEnvironment(_ name: String, directory: String, at span: SourceSpan?) throws {
        var values: [EnvironmentFiles.Value] = []
        if name != "off" {
            do {
                guard let found = try EnvironmentFiles.values(of: name, in: directory) else {
                    let known = EnvironmentFiles.names(in: directory)
                    let dotenv = FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(".env"))
                    var notes = [known.isEmpty ? "no environment file is in \(Self.displayPath(directory)): "
                        + "\(EnvironmentFiles.publicFile), \(EnvironmentFiles.privateFile), \(EnvironmentFiles.settingsFile) or NAME.env"
                        + (dotenv ? " (its .env holds values for every environment: a .http file reads them without --env)" : "")
                        : "environments: \(known.joined(separator: ", "))"]
                    if let guess = Suggestion.closest(to: name, in: known) { notes.insert("did you mean '\(guess)'?", at: 0) }
                    throw failure("no environment named '\(name)'", at: span, notes: notes)
                }
                values = found
            } catch let error as EnvironmentFiles.Failure {
                throw failure(error.message, at: span)
            }
        }
        for old in session.environment?.values ?? [] where session.variables[old.name]?.value == old.value {
            session.variables[old.name] = nil
        }
        for value in values where !session.commandLineNames.contains(value.name) {
            var variable = Variable(value: value.value, isSecret: value.isSecret)
            variable.environmentFile = value.source
            session.variables[value.name] = variable
            if value.isSecret { session.mask.add(value.value) }
        }
        session.environment = name == "off" ? nil : SelectedEnvironment(name: name, directory: directory, values: values)
        options.environment = session.environment?.name
        setFileVariablesAgain()
    }

    /// `env`: the environments of ``environmentDirectory``'s files, the chosen one marked, and the
    /// variables it set with the file each came from; secrets as `***`.
    func listEnvironments() {
        let directory = session.environment?.directory ?? environmentDirectory
        let names = EnvironmentFiles.names(in: directory)
        if names.isEmpty, session.environment == nil {
            io.out("no environments: none of \(EnvironmentFiles.publicFile), \(EnvironmentFiles.privateFile), "
                   + "\(EnvironmentFiles.settingsFile) or NAME.env is in \(Self.displayPath(directory))\n")
            return
        }
        for name in names { io.out((name == session.environment?.name ? "* " : "  ") + name + "\n") }
        for value in session.environment?.values ?? [] {
            io.out("  \(value.name) = \(value.isSecret ? "***" : mask(value.value))  (\(value.source))\n")
        }
    }
}

/// `env`: list the environments of http-client.env.json, REST Client's settings and NAME.env files
struct EnvCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "env", usage: "env", summary: "list the environments (set env NAME chooses one) and the variables the chosen one set")

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        if let extra = arguments.first { throw run.failure("usage: env (choose one with: set env NAME)", at: extra.span) }
        run.listEnvironments()
    }
}
