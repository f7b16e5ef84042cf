import Foundation

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
            guard Parser.isTargetName(text) else { throw failure("a target name is letters, digits, '_' and '-'", at: nameWord.span) }
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
            imported = try CurlImport(CurlCommand(words: words), name: name, directory: FileManager.default.currentDirectoryPath)
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
}

/// `import`: declare a target from a curl command line (Copy as cURL)
struct ImportCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "import", usage: "import curl \"curl URL [OPTIONS]\" [as NAME] | import curl curl URL [OPTIONS] [as NAME]", summary: "declare a target from a curl command line (Copy as cURL)")

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try run.importTarget(arguments, command: command)
    }
}
