import Foundation
import Plugins
import Targets

extension Run {
    /// The `as PREFIX` of an import (`use openapi|http|postman`, `import har`): the prefix its
    /// targets' names get, checked; nil when there is none.
    func namePrefix(_ word: Word?) throws -> String? {
        guard let word else { return nil }
        let text = try expand(word).text
        guard Parser.isDottedTargetName(text) else {
            throw failure("a prefix is ASCII letters, digits, '_', '-' and '.' inside", at: word.span)
        }
        return text
    }

    /// Declares the target an importer wrote (curl, OpenAPI, `.http`, `target NAME from last`), as
    /// if its declaration had been typed: one path from any format to a target. Errors point into
    /// `text`, shown as `source` (`<import curl>`); `show NAME` prints it. It replaces a target
    /// of that name only when `source` declared that one too, unless `replacingAny`; the error
    /// for another's says what to do besides `forget` (`otherwise`).
    func declareWritten(_ text: String, source: String, place: String? = nil, fromPack: Bool = false, replacingAny: Bool = false,
                        otherwise: String = "or import under a prefix (as PREFIX)") throws {
        let file = SourceFile(name: source, directory: currentFile.directory, text: text, place: place)
        guard case .target(let declaration)? = try Parser.parse(file).statements.first?.kind else {
            throw failure("\(source) wrote no target declaration", at: nil)
        }
        // An import replaces what it imported before, or a pack's or document's target (recorded too),
        // never one declared elsewhere (by hand, or made the user's by `edit`).
        if !replacingAny, let name = declaration.name.literal, let existing = session.targets[name], !existing.fromPack,
           existing.declaration.file.name != source {
            let held = existing.declaration.file
            let line = held.location(of: existing.declaration.span.start).line
            throw failure("'\(name)' is already declared (\(held.name):\(line)); forget it first, \(otherwise)", at: nil)
        }
        let previous = currentFile
        currentFile = file
        defer { currentFile = previous }
        try declareTarget(declaration, fromPack: fromPack)
    }

    /// `target NAME { ... }`: reads the sample once and compiles the target now when it has no variables.
    /// A pack's target (`fromPack`, or declared while a pack loads, or with `base URL yields`, as
    /// `save` writes those) yields its host to `set base`.
    func declareTarget(_ declaration: TargetDeclaration, fromPack: Bool = false) throws {
        var declared = DeclaredTarget(declaration: declaration)
        declared.fromPack = fromPack || declared.baseYields || loading.contains { if case .pack = $0 { true } else { false } }
        // Declared again (`edit`, say), an imported target keeps what its document says of it.
        declared.openAPI = session.targets[declared.name]?.openAPI
        let sampleFields = declaration.fields.filter { $0.name == "sample" }
        if sampleFields.allSatisfy({ $0.arguments.allSatisfy { $0.variableNames.isEmpty } }) {
            declared.samples = try readSamples(declaration, file: declaration.file)
        }
        if !declared.dependsOnVariables {
            declared.cached = try TargetCompiler(run: self, file: declaration.file).compile(declared)
        }
        session.targets.declare(declared)
    }

    /// Every `sample` line's answer, in order; two samples with one status are an error (the
    /// second could never be picked).
    func readSamples(_ declaration: TargetDeclaration, file: SourceFile) throws -> [Sample] {
        var samples: [Sample] = []
        for field in declaration.fields where field.name == "sample" {
            let sample = try readSample(field, file: file)
            if samples.contains(where: { $0.status == sample.status }) {
                throw Diagnostic(.runtime, "target '\(declaration.name.literal ?? "")' has two samples with status \(sample.status)",
                                 file: file, span: field.span, notes: ["give the other one another status: sample @FILE status 404"])
            }
            samples.append(sample)
        }
        return samples
    }

    /// One `sample` file's answer, its media type from the file's extension; read at declaration,
    /// or at each call when its words hold variables (expansion happens when a statement runs).
    func readSample(_ field: TargetDeclaration.Field, file: SourceFile) throws -> Sample {
        let pathWord = field.arguments[0]
        var path = try expand(pathWord).text
        var answerStatus = 200
        if field.arguments.count == 3 {
            guard let code = Int(try expand(field.arguments[2]).text), (100...599).contains(code) else {
                throw failure("a sample status is an HTTP status code", at: field.arguments[2].span)
            }
            answerStatus = code
        }
        // As with `body`: `sample @FILE` names a file; `sample '{"id": 1}'` (or "@text" in quotes)
        // is the answer itself, JSON when it parses as JSON (`use openapi` writes examples so).
        guard path.hasPrefix("@"), pathWord.parts.first?.quoted == false else {
            return Sample(status: answerStatus, body: Data(path.utf8), contentType: nil)
        }
        path.removeFirst()
        let contentType = MediaType.known(file: path)
        if let bundled = BundledPacks.file(path, directory: file.directory) {
            return Sample(status: answerStatus, body: bundled, contentType: contentType)
        }
        let resolved = Run.path(path, relativeTo: file.directory)
        // A sample is an answer: one larger than an answer may be (`set max-body`) is refused before it is read.
        var status = stat()
        if let limit = options.maxBody, stat(resolved, &status) == 0, Int(status.st_size) > limit {
            throw Diagnostic(.runtime, "sample file \(Self.displayPath(resolved)) is \(ByteText.text(Int(status.st_size))), "
                             + "over the body limit of \(ByteText.text(limit))", file: file, span: pathWord.span,
                             notes: ["raise the limit first: set max-body \(SizeText.text(Int(status.st_size))), or set max-body off"])
        }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            throw Diagnostic(.runtime, "cannot read sample file \(Self.displayPath(resolved))", file: file, span: pathWord.span)
        }
        return Sample(status: answerStatus, body: data, contentType: contentType)
    }

    /// The `Target` for a call: the cached one, or the declaration compiled with today's variables.
    /// A pack's target goes to the host of `set base` when one is set, keeping its own path, so
    /// one line points a whole pack at a mock server (`wsh serve`) or a staging host.
    func compiledTarget(_ declared: DeclaredTarget) throws -> Target {
        var target = try declared.cached ?? TargetCompiler(run: self, file: declared.declaration.file).compile(declared)
        if declared.fromPack, let base = options.base, let moved = BaseURL.origin(of: base, withPathOf: target.baseURL) {
            target.baseURL = moved
        }
        return target
    }

    /// The declared target of that name, or an error with did-you-mean.
    func declaredTarget(_ word: Word) throws -> DeclaredTarget {
        let name = try expand(word).text
        if let target = session.targets[name] { return target }
        var notes: [String] = []
        if let guess = Suggestion.closest(to: name, in: session.targets.names) { notes.append("did you mean '\(guess)'?") }
        notes.append(session.targets.names.isEmpty ? "no targets are declared; declare one with 'target NAME { ... }' or load a pack with 'use open-meteo'"
                                           : "targets: \(session.targets.names.joined(separator: ", "))")
        throw failure("unknown target '\(name.shortened())'", at: word.span, notes: notes)
    }

    /// `targets [PATTERN]`: name, method, URL and doc of each target whose name matches.
    func listTargets(_ arguments: [Word]) throws {
        guard arguments.count <= 1 else { throw failure("usage: targets [PATTERN]", at: arguments[1].span) }
        let pattern = try arguments.first.map { try expand($0).text }
        let matching = session.targets.all.filter { target in
            guard let pattern else { return true }
            if pattern.contains("*") || pattern.contains("?") { return fnmatch(pattern, target.name, 0) == 0 }
            return target.name.contains(pattern)
        }
        let rows = matching.map { declared -> (name: String, method: String, url: String, doc: String) in
            guard let target = try? compiledTarget(declared) else { return (declared.name, "?", "(depends on variables)", "") }
            // As every URL is written: a password and query values named like secrets are `***`.
            let url = redaction.maskedURL((target.baseURL.isEmpty ? options.base ?? "" : target.baseURL) + target.path)
            return (declared.name, target.method.rawValue, url, target.doc)
        }
        let nameWidth = rows.map(\.name.count).max() ?? 0
        let urlWidth = rows.map(\.url.count).max() ?? 0
        for row in rows {
            let line = "\(row.name.padding(nameWidth))  \(row.method.padding(7)) \(row.doc.isEmpty ? row.url : row.url.padding(urlWidth) + "  " + row.doc)"
            io.out(mask(line) + "\n")
        }
    }

    func forgetTarget(_ arguments: [Word], command: Word) throws {
        guard arguments.count == 1 else { throw failure("usage: forget NAME", at: arguments.dropFirst().first?.span ?? command.span) }
        let declared = try declaredTarget(arguments[0])
        _ = session.targets.forget(declared.name)
    }

    /// Masks env secrets plus sensitive headers and query keys, for everything that shows a request.
    var redaction: Redaction { Redaction(secrets: session.secretsNow) }
}

/// `targets`: list targets
struct TargetsCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "targets", usage: "targets [PATTERN]", summary: "list targets")

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try run.listTargets(arguments)
    }
}

/// `forget`: remove a target
struct ForgetCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "forget", usage: "forget NAME", summary: "remove a target")

    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        previous.count == 1 ? session.targetNames : []
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try run.forgetTarget(arguments, command: command)
    }
}
