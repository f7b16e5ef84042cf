import Foundation
import OpenAPI
import Targets

extension Run {
    /// `use openapi FILE|URL [as PREFIX]`: one target per operation of the document, declared as
    /// if its declaration had been typed (`show NAME` prints it), with what the document says of
    /// it for help, completion and `expect schema`. Problems in the document are warnings naming
    /// their JSON pointer; the rest is imported. Notes say how the API authenticates.
    func useOpenAPI(_ arguments: [Word], command: Word) async throws {
        let sourceWord = arguments[1]
        let source = try expand(sourceWord).text
        let prefix = try namePrefix(arguments.count == 4 ? arguments[3] : nil)
        var path: String?
        let document: ImportedDocument
        do {
            if OpenAPIImporter.isURL(source) {
                document = try await importFetched(try await fetchDocument(source, at: sourceWord.span), url: source, prefix: prefix,
                                                   at: sourceWord.span)
            } else {
                let resolved = resolvePath(source)
                let bytes = Array(try readFile(resolved, at: sourceWord.span))
                path = URL(fileURLWithPath: resolved).standardizedFileURL.path
                document = try OpenAPIImporter.importDocument(bytes, path: path, prefix: prefix)
            }
        } catch let error as OpenAPIImportError {
            throw failure("cannot import \(source.shortened()): \(mask(error.message))", at: sourceWord.span)
        }
        let shownSource = path.map { Self.displayPath($0) } ?? source
        for warning in document.warnings {
            let text = "\(mask(shownSource))#\(mask(warning.description))"
            io.err("warning: \(text)\n")
            reporter?.report(.warning(text))
        }
        var declared = 0
        for operation in document.operations {
            do {
                // As a pack's, an imported target's host yields to `set base` (a mock, a staging host).
                try declareWritten(operation.declaration, source: "<openapi \(shownSource)>", fromPack: true)
            } catch let diagnostic as Diagnostic {
                let text = "\(mask(shownSource))#\(operation.pointer): not declared: \(mask(diagnostic.message))"
                io.err("warning: \(text)\n")
                reporter?.report(.warning(text))
                continue
            }
            if var target = session.targets[operation.name] {
                target.openAPI = OpenAPIOperation(operation: operation, schemas: document.schemas, source: shownSource)
                session.targets.declare(target)
                declared += 1
            }
        }
        for note in document.notes { io.err("note: \(mask(note))\n") }
        if mode == .interactive {
            let title = document.title.isEmpty ? "" : " of '\(mask(document.title))'"
            io.err("\(declared) target\(declared == 1 ? "" : "s")\(title) declared: 'targets' lists them, 'help NAME' shows one\n")
        }
    }

    /// The document fetched from `url`, with the documents its `$ref`s name fetched too, resolved
    /// against `url` as a local file's refs are against its path: each round imports it with the
    /// documents fetched so far, then fetches those it asked for, until it asks for no new one
    /// (at most `mostReferencedDocuments`). Only `http` and `https` URLs are fetched; a ref that
    /// cannot be is warned by the import, as a local file that cannot be read is.
    private func importFetched(_ bytes: [UInt8], url: String, prefix: String?, at span: SourceSpan) async throws -> ImportedDocument {
        final class Fetched {
            var documents: [String: [UInt8]?] = [:]
            var asked: [String] = []
        }
        let fetched = Fetched()
        while true {
            fetched.asked = []
            let document = try OpenAPIImporter.importDocument(bytes, path: url, prefix: prefix) { name in
                if let known = fetched.documents[name] { return known }
                if !fetched.asked.contains(name) { fetched.asked.append(name) }
                return nil
            }
            guard !fetched.asked.isEmpty, fetched.documents.count < Self.mostReferencedDocuments else { return document }
            for name in fetched.asked {
                // Only from where the document came: a fetch goes through the plugins (an auth
                // plugin's credential), so a document may not send them to a host of its choosing.
                guard OpenAPIImporter.isURL(name), fetched.documents.count < Self.mostReferencedDocuments else {
                    fetched.documents[name] = .some(nil)
                    continue
                }
                guard Redirect.origin(of: name) == Redirect.origin(of: url) else {
                    io.err("warning: \(mask(redaction.maskedURL(name))) is not fetched: a $ref is fetched only from the document's own scheme, host and port\n")
                    fetched.documents[name] = .some(nil)
                    continue
                }
                do {
                    fetched.documents[name] = .some(try await fetchDocument(name, at: span))
                } catch let error as Diagnostic {
                    io.err("warning: \(mask(error.message))\n")
                    fetched.documents[name] = .some(nil)
                }
            }
        }
    }

    /// How many documents the `$ref`s of a document from the network may fetch.
    static let mostReferencedDocuments = 100

    /// The document at `url`, fetched as a call is (plugins, proxy and TLS settings apply).
    private func fetchDocument(_ url: String, at span: SourceSpan) async throws -> [UInt8] {
        var target = Target(name: "use openapi")
        target.baseURL = url
        target.path = ""
        target.headers = [Header(name: "Accept", value: "application/yaml, application/json;q=0.9, */*;q=0.8")]
        var provider = provider()
        provider.stubBehavior = .never
        // Reading a document is no call of the file's: the rules `wsh fuzz` and `wsh serve` hold
        // their files' calls to (Session.callGuard) leave it.
        provider.transport = session.transport
        let response: Response
        do {
            response = try await provider.request(target, arguments: CallArguments())
        } catch {
            if error.isCancelled { throw CancellationError() }
            throw failure("cannot fetch \(redaction.maskedURL(url)): \(error.description(masking: redaction))", at: span)
        }
        guard (200...299).contains(response.status) else {
            throw failure("cannot fetch \(redaction.maskedURL(url)): HTTP \(response.status) \(response.reason)", at: span)
        }
        return Array(response.body)
    }
}

/// `use`: load a pack of targets by name, or one target per operation of an OpenAPI document
struct UseCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "use", usage: "use PACK | use openapi FILE|URL [as PREFIX] | use http FILE.http [as PREFIX] | use postman FILE.json [as PREFIX]",
                                            summary: "load a pack of targets by name, one target per operation of an OpenAPI document, or per request of a .http file or a Postman collection")

    /// The packs (read from disk when Tab asks, not before every prompt) and `openapi`, then its file.
    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        if previous.count == 1 { return Run.availablePacks() + ["openapi", "http", "postman"] }
        if previous.count == 2, previous[1] == "postman" {
            // Not the environment files that sit beside a collection.
            return Completion.paths(word, directory: session.directory).filter {
                $0.hasSuffix("/") || ($0.hasSuffix(".json") && !$0.hasSuffix("env.json") && !$0.hasSuffix(EnvironmentFiles.postmanSuffix))
            }
        }
        if previous.count == 2, previous[1] == "openapi" { return Completion.paths(word, directory: session.directory) }
        if previous.count == 2, previous[1] == "http" {
            return Completion.paths(word, directory: session.directory).filter { $0.hasSuffix("/") || Run.isHTTPFile($0) }
        }
        return []
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        if arguments.count > 1, arguments[0].bare == "openapi" { return try await run.useOpenAPI(arguments, command: command) }
        if arguments.count > 1, arguments[0].bare == "http" { return try run.useHTTPFile(arguments) }
        if arguments.count > 1, arguments[0].bare == "postman" { return try run.usePostman(arguments) }
        guard let pack = arguments.first else { throw run.failure("usage: use PACK", at: command.span) }
        try await run.usePack(pack)
    }
}
