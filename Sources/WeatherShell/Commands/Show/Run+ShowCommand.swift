import Foundation
import Plugins
import Targets

extension Run {
    /// `show NAME` prints the declaration; `show NAME --curl [ARGS]` and `show NAME --httpie [ARGS]`
    /// a command that sends what `call NAME ARGS` would send (``RequestCommandPrinter``). Both
    /// print what was typed, the session's secrets masked: not what the last call sent as
    /// credentials, which other output masks until the next call, so that `show` prints the same
    /// before and after a call.
    func showTarget(_ arguments: [Word], command: Word) async throws {
        let usage = "usage: show NAME [--curl | --httpie] [key=value...] [Header:value...]"
        guard let nameWord = arguments.first else { throw failure(usage, at: command.span) }
        let declared = try declaredTarget(nameWord)
        let redaction = Redaction(secrets: session.mask.secrets)
        guard arguments.count > 1 else {
            io.out(redaction.mask(declared.sourceText) + "\n")
            // A pack's target follows `set base`: its declaration alone would say another host.
            if declared.fromPack, options.base != nil, let target = try? compiledTarget(declared), !target.baseURL.isEmpty {
                io.out("# under set base, its calls go to \(redaction.maskedURL(target.baseURL)) (set base off: to its own base)\n")
            }
            return
        }
        // The tool's flag may come anywhere after the name (`show t id=7 --curl`), as HTTPie takes flags.
        guard let (toolIndex, tool) = arguments.indices.dropFirst().lazy
                .compactMap({ index in arguments[index].bare.flatMap(Self.commandTool).map { (index, $0) } }).first
        else { throw failure(usage, at: arguments[1].span) }
        let target = try compiledTarget(declared)
        var callWords = Array(arguments.dropFirst())
        callWords.remove(at: toolIndex - 1)
        let (callArguments, argumentWords) = try callArguments(callWords, for: target)
        let request: Request
        do {
            request = try await provider().preparedRequest(target, arguments: callArguments)
        } catch {
            throw diagnostic(for: error, statement: CallStatement(target: nameWord, arguments: callWords, output: nil),
                             argumentWords: argumentWords)
        }
        var printer = RequestCommandPrinter(
            tool: tool, purpose: .run, redaction: redaction, references: environmentReferences,
            bodyFile: bodyFile(of: declared, arguments: callArguments, sending: request.body),
            partFiles: partFiles(target, callArguments))
        // The tools send their own User-Agent for wsh's; one the user set is sent as a header.
        printer.clientHeaders = options.defaultHeaders.filter { $0.name != "User-Agent" || $0.value == ShellOptions.defaultUserAgent }
        let redirectLimit = target.redirectLimit ?? options.follow
        printer.followsRedirects = redirectLimit > 0
        if redirectLimit != ShellOptions.defaultRedirectLimit { printer.redirectLimit = redirectLimit }
        printer.http1Only = options.transport.httpVersion == .http1
        printer.followsTrusted = options.followTrusted && target.redirectLimit == nil
        // How the call reaches the server; a file as the command can name it from here.
        let transport = options.transport
        printer.insecure = transport.insecure
        printer.caCertificateFile = transport.caCertificateFile.map(Run.displayPath)
        printer.clientCertificateFile = transport.clientCertificateFile.map(Run.displayPath)
        printer.clientKeyFile = transport.clientKeyFile.map(Run.displayPath)
        switch transport.proxy {
        case .url(let proxy): printer.proxy = proxy
        case .off: printer.bypassesProxy = true
        case .environment: break
        }
        // plugin auth digest answers a challenge when nothing else gave the request an Authorization.
        if request.header("Authorization") == nil,
           let auth = activePlugins().lazy.compactMap({ $0 as? AuthPlugin }).first(where: { $0.applies(to: request.url) }),
           case .digest(let user, let password) = auth.credential {
            printer.digestCredential = (user, password)
        }
        do {
            let printed = try printer.command(for: request)
            io.out(printed.text + "\n")
            if !printed.encodedReferences.isEmpty {
                let names = printed.encodedReferences.map { "$" + $0 }.joined(separator: ", ")
                io.err("note: \(names) is sent encoded here (percent-encoded or escaped), which the command cannot write as a variable, so it is written ***; fill it in before running\n")
            }
            if printed.maskedSecrets {
                io.err("note: a secret with no environment variable behind it is written ***; give it from one, as in: let token = env API_TOKEN\n")
            }
        } catch {
            throw failure(mask(error.description), at: nameWord.span)
        }
    }

    private static func commandTool(_ option: String) -> RequestCommandPrinter.Tool? {
        switch option {
        case "--curl": .curl
        case "--httpie": .httpie
        default: nil
        }
    }

    /// Secret variables that came from the environment and still hold its value: a printed
    /// command names the variable instead of the value.
    var environmentReferences: [SecretReference] {
        session.variables.names.compactMap { name in
            guard let variable = session.variables[name], variable.isSecret, let environmentName = variable.environmentName,
                  EnvironmentOverlay.value(environmentName) == variable.value else { return nil }
            return SecretReference(value: variable.value, environmentName: environmentName)
        }
    }

    /// The file the body came from, the call's `@FILE` or the target's `body @FILE`, when the
    /// request sends exactly its bytes.
    func bodyFile(of declared: DeclaredTarget, arguments: CallArguments, sending body: Data?) -> String? {
        guard let body else { return nil }
        var candidates = [arguments.body?.source].compactMap { $0 }
        if let field = declared.declaration.fields.last(where: { $0.name == "body" }),
           let word = field.arguments.first, word.parts.first?.quoted == false,
           let text = try? expand(word).text, text.hasPrefix("@") {
            let path = String(text.dropFirst())
            candidates.append(Run.path(path, relativeTo: declared.declaration.file.directory))
        }
        return candidates.first { FileManager.default.contents(atPath: $0) == body }
    }

    /// Every file a multipart part of the call may come from: the target's and the call's.
    private func partFiles(_ target: Target, _ arguments: CallArguments) -> [String] {
        (target.task.bodyParameters.compactMap(\.defaultValue) + arguments.values.map(\.value)).compactMap { value in
            if case .file(let written) = value { return FileReference(written).path }
            return nil
        }
    }
}

/// `show`: print a target's declaration, or a curl or HTTPie command that sends what call would send
struct ShowCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "show", usage: "show NAME [--curl | --httpie] [key=value...] [Header:value...]",
            summary: "print a target's declaration, or a curl or HTTPie command that sends what call would send")

    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        switch previous.count {
        case 1: session.targetNames
        case 2: ["--curl", "--httpie"]
        default: nil
        }
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try await run.showTarget(arguments, command: command)
    }
}
