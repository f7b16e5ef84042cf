import Foundation
import Targets

extension Run {
    /// `save FILE`: writes the session as a `.wsh` file that `source FILE` restores
    /// (``SessionWriter``), replacing the file when there is one. FILE is relative to the running
    /// file, as `source` reads it, so a script's `save` and `source` of one name are one file.
    func saveSession(_ arguments: [Word], command: Word) throws {
        guard arguments.count == 1 else {
            throw failure("usage: save FILE", at: arguments.dropFirst().first?.span ?? command.span)
        }
        let given = try expand(arguments[0]).text
        let path = resolvePath(given)
        // `source api.wsh` then `save api.wsh` would put the session in place of the script's calls and checks.
        let header = Data(SessionWriter.header.utf8)
        if let existing = FileHandle(forReadingAtPath: path), let start = try? existing.read(upToCount: header.count),
           !start.isEmpty, start != header {
            throw failure("'\(given.shortened())' is not a file save wrote: not replaced", at: arguments[0].span,
                          notes: ["save to another name, or remove the file first"])
        }
        var writer = SessionWriter(run: self, directory: Self.directory(of: path))
        if let reason = BodyFile.write(Data(writer.write().utf8), to: path) {
            throw failure("cannot write '\(given.shortened())': \(reason)", at: arguments[0].span)
        }
        if !writer.leftOut.isEmpty {
            io.err("note: not saved: \(writer.leftOut.joined(separator: ", ")); the file's comments say why and what to do\n")
        }
    }
}

/// `save`: write the session as a file that source restores (secrets as env lines)
struct SaveCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "save", usage: "save FILE", summary: "write the session as a file that source restores (secrets as env lines)")

    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        previous.count == 1 ? Completion.paths(word, directory: session.directory) : []
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try run.saveSession(arguments, command: command)
    }
}
