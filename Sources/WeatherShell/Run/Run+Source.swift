import Foundation
import Targets

extension Run {
    /// `source FILE`: parses the whole file, then runs it in this session.
    /// A relative path resolves against the directory of the file that sources it.
    func source(_ pathWord: Word) async throws {
        let path = resolvePath(try expand(pathWord).text)
        let canonical = Self.canonicalPath(path)
        if loading.contains(.file(canonical)) {
            let files = loading.compactMap { if case .file(let path) = $0 { path } else { nil } }
            let chain = (files.drop { $0 != canonical } + [canonical]).map { Self.displayPath($0) }.joined(separator: " -> ")
            throw failure("'\(Self.displayPath(canonical))' is already being sourced", at: pathWord.span, notes: ["cycle: \(chain)"])
        }
        let contents = try readFile(path, at: pathWord.span)
        if actionContext != nil { return try await runFileInAction(contents: contents, path: path) }
        // Sourced at the prompt, a file's `exit` ends the file, not the session: a test file
        // (which ends in `exit 4`) sourced to debug it would take the session's unsaved work with it.
        guard mode == .interactive, actionContext == nil else {
            return try await runFile(contents: contents, path: path)
        }
        do {
            try await runFile(contents: contents, path: path)
        } catch Halt.exit(let code) {
            // The innermost file sourced said it; the one sourced at the prompt is what it ended.
            if !loading.isEmpty {
                if exitSaidIn == nil { exitSaidIn = Self.displayPath(path) }
            } else {
                exitedSourcedFile = Self.displayPath(path)
            }
            throw Halt.exit(code)
        }
    }

    /// `source FILE` in a reactor action: the file's statements (a `.http` file's requests) are the
    /// action's, so an error in them (one that stops it from parsing too) ends the action and runs
    /// its `catch`, as at the top of its body.
    private func runFileInAction(contents: Data, path: String) async throws {
        loading.append(.file(Self.canonicalPath(path)))
        defer { loading.removeLast() }
        let file = SourceFile(name: Self.displayPath(path), directory: Self.directory(of: path), contents: Array(contents))
        if Self.isJSONFile(path) { throw Self.jsonFileProblem(file) }
        if Self.isHTTPFile(path) { return try await runHTTPRequests(file) }
        let program = try Parser.parse(file)
        let previous = currentFile
        currentFile = file
        defer { currentFile = previous }
        if let problem = checkPluginSettings(program.statements) { throw problem }
        try await executeBlock(program.statements)
    }

    /// Runs a script file: parse it all first, then run it. A `.http` or `.rest` file runs as
    /// the JetBrains and VS Code clients run it (``runHTTPFile(_:)``). Sourcing the file
    /// again while it runs is refused as a cycle, and a file that is not UTF-8 is refused at its
    /// first byte that is not.
    public func runFile(contents: Data, path: String) async throws(Halt) {
        loading.append(.file(Self.canonicalPath(path)))
        defer { loading.removeLast() }
        let file = SourceFile(name: Self.displayPath(path), directory: Self.directory(of: path), contents: Array(contents))
        if Self.isJSONFile(path) { return try report(Self.jsonFileProblem(file)) }
        if Self.isHTTPFile(path) { return try await runHTTPFile(file) }
        try await execute(file)
    }

    /// Whether a path names a JSON file (`.json`, `.har`): a Postman collection or a HAR, say, not statements.
    nonisolated static func isJSONFile(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".json") || path.lowercased().hasSuffix(".har")
    }

    /// The error for a JSON file given to run, with a note on what to do with it.
    nonisolated static func jsonFileProblem(_ file: SourceFile) -> Diagnostic {
        Diagnostic(.runtime, "\(file.name) is JSON: wsh runs .wsh and .http files", notes: [jsonFileNote(file.text, name: file.name)])
    }

    /// What to do with a JSON file given to run, by what it holds: a HAR (`log.entries`), a
    /// Postman collection (`info` and `item`), an OpenAPI document, else each of these.
    nonisolated static func jsonFileNote(_ text: String, name: String) -> String {
        let document = try? JSONValue.parse(Array(text.utf8))
        if document?["log"]?["entries"] != nil { return "a HAR: import har \(name)" }
        if document?["info"] != nil, document?["item"] != nil { return "a Postman collection: use postman \(name), or wsh serve \(name)" }
        if document?["openapi"] != nil || document?["swagger"] != nil { return "an OpenAPI document: use openapi \(name), or wsh serve \(name)" }
        return "a Postman collection: use postman \(name), or wsh serve \(name); a HAR: import har \(name); an OpenAPI document: use openapi \(name)"
    }

    /// Whether a path names a `.http` file (`.http`, or REST Client's `.rest`).
    nonisolated static func isHTTPFile(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".http") || lower.hasSuffix(".rest")
    }

    /// The path with `.`, `..` and symbolic links resolved: what the cycle check compares.
    static func canonicalPath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The file at `path` as a script wsh reads: an error at its first byte that is not UTF-8 or is NUL.
    func readSourceFile(_ path: String, at span: SourceSpan) throws -> SourceFile {
        let file = SourceFile(name: Self.displayPath(path), directory: Self.directory(of: path), contents: Array(try readFile(path, at: span)))
        if let unreadable = file.unreadableText { throw unreadable }
        return file
    }

    /// The bytes of the file at `path` (already resolved); an error at `span` when it is missing,
    /// a directory or cannot be read.
    func readFile(_ path: String, at span: SourceSpan) throws -> Data {
        try checkReadable(path, at: span)
        // Through a handle: `contents(atPath:)` gives nothing for /dev/null or a pipe.
        guard let handle = FileHandle(forReadingAtPath: path) else { throw failure("cannot read \(Self.displayPath(path))", at: span) }
        defer { try? handle.close() }
        do {
            // Nil at once for an empty file or device.
            return try handle.readToEnd() ?? Data()
        } catch {
            throw failure("cannot read \(Self.displayPath(path))", at: span)
        }
    }

    /// Fails at `span`, as ``readFile(_:at:)`` would, unless `path` is a file that can be read;
    /// reads none of it.
    func checkReadable(_ path: String, at span: SourceSpan) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw failure("no such file: \(Self.displayPath(path))", at: span)
        }
        guard !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: path) else {
            throw failure("cannot read \(Self.displayPath(path))", at: span)
        }
    }

    /// A path relative to the running file's directory (or the current directory at the prompt).
    func resolvePath(_ path: String) -> String {
        Self.path(Environment.expandingHome(path), relativeTo: currentFile.directory)
    }

    /// `path` as written in a file in `directory`: itself when absolute, else relative to `directory`.
    nonisolated static func path(_ path: String, relativeTo directory: String) -> String {
        path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
    }

    /// The directory a file is in, `.` for a bare name.
    nonisolated static func directory(of path: String) -> String {
        let directory = FilePaths.directory(of: path)
        return directory.isEmpty ? "." : directory
    }

    /// A path as the user wants to read it: relative to the current directory when it is under it.
    nonisolated static func displayPath(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        if standard.hasPrefix(cwd + "/") { return String(standard.dropFirst(cwd.count + 1)) }
        return standard
    }
}
