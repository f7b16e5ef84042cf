import Foundation
import Targets

extension Run {
    /// `import curl 'curl ...' [as NAME]`, or `import curl curl URL -H ... [as NAME]`: declares
    /// the target ``CurlImport`` writes for the command, as if its declaration had been typed
    /// (`show NAME` prints it); notes name what the target leaves out. The command is one
    /// argument, split as sh splits it, or, when it starts with a bare `curl`, the words as wsh
    /// read them (`'...'` raw as in sh), so that a pasted command needs no quoting of its own.
    func importTarget(_ arguments: [Word], command: Word) throws {
        let usage = "usage: import curl 'curl URL [OPTIONS]' [as NAME]"
        guard arguments.first?.bare == "curl" else { throw failure(usage, at: arguments.first?.span ?? command.span) }
        var commandWords = Array(arguments.dropFirst())
        var name: String?
        if commandWords.count >= 3, commandWords[commandWords.count - 2].bare == "as" {
            let nameWord = commandWords[commandWords.count - 1]
            let text = try expand(nameWord).text
            guard Parser.isTargetName(text) else { throw failure("a target name is ASCII letters, digits, '_' and '-'", at: nameWord.span) }
            name = text
            commandWords.removeLast(2)
        }
        guard let first = commandWords.first, commandWords.count == 1 || first.bare == "curl" else {
            throw failure(usage, at: commandWords.dropFirst().first?.span ?? command.span,
                          notes: ["give the curl command as one quoted argument, or as words after: import curl curl URL ..."])
        }
        let span = first.span.union(commandWords[commandWords.count - 1].span)
        let imported: CurlImport
        do {
            let words = commandWords.count == 1 && first.bare != "curl"
                ? try ShellCommandWords.split(try expand(first).text)
                : try commandWords.map { try expand($0).text }
            imported = try CurlImport(CurlCommand(words: words), name: name, directory: FileManager.default.currentDirectoryPath,
                                      isSecret: { [self] in mask($0) != $0 })
        } catch let error as ShellCommandWords.Failure {
            throw failure("cannot read the curl command: \(error.message)", at: span)
        } catch let error as CurlCommand.Failure {
            throw failure("cannot read the curl command: \(mask(error.message))", at: span)
        } catch let error as CurlImport.Failure {
            throw failure("cannot make a target of the curl command: \(mask(error.message))", at: span)
        }
        try declareWritten(imported.text, source: "<import curl>")
        for note in imported.notes { io.err("note: \(mask(note))\n") }
    }

    /// `import har FILE.har [as PREFIX] [--samples]`: a target per distinct request of the HAR
    /// (``HARImport``), made as `import curl` makes one of the request's curl command, named after
    /// its URL's last segment; `--samples` keeps each status's first answer as a `sample`.
    func importHAR(_ arguments: [Word], command: Word) throws {
        let usage = "usage: import har FILE.har [as PREFIX] [--samples]"
        var words = Array(arguments.dropFirst())
        let samples = words.last?.bare == "--samples"
        if samples { words.removeLast() }
        var prefix = ""
        if words.count == 3, words[1].bare == "as" {
            prefix = try namePrefix(words[2]).map { $0 + "." } ?? ""
            words.removeLast(2)
        }
        guard words.count == 1 else { throw failure(usage, at: words.dropFirst().first?.span ?? command.span) }
        let path = resolvePath(try expand(words[0]).text)
        let bytes = JSONFileBytes.utf8(Array(try readFile(path, at: words[0].span)))
        let har: HARImport
        do {
            har = try HARImport(json: try JSONValue.parse(bytes))
        } catch let error as HARImport.Failure {
            throw failure("cannot import \(Self.displayPath(path)): \(error.message)", at: words[0].span)
        } catch {
            throw failure("cannot import \(Self.displayPath(path)): it is not JSON: \(mask("\(error)"))", at: words[0].span)
        }
        // Names this import gave (two requests of one name are NAME and NAME-2): importing the file
        // again replaces its targets; a target declared elsewhere of one of them is an error (declareWritten).
        var taken = targetsOfOtherImports(than: "<import har \(Self.displayPath(path))>")
        var declared: [String] = []
        for request in har.requests {
            if request.sendsBinary {
                let line = request.curlWords.prefix(3).dropFirst().joined(separator: " ")
                io.err("warning: \(Self.displayPath(path)): a request not declared: \(mask(line).shortened(120)) sends a body that is not text, "
                       + "which a target holds only from a file: declare it with body @FILE\n")
                continue
            }
            do {
                let command = try CurlCommand(words: ["curl"] + request.curlWords)
                let unnamed = try CurlImport(command, name: nil, directory: Self.directory(of: path), keepsAcceptEncoding: har.writtenByWsh)
                let name = TargetRegistry.unusedName(prefix + (request.name.flatMap { Parser.isDottedTargetName($0) ? $0 : nil } ?? unnamed.name),
                                                     among: taken)
                var text = try CurlImport(command, name: name, directory: Self.directory(of: path), keepsAcceptEncoding: har.writtenByWsh).text
                if samples, !request.answers.isEmpty {
                    // A success first: the answer `--stub` and `wsh serve` give unless asked for another.
                    let ordered = request.answers.filter { (200...299).contains($0.status) } + request.answers.filter { !(200...299).contains($0.status) }
                    let lines = ordered.map { "  sample   " + Run.quoted($0.text) + ($0.status == 200 ? "" : " status \($0.status)") }
                    text = String(text.dropLast()) + lines.joined(separator: "\n") + "\n}"
                }
                try declareWritten(text, source: "<import har \(Self.displayPath(path))>")
                taken.insert(name)
                declared.append(name)
                if request.curlWords.contains(where: { $0.contains(Redaction.placeholder) }) {
                    io.err("note: the HAR had masked secrets (\(Redaction.placeholder)) in \(name): each is a parameter its call must give "
                           + "(call \(name) NAME=VALUE, Header:VALUE, a header given whole); one inside a longer query, form or JSON value, or in the path, "
                           + "is sent as \(Redaction.placeholder): edit \(name)\n")
                }
            } catch let error as CurlCommand.Failure {
                io.err("warning: \(Self.displayPath(path)): a request not declared: \(mask(error.message))\n")
            } catch let error as CurlImport.Failure {
                io.err("warning: \(Self.displayPath(path)): a request not declared: \(mask(error.message))\n")
            } catch let diagnostic as Diagnostic {
                io.err("warning: \(Self.displayPath(path)): a request not declared: \(mask(diagnostic.message))\n")
            }
        }
        if !har.invalidHeaderNames.isEmpty {
            io.err("note: headers whose names no request can send left out: \(mask(har.invalidHeaderNames.joined(separator: ", ")).shortened(200))\n")
        }
        forgetTargetsGone(from: "<import har \(Self.displayPath(path))>", shown: Self.displayPath(path), prefix: prefix, declared: Set(declared))
        if !har.notAbsolute.isEmpty {
            let shown = har.notAbsolute.map { $0.isEmpty ? "\"\"" : $0 }.joined(separator: ", ")
            io.err("warning: \(Self.displayPath(path)): \(har.notAbsolute.count) request\(har.notAbsolute.count == 1 ? "" : "s") not declared: "
                   + "a HAR request's URL is absolute (http://HOST/...), not \(mask(shown).shortened(120))\n")
        }
        if har.filePartsAsText > 0 {
            io.err("note: \(har.filePartsAsText) multipart part\(har.filePartsAsText == 1 ? "" : "s") of a file sent as text, the value the HAR holds "
                   + "(a target reads no file a HAR names from this machine): edit the target to send a file (NAME@FILE on its multipart line)\n")
        }
        if samples, har.cutAnswers > 0 {
            io.err("note: \(har.cutAnswers) answer\(har.cutAnswers == 1 ? "" : "s") the HAR holds cut short (its content's comment says so) not kept as a sample\n")
        }
        if !har.leftOut.isEmpty {
            var kinds: [String] = []
            for kind in har.leftOut where !kinds.contains(kind) { kinds.append(kind) }
            io.err("note: \(har.leftOut.count) request\(har.leftOut.count == 1 ? "" : "s") the browser made for the page itself left out "
                   + "(\(kinds.joined(separator: ", ").shortened(120))): a browser's HAR keeps the page's xhr and fetch requests\n")
        }
        if mode == .interactive {
            io.err("\(declared.count) target\(declared.count == 1 ? "" : "s") declared\(declared.isEmpty ? "" : ": " + declared.joined(separator: ", ").shortened(200))\n")
        }
    }
}

extension Run {
    /// The targets another file declared (`import har`, `use postman`, `use http`, `use openapi`):
    /// a request of one of their names is NAME-2 beside them, where a user's own target of that
    /// name is kept with a warning (declareWritten).
    func targetsOfOtherImports(than source: String) -> Set<String> {
        let imports = ["<import har ", "<postman ", "<http ", "<openapi "]
        return Set(session.targets.all.filter { target in
            let file = target.declaration.file.name
            return file != source && imports.contains { file.hasPrefix($0) }
        }.map(\.name))
    }

    /// After a file was loaded again (`use postman`, `import har`): forgets the targets it declared
    /// the time before under `prefix` that it declares no more (a request removed or renamed in
    /// the file), and says which.
    func forgetTargetsGone(from source: String, shown: String, prefix: String, declared: Set<String>) {
        let key = source + "\u{0}" + prefix
        let before = session.importedTargets[key] ?? []
        session.importedTargets[key] = declared
        let gone = before.subtracting(declared).sorted().filter { name in
            session.targets[name]?.declaration.file.name == source && session.targets.forget(name)
        }
        if !gone.isEmpty {
            io.err("note: \(shown): no longer declared by the file, so forgotten: \(mask(gone.joined(separator: ", ")).shortened(200))\n")
        }
    }
}

/// `import`: declare a target from a curl command line (Copy as cURL), or targets from a HAR file
struct ImportCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(
        name: "import", usage: "import curl \"curl URL [OPTIONS]\" [as NAME] | import curl curl URL [OPTIONS] [as NAME] | import har FILE.har [as PREFIX] [--samples]",
        summary: "declare a target from a curl command line (Copy as cURL), or one per distinct request of a HAR file")

    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        if previous.count == 1 { return ["curl", "har"] }
        if previous.count == 2, previous[1] == "har" {
            return Completion.paths(word, directory: session.directory).filter { $0.hasSuffix("/") || $0.hasSuffix(".har") }
        }
        return nil
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        if arguments.first?.bare == "har" { return try run.importHAR(arguments, command: command) }
        try run.importTarget(arguments, command: command)
    }
}
