import Foundation
import OpenAPI
import Targets

extension Run {
    /// `openapi export FILE.yaml|FILE.json`: the session's targets as an OpenAPI 3.1 document,
    /// YAML unless the file name ends in `.json`. A target whose fields depend on variables is
    /// written with today's values; one holding a secret is left out with a note, and
    /// credentials typed as text are left out, with a note (``OpenAPIExporter/operationTree(_:credentials:)``).
    func openAPICommand(_ arguments: [Word], command: Word) throws {
        guard arguments.count == 2, arguments[0].bare == "export" else {
            throw failure("usage: openapi export FILE.yaml|FILE.json", at: arguments.first?.span ?? command.span)
        }
        let fileWord = arguments[1]
        let path = resolvePath(try expand(fileWord).text)
        var entries: [OpenAPIExporter.Entry] = []
        for declared in session.targets.all {
            let target = try compiledTarget(declared)
            entries.append(OpenAPIExporter.Entry(target: target, operation: declared.openAPI?.operation, schemas: declared.openAPI?.schemas))
        }
        let format: OpenAPIExporter.Format = path.lowercased().hasSuffix(".json") ? .json : .yaml
        // A secret in a target (an env variable in a header, say) must not reach the file: that
        // target is left out, with a note naming it; the others are written.
        var withSecrets: [String] = []
        entries.removeAll { entry in
            guard let written = try? OpenAPIExporter.export([entry], format: format).0, mask(written) != written else { return false }
            withSecrets.append(entry.target.name)
            return true
        }
        let (text, notes, credentials): (String, [String], [String])
        do {
            (text, notes, credentials) = try OpenAPIExporter.export(entries, format: format)
        } catch {
            throw failure("cannot export: \(mask(error.message))", at: fileWord.span)
        }
        guard mask(text) == text else {
            throw failure("cannot export: the document would hold a secret (a variable from env), which is not written to files", at: fileWord.span)
        }
        for name in withSecrets {
            io.err("note: target '\(mask(name))' is not exported: it holds a secret (a variable from env), which is not written to files\n")
        }
        if let reason = BodyFile.write(Data(text.utf8), to: path) {
            throw failure("cannot write '\(Self.displayPath(path))': \(reason)", at: fileWord.span)
        }
        for note in notes { io.err("note: \(mask(note))\n") }
        if !credentials.isEmpty {
            io.err("note: credentials typed as text are not written, to be given when calling: \(mask(credentials.joined(separator: "; ")))\n")
        }
        if mode == .interactive { io.err("\(entries.count - notes.count) targets written to \(Self.displayPath(path))\n") }
    }
}

/// `openapi`: write the session's targets as an OpenAPI 3.1 document
struct OpenAPICommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "openapi", usage: "openapi export FILE.yaml|FILE.json", summary: "write the session's targets as an OpenAPI 3.1 document")

    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        if previous.count == 1 { return ["export"] }
        if previous.count == 2, previous[1] == "export" { return Completion.paths(word, directory: session.directory) }
        return []
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try run.openAPICommand(arguments, command: command)
    }
}
