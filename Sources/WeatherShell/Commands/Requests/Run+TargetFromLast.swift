import Foundation
import Targets

extension Run {
    /// `target NAME from last`: the last call, an ad-hoc request or a declared target's, declared
    /// as a target whose defaults are what it sent: method, base, path, query and body fields,
    /// headers, timeout and validation. Calling it with no arguments sends the same request again.
    /// A secret variable's value is written as a reference to the variable, never as text.
    func declareTargetFromLast(_ nameWord: Word) throws {
        guard let (target, arguments) = lastCall else {
            throw failure("no request yet to keep as a target", at: nameWord.span,
                          notes: ["send one first: get URL, or call NAME"])
        }
        // The file a body of bytes came from: the call's `@FILE`, or the declared target's `body @FILE`.
        var bodySource = arguments.body?.source
        if bodySource == nil, let declared = session.targets[target.name], case .data(let data, _) = target.task.bodyTask {
            bodySource = bodyFile(of: declared, arguments: arguments, sending: data)
        }
        let fields = TargetText(target: target, arguments: arguments, bodySource: bodySource, secrets: secretReferences())
        if !fields.canWriteBody {
            throw failure("the last request's body is not UTF-8 text, and no file holds it as it was sent: a target cannot hold it",
                          at: nameWord.span, notes: ["send it from a file (@FILE), then keep it: the target reads that file"])
        }
        let name = nameWord.literal ?? ""
        let text = "target \(name) {\n" + fields.fields.map { "  " + $0 + "\n" }.joined() + "}\n"
        // Named by the user, as `target NAME { ... }` is: it replaces a target of that name.
        try declareWritten(text, source: "<target \(name) from last>", replacingAny: true)
    }

    /// The session's secret values and the variables that hold them, longest value first.
    private func secretReferences() -> [(value: String, name: String)] {
        session.variables.names.compactMap { name in
            guard let variable = session.variables[name], variable.isSecret, !variable.value.isEmpty else { return nil }
            return (variable.value, name)
        }.sorted { $0.value.count > $1.value.count }
    }
}

/// The fields of a target declaration that sends what `target` sent with `arguments`.
struct TargetText {
    let target: Target
    let arguments: CallArguments
    /// The file the body was read from, when it was.
    let bodySource: String?
    /// Secret values to write as `${name}`.
    let secrets: [(value: String, name: String)]

    var fields: [String] {
        var lines: [String] = []
        if !target.doc.isEmpty { lines.append("doc " + word(target.doc)) }
        if !target.baseURL.isEmpty { lines.append("base " + word(target.baseURL)) }
        var path = filledPath
        var query = items(target.task.queryParameters) + arguments.queryItems.map { word($0.name + "=" + $0.value) }
        // A query written in the URL (`get URL?x=1`): its items are parameters too, as `x==1`'s are,
        // when they read back as such (as `import curl` reads a URL's query).
        if let mark = path.firstIndex(of: "?"), let pairs = CurlImport.pairs(String(path[path.index(after: mark)...])) {
            path = String(path[..<mark])
            query = pairs.map { word($0.name + "=" + $0.value) } + query
        }
        if !path.isEmpty { lines.append("path " + word(path)) }
        // A body with no method is a POST: a GET sent with one says so.
        let sendsBody = if case .data? = body { true } else { !(body?.bodyParameters.isEmpty ?? true) }
        if target.method != .get || sendsBody { lines.append("method " + target.method.rawValue) }
        if !query.isEmpty { lines.append("query " + query.joined(separator: " ")) }
        var headers = target.headers
        for header in arguments.headers { headers.replaceOrAppend(header) }
        for header in headers { lines.append("header " + word(header.name + ":" + header.value)) }
        for name in target.requiredHeaders where headers.value(named: name) == nil { lines.append("header " + word(name)) }
        switch body {
        case .json(let fields) where !fields.isEmpty: lines.append("json " + items(fields).joined(separator: " "))
        case .form(let fields) where !fields.isEmpty: lines.append("form " + items(fields).joined(separator: " "))
        case .multipart(let fields) where !fields.isEmpty: lines.append("multipart " + items(fields).joined(separator: " "))
        case .data(let data, let contentType):
            if let contentType, headers.value(named: "Content-Type") == nil { lines.append("header " + word("Content-Type:" + contentType)) }
            if let text = String(validating: data, as: UTF8.self) {
                lines.append("body " + word(text))
            } else if let bodySource {
                // Bytes that are not UTF-8 cannot be written in a string: the file they came from.
                lines.append("body @" + word(bodySource))
            }
        default: break
        }
        if target.validationType != .none { lines.append("validate \(target.validationType)") }
        if let timeout = target.timeout { lines.append("timeout \(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)ms") }
        return lines
    }

    /// A body the call gave whole (`@FILE`) is the one it sent.
    private var body: RequestTask? {
        arguments.body.map { RequestTask.data($0.data, contentType: $0.contentType) } ?? target.task.bodyTask
    }

    /// False for a body of bytes that are not UTF-8 and came from no file the target could read.
    var canWriteBody: Bool {
        guard case .data(let data, _)? = body else { return true }
        return bodySource != nil || String(validating: data, as: UTF8.self) != nil
    }

    /// The path with the call's values in its `{name}` segments: the request it sent.
    private var filledPath: String {
        target.path { arguments.value(for: $0)?.text }
    }

    /// `key=value`, `key:=JSON`, `key@path` for each value sent, the call's values in place of the
    /// defaults (a name given twice written twice, as it was sent).
    private func items(_ parameters: [Parameter]) -> [String] {
        arguments.placed(parameters).map { name, value in
            switch value {
            case .text(let text)?: word(name + "=" + text)
            case .json(let json)?: word(name + ":=" + json)
            case .file(let path)?: word(name + "@" + path)
            case nil: word(name)
            }
        }
    }

    /// `text` as one word of the language: bare when it can be, else a string, with each secret
    /// value as a reference to its variable.
    func word(_ text: String) -> String {
        guard secrets.contains(where: { text.contains($0.value) }) else { return Run.quoted(text) }
        var out = "\""
        var rest = Substring(text)
        while !rest.isEmpty {
            if let secret = secrets.first(where: { rest.hasPrefix($0.value) }) {
                out += "${\(secret.name)}"
                rest = rest.dropFirst(secret.value.count)
                continue
            }
            out += Run.escaped(rest.first ?? " ")
            rest = rest.dropFirst()
        }
        return out + "\""
    }
}
