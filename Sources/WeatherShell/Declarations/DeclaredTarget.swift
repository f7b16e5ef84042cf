import Foundation
import OpenAPI
import Targets

/// A target as the session keeps it: its declaration, its sample data read once, and the
/// compiled `Target` when no field refers to a variable (so a call expands nothing).
struct DeclaredTarget {
    var declaration: TargetDeclaration
    /// The `sample` files' answers, read when the target was declared (when their words hold no variables).
    var samples: [Sample]?
    /// The compiled target, when the declaration has no `$variables`.
    var cached: Target?
    /// Declared by a pack (`use`): its host yields to `set base`.
    var fromPack = false
    /// What its OpenAPI document says of it (`use openapi`): for help, completion and `expect schema`.
    var openAPI: OpenAPIOperation?

    var name: String { declaration.name.literal ?? "" }

    /// True when some field refers to a variable, so it must be compiled at each call.
    var dependsOnVariables: Bool {
        declaration.fields.contains { field in field.arguments.contains { !$0.variableNames.isEmpty } }
    }

    /// `validate schema`: every answer is checked against its OpenAPI schema.
    var validatesSchema: Bool {
        declaration.fields.contains { $0.name == "validate" && $0.arguments.first?.literal == "schema" }
    }

    /// `base URL yields`: its host yields to `set base`, as a pack's does (`save` writes a pack's
    /// or an imported target so, when it writes its declaration).
    var baseYields: Bool {
        declaration.fields.contains { $0.name == "base" && $0.arguments.count == 2 }
    }

    /// Whether the declaration has a `sample`, which `set stub` answers with.
    var hasSample: Bool {
        declaration.fields.contains { $0.name == "sample" }
    }

    /// The text of the declaration as written.
    var sourceText: String {
        declaration.file.text(declaration.span.start..<declaration.span.end)
    }
}

/// Turns a target declaration into a `Target`, expanding its words (LANGUAGE.md, "Targets").
@ShellActor
struct TargetCompiler {
    let run: Run
    let file: SourceFile

    func compile(_ declared: DeclaredTarget) throws -> Target {
        // A call on a later line compiles a declaration from an earlier input: its errors
        // (an undefined variable, say) point into the declaration's file, not the call's.
        let previous = run.currentFile
        run.currentFile = file
        defer { run.currentFile = previous }
        let declaration = declared.declaration
        var target = Target(name: declared.name)
        var query: [Parameter] = []
        var body: RequestTask?
        var bodyTemplate: TargetDeclaration.Field?
        var styles: [String: ParameterStyle] = [:]
        var methodGiven = false
        for field in declaration.fields {
            // A body's variables are written for its kind, which its Content-Type header may say: later.
            if field.name == "body", !isFileBody(field) {
                bodyTemplate = field
                body = nil
                target.bodyIsOptional = false
                continue
            }
            let values = try field.arguments.map { try expand($0) }
            switch field.name {
            case "doc": target.doc = values[0]
            case "base": target.baseURL = try run.expandURL(field.arguments[0], inPath: false).text
            case "path": target.path = try run.expandURL(field.arguments[0], inPath: true).text
            case "method":
                guard let method = HTTPMethod(rawValue: values[0].uppercased()) else {
                    throw error("'\(values[0])' is not an HTTP method: a method is a token such as GET, POST or PROPFIND",
                                field.arguments[0].span)
                }
                target.method = method
                methodGiven = true
            case "query": query += try parameters(field)
            case "header":
                for (index, (word, text)) in zip(field.arguments, values).enumerated() {
                    guard let colon = text.firstIndex(of: ":") else {
                        // `X-API-Key: VALUE`, as curl's -H takes it: the value is this word, not a header each call must give.
                        if index > 0, values[index - 1].hasSuffix(":") {
                            let name = values[index - 1].dropLast()
                            throw error("a header's value follows its ':' in the same word: \(name):VALUE", word.span,
                                        notes: ["quote a value with blanks: \(name):\"Bearer …\""])
                        }
                        // A bare name is a header each call must give.
                        guard Self.isHeaderName(text) else { throw error("a header is Name:value, or a bare Name each call must give", word.span) }
                        target.requiredHeaders.append(text)
                        continue
                    }
                    guard colon != text.startIndex else { throw error("a header is Name:value", word.span) }
                    target.headers.append(Header(name: String(text[..<colon]), value: String(text[text.index(after: colon)...])))
                }
            // Two lines of one kind add up, as two query lines do (the parser refuses two kinds).
            case "json": body = .json(Self.fields(of: body) + (try parameters(field)))
            case "form": body = .form(Self.fields(of: body) + (try parameters(field)))
            case "multipart": body = .multipart(Self.fields(of: body) + (try parameters(field)))
            case "style": styles.merge(try self.styles(field, values)) { $1 }
            case "body":
                bodyTemplate = nil
                target.bodyIsOptional = false
                let file = try run.bodyFile(String(values[0].dropFirst()), at: field.arguments[0])
                body = .data(file.data, contentType: file.contentType)
            // `validate schema` checks answers against the OpenAPI document (``Run/checkDeclaredSchema``).
            case "validate" where values[0] == "schema": break
            case "validate": target.validationType = try validation(values[0], field.arguments[0])
            case "timeout":
                guard let timeout = Parser.timeout(values[0]) else { throw error(Parser.timeoutUsage, field.arguments[0].span) }
                target.timeout = timeout
            case "retry":
                guard let count = Parser.retryCount(values[0]) else { throw error(Parser.retryUsage, field.arguments[0].span) }
                target.retryCount = count
            case "follow":
                guard let limit = Run.redirectLimit(values[0]) else {
                    throw error("follow takes on, off or a count of redirects from 0 to \(Run.mostRedirects)", field.arguments[0].span)
                }
                target.redirectLimit = limit
            default: break
            }
            if ["json", "form", "multipart"].contains(field.name) { target.bodyIsOptional = field.isOptionalBody }
        }
        if let bodyTemplate { body = try templateBody(bodyTemplate, headers: target.headers) }
        // A body and no method is a POST, as HTTPie and curl send data: a GET's body means nothing (RFC 9110 9.3.1).
        if !methodGiven, body != nil { target.method = .post }
        target.samples = try declared.samples ?? run.readSamples(declaration, file: file)
        if !styles.isEmpty {
            query = query.map { styled($0, styles) }
            if case .form(let fields)? = body { body = .form(fields.map { styled($0, styles) }) }
        }
        switch (query.isEmpty, body) {
        case (true, nil): target.task = .plain
        case (false, nil): target.task = .query(query)
        case (true, let body?): target.task = body
        case (false, let body?): target.task = .composite(query: query, body: body)
        }
        return target
    }

    /// The fields of a `json`, `form` or `multipart` body declared so far; none for any other.
    private static func fields(of body: RequestTask?) -> [Parameter] {
        switch body {
        case .json(let fields)?, .form(let fields)?, .multipart(let fields)?: fields
        default: []
        }
    }

    /// A header field name: RFC 9110's token characters.
    nonisolated static func isHeaderName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(HTTPMethod.isTokenByte)
    }

    /// `key=value`, `key` (required), `key:=JSON` and, in multipart, `key@file` and `key=@file`.
    private func parameters(_ field: TargetDeclaration.Field) throws -> [Parameter] {
        try field.arguments.map { word in
            let text = try expand(word)
            let multipart = field.name == "multipart"
            guard let argument = ArgumentSyntax(text, allowFiles: multipart, equalsAtIsFile: multipart && word.writesFileAfterEquals) else {
                throw error("expected key=value, key:=JSON, a bare key or key?", word.span)
            }
            switch argument {
            case .parameter(let name, let value):
                // A typed default is checked where it is written, not when a call first sends it.
                if case .json(let json)? = value {
                    do {
                        _ = try JSONValue.parse(json)
                    } catch let error as JSONParseError {
                        // The parser quotes a character of the text: of a secret, not even that.
                        let why = try run.expand(word).isSecret ? "the secret it was given is not JSON" : error.description
                        throw self.error("'\(name):=' takes JSON: \(why)", word.span,
                                         notes: ["quote a JSON text with sh's raw quotes: \(name):='[\"a\", \"b\"]', or give text: \(name)=VALUE"])
                    }
                }
                return Parameter(name: name, defaultValue: value.map { resolveFile($0) })
            case .optional(let name):
                return Parameter(name: name, isOptional: true)
            case .header:
                throw error("expected key=value, key:=JSON or a bare key, not a header", word.span)
            }
        }
    }

    /// `style NAME=STYLE ...`: how a list or object value of a query key or form field is written.
    private func styles(_ field: TargetDeclaration.Field, _ values: [String]) throws -> [String: ParameterStyle] {
        var styles: [String: ParameterStyle] = [:]
        for (word, text) in zip(field.arguments, values) {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex,
                  let style = ParameterStyle(rawValue: String(text[text.index(after: equals)...])) else {
                throw error("a style is NAME=STYLE, STYLE one of \(ParameterStyle.allCases.map(\.rawValue).joined(separator: ", "))", word.span)
            }
            styles[String(text[..<equals])] = style
        }
        return styles
    }

    private func styled(_ parameter: Parameter, _ styles: [String: ParameterStyle]) -> Parameter {
        var parameter = parameter
        parameter.style = styles[parameter.name]
        return parameter
    }

    private func resolveFile(_ value: ParameterValue) -> ParameterValue {
        if case .file(let path) = value { return .file(resolve(path)) }
        return value
    }

    /// `body @file` names a file (relative to the declaration's file, the running one while it
    /// compiles); `body "text"` (or "@text" in quotes) and `body raw "text"` are the body itself.
    private func isFileBody(_ field: TargetDeclaration.Field) -> Bool {
        field.arguments.count == 1 && field.arguments[0].parts.first?.quoted == false && field.arguments[0].literal?.hasPrefix("@") == true
    }

    /// `body "text"` with its variables written for the body's kind (``BodyTemplate``); `body raw "text"` as it is;
    /// `body graphql "text"` a GraphQL request's JSON.
    private func templateBody(_ field: TargetDeclaration.Field, headers: [Header]) throws -> RequestTask {
        let template = field.arguments[field.arguments.count - 1]
        let contentType = headers.last { $0.name.lowercased() == "content-type" }?.value
        let kind: BodyTemplate.Kind = switch field.arguments.count == 2 ? field.arguments[0].bare : nil {
        case "graphql"?: .graphQL
        case _?: .raw
        case nil: BodyTemplate.kind(of: template, contentType: contentType)
        }
        let text: String
        do {
            text = try BodyTemplate.render(template, kind: kind) { name, span in
                guard let variable = run.variable(named: name) else { throw run.undefinedVariable(name, at: span) }
                return variable
            }
        } catch let error as BodyTemplate.ValueDoesNotFit {
            throw run.failure("the value of $\(error.name) ends in \" or \\, which a GraphQL block string (\"\"\"...\"\"\") cannot hold", at: error.span,
                              notes: ["write that value in a \"...\" string of the query, where any value is escaped"])
        }
        // A body that reads as JSON says so when the target names no type, as Hurl and HTTPie send it.
        let sniffedType = contentType == nil && (kind == .json || kind == .graphQL) ? "application/json" : nil
        return .data(Data(text.utf8), contentType: sniffedType)
    }

    private func validation(_ text: String, _ word: Word) throws -> ValidationType {
        switch text {
        case "none": return .none
        case "2xx": return .successCodes
        case "2xx-3xx": return .successAndRedirectCodes
        default:
            guard let codes = Parser.statusCodes(text) else { throw error(Parser.validationUsage, word.span) }
            return .customCodes(codes)
        }
    }

    private func resolve(_ path: String) -> String {
        Run.path(path, relativeTo: file.directory)
    }

    private func expand(_ word: Word) throws -> String {
        try run.expand(word).text
    }

    private func error(_ message: String, _ span: SourceSpan, notes: [String] = []) -> Diagnostic {
        Diagnostic(.runtime, message, file: file, span: span, notes: notes)
    }
}
