import Foundation
import Targets

extension Run {
    /// `use postman FILE [as PREFIX]`: a target per request of a Postman collection (v2.0, v2.1),
    /// named by its folders and its name (`users.create`), as if its declaration had been typed;
    /// the collection's variables are set unless a variable of that name already is (an
    /// environment's or a `--var` wins, as in Postman). A request wsh cannot declare is a warning
    /// that names it; the rest are declared.
    func usePostman(_ arguments: [Word]) throws {
        // The session's auth plugin holds one credential: the first digest auth of the collection.
        var digest: (host: String, credential: String, user: String, place: String)?
        let pathWord = arguments[1]
        let prefix = try namePrefix(arguments.count == 4 ? arguments[3] : nil).map { $0 + "." } ?? ""
        let path = resolvePath(try expand(pathWord).text)
        let bytes = JSONFileBytes.utf8(Array(try readFile(path, at: pathWord.span)))
        let collection: PostmanCollection
        do {
            collection = try PostmanCollection(json: try JSONValue.parse(bytes))
        } catch let error as PostmanCollection.Failure {
            throw failure("cannot use \(Self.displayPath(path)): \(error.message)", at: pathWord.span,
                          notes: error.isEnvironment ? [Self.environmentNote(path)] : [])
        } catch {
            throw failure("cannot use \(Self.displayPath(path)): it is not JSON: \(mask("\(error)"))", at: pathWord.span)
        }
        let shown = Self.displayPath(path)
        session.requestsFileDirectory = Self.directory(of: path)
        for pair in collection.variables {
            let name = Self.postmanVariableName(pair.name)
            guard variable(named: name) == nil, !session.commandLineNames.contains(name) else { continue }
            // A value of type `secret`, or made of secrets, is one: masked from now on.
            let made = substituted(pair.value)
            var value = made.map { Variable(value: $0.text, isSecret: $0.secret) } ?? Variable(typed: .string(pair.value))
            if pair.secret {
                value = Variable(value: value.value, isSecret: true)
                session.mask.add(value.value)
            }
            setVariable(name, value)
        }
        // Names this load gave: two requests of one name are NAME and NAME-2. Loading the file
        // again replaces what it declared before under the same names; a target declared elsewhere
        // of one of them is an error naming the way out (declareWritten), as with use http.
        var taken = targetsOfOtherImports(than: "<postman \(shown)>")
        var declared: Set<String> = []
        for request in collection.requests {
            let name = TargetRegistry.unusedName(prefix + request.path.map(Self.postmanTargetName).joined(separator: "."), among: taken)
            let place = request.path.joined(separator: " / ")
            if let problem = request.urlProblem {
                // A target with no URL could only fail when called.
                io.err("warning: \(shown): '\(mask(place))' not declared: \(mask(problem))\n")
                continue
            }
            do {
                let (text, notes) = try PostmanTarget.declaration(
                    request, name: name, directory: Self.directory(of: path), variableName: Self.postmanVariableName,
                    credential: { [self] written in
                        guard let text = substituted(written)?.text else { return nil }
                        // A credential is a secret wherever it came from: masked from now on.
                        session.mask.add(text)
                        session.mask.add(Data(text.utf8).base64EncodedString())
                        if let password = text.split(separator: ":", maxSplits: 1).last, text.contains(":") { session.mask.add(String(password)) }
                        return text
                    })
                try declareWritten(text, source: "<postman \(shown)>", place: "\(shown), request '\(place)'")
                taken.insert(name)
                declared.insert(name)
                for note in notes { io.err("note: \(mask(name)): \(mask(note))\n") }
                for left in request.omitted { io.err("warning: \(shown): '\(mask(place))' declared as \(mask(name)), but \(mask(left))\n") }
                if request.auth?.type == "digest", let auth = request.auth {
                    let pair = (auth.settings["username"] ?? "") + ":" + (auth.settings["password"] ?? "")
                    if let credential = substituted(pair)?.text, let host = substituted(request.url).flatMap({ URLComponents(string: $0.text)?.host }) {
                        let user = String(credential.prefix { $0 != ":" })
                        if let first = digest, first.host != host || first.credential != credential {
                            io.err("warning: \(shown): '\(mask(place))' has digest auth as \(mask(user)) for \(host), and '\(mask(first.place))' "
                                   + "as \(mask(first.user)) for \(first.host): the session's plugin auth holds one credential, so \(mask(first.user))'s "
                                   + "is used; before calling \(mask(name)), give plugin auth digest USER:PASS host \(host)\n")
                        } else if digest == nil {
                            digest = (host, credential, user, place)
                        }
                    } else {
                        io.err("note: \(mask(name)): its digest auth uses variables that are not set, or a host not known yet: "
                               + "set them, or give plugin auth digest USER:PASS host HOST\n")
                    }
                }
            } catch let error as PostmanTarget.Failure {
                io.err("warning: \(shown): '\(mask(place))' not declared: \(mask(error.message))\n")
            } catch let diagnostic as Diagnostic {
                io.err("warning: \(shown): '\(mask(place))' not declared: \(mask(diagnostic.message))\n")
            }
        }
        for item in collection.skipped {
            io.err("warning: \(shown): \(mask(item.place)): \(mask(item.reason))\n")
        }
        forgetTargetsGone(from: "<postman \(shown)>", shown: shown, prefix: prefix, declared: declared)
        let origins = collection.requests.flatMap { $0.scripts.compactMap(\.origin) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let withOwn = collection.requests.count { $0.scripts.contains { $0.origin == nil } }
        if !origins.isEmpty || withOwn > 0 {
            let places = origins + (withOwn == 0 ? [] : ["\(withOwn) request\(withOwn == 1 ? "" : "s")"])
            io.err("note: \(shown): Postman scripts (JavaScript) are not run: those of \(mask(places.dropLast().joined(separator: ", ") + (places.count > 1 ? " and " : "") + (places.last ?? ""))) are kept as comments "
                   + "in the targets they apply to (show NAME prints them); write checks as expect lines\n")
        }
        let unkept = Set(collection.requests.flatMap(\.behavior.keys)).subtracting(PostmanCollection.keptBehaviors).sorted()
        if !unkept.isEmpty {
            let session = ["strictSSL": "set insecure on", "disableCookies": "set cookies off"].filter { unkept.contains($0.key) }.values.sorted()
            io.err("note: \(shown): protocolProfileBehavior \(unkept.joined(separator: ", ")) not kept: a wsh target has no setting for "
                   + (unkept.count == 1 ? "it" : "them") + (session.isEmpty ? "" : " (the session has \(session.joined(separator: ", ")))") + "\n")
        }
        // Digest answers a challenge, so it is the session's auth plugin for the host.
        if let (host, credential, _, _) = digest {
            let file = SourceFile(name: "<postman \(shown)>", directory: currentFile.directory,
                                  text: "plugin auth digest \(Run.quoted(credential)) host \(Run.quoted(host))")
            if case .plugin(let name, let settings)? = try Parser.parse(file).statements.first?.kind {
                let previous = currentFile
                currentFile = file
                defer { currentFile = previous }
                try runPlugin(name: name, settings: settings)
                io.err("note: digest auth for \(host): plugin auth digest, with the collection's credential\n")
            }
        }
        if mode == .interactive {
            io.err("\(declared.count) target\(declared.count == 1 ? "" : "s") of '\(mask(collection.name))' declared: 'targets' lists them, 'help NAME' shows one\n")
        }
    }

    /// How a Postman environment file is used: as the environment its file name gives, with `--env`.
    private static func environmentNote(_ path: String) -> String {
        let file = URL(fileURLWithPath: path).lastPathComponent
        let suffix = EnvironmentFiles.postmanSuffix
        guard file.hasSuffix(suffix), file.count > suffix.count else {
            return "name it NAME\(suffix), beside the script (or in the current directory), and give --env NAME or set env NAME; "
                + "then use postman COLLECTION.json"
        }
        let name = Run.quoted(String(file.dropLast(suffix.count)))
        return "its variables are the environment \(name): give --env \(name) or set env \(name) "
            + "(read beside the script, else in the current directory), then use postman COLLECTION.json"
    }

    /// `text` with each `{{name}}` replaced by the variable's value, and whether one was a secret;
    /// nil when one is not set.
    private func substituted(_ text: String) -> (text: String, secret: Bool)? {
        var result = ""
        var secret = false
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else { return (result + rest[open.lowerBound...], secret) }
            let name = Self.postmanVariableName(rest[open.upperBound..<close.lowerBound].trimmingBlanks)
            guard let value = variable(named: name) else { return nil }
            result += value.value
            secret = secret || value.isSecret
            rest = rest[close.upperBound...]
        }
        return (result + rest, secret)
    }

    /// A Postman variable's name as a wsh variable's: `base-url` and `api.key` are `base_url` and `api_key`.
    nonisolated static func postmanVariableName(_ name: String) -> String {
        var written = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
        if written.first?.isNumber ?? true { written = "_" + written }
        return written
    }

    /// A request's or folder's name as part of a target name: `Get a user` is `Get-a-user`.
    nonisolated static func postmanTargetName(_ name: String) -> String {
        let written = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "-" })
            .split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        guard let first = written.first else { return "request" }
        return first.isLetter ? written : "r-" + written
    }
}
