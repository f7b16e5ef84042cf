import Foundation

extension Run {
    /// `wsh serve FILE.wsh` and `wsh fuzz FILE.wsh`: runs the file's declarations and settings
    /// (targets, reactors, `set`, `plugin`, `use`, `import`, `env`, `source`, a `let` of a value
    /// or an environment variable), not its calls, captures and checks: a test file's creates and
    /// deletes are not sent, past fuzz's host and method rules, before the work asked for. A note
    /// says how many statements were left out.
    func runDeclarations(contents: Data, path: String) async throws(Halt) {
        loading.append(.file(Self.canonicalPath(path)))
        defer { loading.removeLast() }
        let file = SourceFile(name: Self.displayPath(path), directory: Self.directory(of: path), contents: Array(contents))
        let program: Program
        do {
            program = try Parser.parse(file)
        } catch {
            try report(error)
            return
        }
        let declarations = program.statements.filter(Self.declares)
        if declarations.count < program.statements.count {
            let left = program.statements.count - declarations.count
            io.err("note: \(file.name): \(left) statement\(left == 1 ? "" : "s") left out (calls, captures, checks): only its declarations and settings are run\n")
        }
        try await execute(Program(file: program.file, statements: declarations))
    }

    /// Whether `statement` declares or sets something rather than calling: ``LoadRun/isSetup(_:)``'s,
    /// and a `let` of a value or an environment variable (a capture of an answer needs a call).
    static func declares(_ statement: Statement) -> Bool {
        if LoadRun.isSetup(statement) { return true }
        if case .assign(_, let value) = statement.kind, case .query = value { return false }
        if case .assign = statement.kind { return true }
        return false
    }
}
