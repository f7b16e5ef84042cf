import Foundation

/// What `edit` opens: a declared target or a declared reactor, as written.
enum EditSubject {
    case target(DeclaredTarget)
    case reactor(ReactorDeclaration)

    var kind: String {
        switch self {
        case .target: "target"
        case .reactor: "reactor"
        }
    }

    var name: String {
        switch self {
        case .target(let target): target.name
        case .reactor(let declaration): declaration.name.literal ?? ""
        }
    }

    /// The declaration as it was written, comments and layout included.
    var text: String {
        switch self {
        case .target(let target): target.sourceText
        case .reactor(let declaration): declaration.file.text(declaration.span.start..<declaration.span.end)
        }
    }

    /// Where relative paths in the declaration (`sample @FILE`, `body @FILE`) resolve: the
    /// directory of the file that declared it, which the edited text keeps.
    var directory: String {
        switch self {
        case .target(let target): target.declaration.file.directory
        case .reactor(let declaration): declaration.file.directory
        }
    }
}

extension Run {
    /// `edit [target|reactor] NAME`: writes the declaration to a temporary `.wsh` file, opens it in
    /// `$VISUAL`, else `$EDITOR`, else `vi`, on the terminal and in wsh's process group, and when
    /// the editor exits 0 with the file changed, declares it again from the file. The file must
    /// hold that one declaration, of the same name. Its errors point into the file; at a terminal
    /// the user is asked whether to edit again (the file as they left it), elsewhere the error
    /// stands and nothing changes.
    func editDeclaration(_ arguments: [Word], command: Word) async throws {
        let subject = try editSubject(arguments, command: command)
        let original = subject.text + "\n"
        guard mask(original) == original else {
            throw failure("cannot edit \(subject.kind) '\(subject.name)': its declaration holds a secret's value, which is not written to files",
                          at: arguments.last?.span ?? command.span, notes: ["declare it again with the secret as a variable ($NAME), as save asks"])
        }
        let (directory, path) = try makeEditFile(for: subject, text: original)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let editor = Self.editorCommand()
        while true {
            io.flush()
            // The editor command is the user's shell text (`code -w`); the path is `$1`, never spliced
            // into it. Ctrl-C is the editor's while it runs.
            let status = try await InterruptHandler.leavingKeysToProgram {
                try await ShellCommandPipe.runOnTerminal(editor + " \"$1\"", arguments: [path])
            }
            guard status == 0 else {
                throw failure("the editor '\(editor.shortened())' exited with status \(status); \(subject.kind) '\(subject.name)' is unchanged",
                              at: command.span)
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw failure("cannot read \(path) after the editor: \(subject.kind) '\(subject.name)' is unchanged", at: command.span)
            }
            let text = String(decoding: data, as: UTF8.self)
            guard text != original else {
                io.err("\(subject.kind) '\(mask(subject.name))' is unchanged: the file was not changed\n")
                return
            }
            do {
                try redeclare(subject, from: SourceFile(name: path, directory: subject.directory, text: text))
                return
            } catch let diagnostic as Diagnostic {
                guard TerminalQuestion.canAsk else { throw diagnostic }
                io.err(diagnostic.rendered(mask: { self.mask($0) }))
                io.flush()
                let again = try await TerminalQuestion.ask("edit again? [Y/n] ") { ShellIO.writeAll(STDERR_FILENO, Array($0.utf8)) }
                guard again == true else {
                    throw Diagnostic(.runtime, "edit abandoned: \(subject.kind) '\(subject.name)' is unchanged")
                }
            }
        }
    }

    /// The target or declared reactor `edit` names; a target first when both have the name,
    /// unless `edit reactor NAME` says otherwise.
    private func editSubject(_ arguments: [Word], command: Word) throws -> EditSubject {
        let usage = "usage: edit NAME, edit target NAME or edit reactor NAME"
        guard let nameWord = arguments.last, arguments.count <= 2 else {
            throw failure(usage, at: arguments.dropFirst(2).first?.span ?? command.span)
        }
        var kind: String?
        if arguments.count == 2 {
            kind = try expand(arguments[0]).text
            guard kind == "target" || kind == "reactor" else { throw failure(usage, at: arguments[0].span) }
        }
        let name = try expand(nameWord).text
        if kind != "reactor", let target = session.targets[name] { return .target(target) }
        if kind != "target", let reactor = session.reactors[name] as? DeclaredReactorCommand { return .reactor(reactor.declaration) }
        if kind != "target", BuiltInReactor.named(name) != nil {
            throw failure("'\(name)' is built into wsh: it has no declaration to edit", at: nameWord.span)
        }
        let reactors = session.reactorOrder.filter { session.reactors[$0] is DeclaredReactorCommand }
        let candidates = (kind == "reactor" ? [] : session.targets.names) + (kind == "target" ? [] : reactors)
        var notes: [String] = []
        if let guess = Suggestion.closest(to: name, in: candidates) { notes.append("did you mean '\(guess)'?") }
        if candidates.isEmpty {
            notes.append("nothing is declared to edit: declare a target with 'target NAME { ... }' or load a pack with 'use open-meteo'")
        } else {
            notes.append("'targets' lists the targets")
        }
        let what = kind ?? "target or reactor"
        throw failure("no \(what) named '\(name.shortened())'", at: nameWord.span, notes: notes)
    }

    /// A private directory (mkdtemp: mode 0700) under `$TMPDIR` holding `NAME.wsh` with `text`.
    private func makeEditFile(for subject: EditSubject, text: String) throws -> (directory: String, path: String) {
        let template = (FileManager.default.temporaryDirectory.path as NSString).appendingPathComponent("wsh-edit-XXXXXX")
        var buffer = Array(template.utf8CString)
        guard mkdtemp(&buffer) != nil else {
            throw failure("cannot make a directory for the file to edit: \(String(cString: strerror(errno)).lowercased())", at: nil)
        }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let safeName = String(subject.name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        let path = (directory as NSString).appendingPathComponent(safeName + ".wsh")
        if let reason = BodyFile.write(Data(text.utf8), to: path) {
            try? FileManager.default.removeItem(atPath: directory)
            throw failure("cannot write the file to edit, \(path): \(reason)", at: nil)
        }
        return (directory, path)
    }

    /// `$VISUAL`, else `$EDITOR`, else `vi`, as shell text: `code -w` runs `code` with `-w`.
    nonisolated static func editorCommand(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        for key in ["VISUAL", "EDITOR"] {
            if let value = environment[key], !value.trimmingCharacters(in: .whitespaces).isEmpty { return value }
        }
        return "vi"
    }

    /// Declares `subject` again from the edited `file`, which must hold its one declaration, of
    /// the same kind and name; its errors, and the declaration's, point into the file.
    private func redeclare(_ subject: EditSubject, from file: SourceFile) throws {
        let program = try Parser.parse(file)
        guard let first = program.statements.first else {
            throw Diagnostic(.runtime, "the file declares nothing: it must declare \(subject.kind) '\(subject.name)'",
                             file: file, span: SourceSpan(start: 0, end: 0))
        }
        let name: Word
        switch (subject, first.kind) {
        case (.target, .target(let declaration)): name = declaration.name
        case (.reactor, .reactor(let declaration)): name = declaration.name
        default:
            throw Diagnostic(.runtime, "the file must declare \(subject.kind) '\(subject.name)'", file: file, span: first.commandSpan)
        }
        guard name.literal == subject.name else {
            throw Diagnostic(.runtime, "the file declares \(subject.kind) '\((name.literal ?? "").shortened())', not '\(subject.name)'",
                             file: file, span: name.span,
                             notes: ["edit keeps the name: to declare another \(subject.kind), type its declaration at the prompt"])
        }
        if let extra = program.statements.dropFirst().first {
            throw Diagnostic(.runtime, "the file may hold only the declaration of \(subject.kind) '\(subject.name)'",
                             file: file, span: extra.commandSpan)
        }
        let previous = currentFile
        currentFile = file
        defer { currentFile = previous }
        switch first.kind {
        case .target(let declaration): try declareTarget(declaration)
        case .reactor(let declaration): try declareReactor(declaration)
        default: break
        }
    }
}

/// `edit`: change a target's or reactor's declaration in $VISUAL or $EDITOR
struct EditCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "edit", usage: "edit [target|reactor] NAME", summary: "change a target's or reactor's declaration in $VISUAL or $EDITOR")

    /// A target or declared reactor, or `target` and `reactor` for a name both have.
    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        switch (previous.count, previous.last) {
        case (1, _): session.targetNames + session.declaredReactors.filter { !session.targetNames.contains($0) }
        case (2, "target"): session.targetNames
        case (2, "reactor"): session.declaredReactors
        default: []
        }
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try await run.editDeclaration(arguments, command: command)
    }
}
