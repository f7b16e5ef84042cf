import Foundation
import Targets

extension Run {
    /// The arguments of a call to `target` from the words after its name (LANGUAGE.md, "Calling a
    /// target"): `key=value`, `key:=JSON`, `name==value`, `Name:value`, `field@FILE[;type=T]`
    /// (and `field=@FILE` for a multipart target, as curl's `-F` writes it) and `@FILE`. Files
    /// are relative to the running file; one that cannot be read is an error at its word. Also
    /// gives the word that first gave each parameter, for the errors the provider finds later.
    func callArguments(_ words: [Word], for target: Target) throws -> (arguments: CallArguments, words: [String: Word]) {
        var arguments = CallArguments()
        var argumentWords: [String: Word] = [:]
        let multipart = if case .multipart = target.task.bodyTask { true } else { false }
        for word in words {
            let text = try expand(word).text
            switch ArgumentSyntax(text, allowFiles: true, equalsAtIsFile: multipart && word.writesFileAfterEquals, callItems: true) {
            case .parameter(let name, let value?):
                var value = value
                if case .file(let written) = value {
                    let file = FileReference(written)
                    let path = try readablePath(file.path, at: word)
                    value = .file(path + (file.contentType.map { ";type=" + $0 } ?? ""))
                }
                arguments.values.append((name, value))
                if argumentWords[name] == nil { argumentWords[name] = word }
            case .parameter(let name, nil):
                throw failure("'\(name.shortened())' needs a value: \(name.shortened())=VALUE", at: word.span,
                              notes: ["parameters: \(target.parameters.map(\.name).joined(separator: ", "))"])
            case .header(let header):
                arguments.headers.append(header)
            case .queryItem(let name, let value):
                arguments.queryItems.append((name, value))
            case .body(let path):
                guard arguments.body == nil else {
                    throw failure("a call has one body: this is a second @FILE", at: word.span)
                }
                arguments.body = try bodyFile(path, at: word)
            case nil:
                throw failure("expected key=value, key:=JSON, key==value, Header:value, field@FILE or @FILE", at: word.span)
            }
        }
        return (arguments, argumentWords)
    }

    /// The bytes of `@FILE`, with the media type of its extension (none when it is not known):
    /// the body of a call, or of a target's `body @FILE`. `path` is relative to the running file.
    func bodyFile(_ path: String, at word: Word) throws -> RawBody {
        let resolved = try readablePath(path, at: word)
        guard let data = FileManager.default.contents(atPath: resolved) else {
            throw failure("cannot read \(Self.displayPath(resolved)): it cannot be read", at: word.span)
        }
        return RawBody(data: data, contentType: MediaType.known(file: resolved), source: resolved)
    }

    /// `path` made absolute against the running file's directory, when it names a file that can
    /// be read; else an error at `word` saying why, in the user's terms.
    private func readablePath(_ path: String, at word: Word) throws -> String {
        let resolved = path.hasPrefix("/") ? path : (currentFile.directory as NSString).appendingPathComponent(path)
        var isDirectory: ObjCBool = false
        let reason: String? = if !FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) {
            "no such file"
        } else if isDirectory.boolValue {
            "it is a directory"
        } else if !FileManager.default.isReadableFile(atPath: resolved) {
            "permission denied"
        } else {
            nil
        }
        if let reason { throw failure("cannot read \(Self.displayPath(resolved)): \(reason)", at: word.span) }
        return resolved
    }
}
