import Foundation

extension Run {
    /// `import curl 'curl ...' [as NAME]`: declares the target ``CurlImport`` writes for the
    /// command, as if its declaration had been typed (`show NAME` prints it); notes name what
    /// the target leaves out.
    func importTarget(_ arguments: [Word], command: Word) throws {
        let usage = "usage: import curl 'curl URL [OPTIONS]' [as NAME]"
        guard arguments.first?.bare == "curl" else { throw failure(usage, at: arguments.first?.span ?? command.span) }
        guard arguments.count == 2 || (arguments.count == 4 && arguments[2].bare == "as") else {
            throw failure(usage, at: arguments.count > 2 ? arguments[2].span : command.span,
                          notes: ["the curl command is one argument: quote it whole"])
        }
        let commandWord = arguments[1]
        var name: String?
        if arguments.count == 4 {
            let text = try expand(arguments[3]).text
            guard Parser.isTargetName(text) else { throw failure("a target name is letters, digits, '_' and '-'", at: arguments[3].span) }
            name = text
        }
        let imported: CurlImport
        do {
            let words = try ShellCommandWords.split(try expand(commandWord).text)
            imported = try CurlImport(CurlCommand(words: words), name: name, directory: FileManager.default.currentDirectoryPath)
        } catch let error as ShellCommandWords.Failure {
            throw failure("cannot read the curl command: \(error.message)", at: commandWord.span)
        } catch let error as CurlCommand.Failure {
            throw failure("cannot read the curl command: \(mask(error.message))", at: commandWord.span)
        } catch let error as CurlImport.Failure {
            throw failure("cannot make a target of the curl command: \(mask(error.message))", at: commandWord.span)
        }
        let file = SourceFile(name: "<import curl>", directory: currentFile.directory, text: imported.text)
        let program = try Parser.parse(file)
        guard case .target(let declaration)? = program.statements.first?.kind else {
            throw failure("cannot make a target of the curl command", at: commandWord.span)
        }
        let previous = currentFile
        currentFile = file
        defer { currentFile = previous }
        try declareTarget(declaration)
        for note in imported.notes { io.err("note: \(mask(note))\n") }
    }
}
