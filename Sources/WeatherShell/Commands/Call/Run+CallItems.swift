import Foundation
import Targets

extension Run {
    /// The arguments of a call to `target` from the words after its name, read as request items
    /// (``RequestItem``, as `get URL ...` reads them; LANGUAGE.md, "Calling a target"):
    /// `key=value`, `key:=JSON`, `name==value`, `Name:value`, `field@FILE[;type=T]`, `@FILE`, and
    /// `key=@FILE` (`key:=@FILE`): the file's text (JSON) as the value, except that on a target with
    /// a multipart body `key=@FILE` is a file part, as curl's `-F key=@FILE`. Written in quotes
    /// (`key="@x"`), `=@` is text as written. Files are relative to the running file; one that
    /// cannot be read is an error at its word. Also gives the word that first gave each
    /// parameter, for the errors the provider finds later.
    func callArguments(_ words: [Word], for target: Target) throws -> (arguments: CallArguments, words: [String: Word]) {
        var arguments = CallArguments()
        var argumentWords: [String: Word] = [:]
        let multipart = if case .multipart = target.task.bodyTask { true } else { false }
        for word in words {
            let text = try expandItem(word).text
            let item = RequestItem(text)
            // A flag with its value after `=` (`--max-pages=2`, `-x=1`) reads as a field named `-...`.
            if text.hasPrefix("-"), item.map(\.isField) ?? true {
                throw callFlagFailure(text, at: word)
            }
            guard let item else {
                if ArgumentSyntax.isKey(text) {
                    throw failure("'\(text.shortened())' needs a value: \(text.shortened())=VALUE", at: word.span,
                                  notes: [Self.parametersNote(target.parameters.map(\.name))])
                }
                throw failure("expected key=value, key:=JSON, key==value, Header:value, field@FILE or @FILE", at: word.span)
            }
            var given: (name: String, value: ParameterValue)?
            switch item {
            case .query(let name, let value):
                arguments.queryItems.append((name, value))
            case .field(let name, let value):
                given = (name, value)
            case .fieldFromFile(let name, let path, let json) where !word.writesFileAfterEquals:
                given = (name, json ? .json("@" + path) : .text("@" + path))
            case .fieldFromFile(let name, let path, false) where multipart:
                given = (name, try filePart(path, type: nil, at: word))
            case .fieldFromFile(let name, let path, let json):
                let contents = String(decoding: try readItemFile(path, at: word), as: UTF8.self)
                given = (name, json ? .json(contents) : .text(contents))
            case .header(let header):
                arguments.headers.append(header)
            case .file(let name, let path, let type):
                given = (name, try filePart(path, type: type, at: word))
            case .body(let path):
                guard arguments.body == nil else { throw failure("a call has one body: this is a second @FILE", at: word.span) }
                arguments.body = try bodyFile(path, at: word)
            }
            if let given {
                arguments.values.append(given)
                if argumentWords[given.name] == nil { argumentWords[given.name] = word }
            }
        }
        return (arguments, argumentWords)
    }

    /// A word starting with `-` that is no flag of `call`: `--max-pages=N` gets its form with a blank.
    private func callFlagFailure(_ text: String, at word: Word) -> Diagnostic {
        if text.hasPrefix("--max-pages=") {
            return failure("--max-pages takes its number after a blank: --max-pages \(String(text.dropFirst(12)).shortened())", at: word.span,
                           notes: ["call NAME --all --max-pages N"])
        }
        // The flag's name alone: what follows a `=` may be a credential (`--token=...`).
        let flag = String(text.prefix { $0 != "=" })
        return failure("'call' has no flag '\(flag.shortened())'; its flags: --stream (-S), --all, --max-pages N", at: word.span,
                       notes: ["HTTPie's flags go with a request: get URL -b; for a call: set output raw|pretty|headers|all|quiet"])
    }

    /// A multipart file part's value: the file's absolute path, with curl's `;type=T` when given;
    /// an error at `word` when the file cannot be read.
    func filePart(_ path: String, type: String?, at word: Word) throws -> ParameterValue {
        // Read when the call is bound: here it is only checked, not read twice.
        let resolved = resolvePath(path)
        try checkReadable(resolved, at: word.span)
        return .file(FileReference(path: resolved, contentType: type).written)
    }

    /// The bytes of a file an item names, relative to the running file; an error at the item's word.
    func readItemFile(_ path: String, at word: Word) throws -> Data {
        try readFile(resolvePath(path), at: word.span)
    }

    /// The bytes of `@FILE`, with the media type of its extension (none when it is not known), or of
    /// stdin for `@-` (with none): the
    /// body of a call or a request, or of a target's `body @FILE`. `path` is relative to the running file.
    func bodyFile(_ path: String, at word: Word) throws -> RawBody {
        if path == "-" {
            guard StandardInput.isFree else {
                throw failure("@- reads the body from stdin, and stdin is not free here", at: word.span,
                              notes: ["stdin is free with -c, a script file or wsh get URL, when it is not a terminal; give @FILE"])
            }
            return RawBody(data: StandardInput.contents(), contentType: nil, source: nil)
        }
        let resolved = resolvePath(path)
        let data = try readFile(resolved, at: word.span)
        return RawBody(data: data, contentType: MediaType.known(file: resolved), source: resolved)
    }
}
