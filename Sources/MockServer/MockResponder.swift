import Foundation
import NIOCore
import NIOHTTP1
import Fuzzing
import Targets

/// What the mock server answers one request: a pure function of the request and the routes,
/// so every rule here is the same whatever the connection does.
struct MockResponder {
    let routes: MockRoutes
    let cors: Bool

    /// One answer: status, headers, body, and the target that gave it (for the log).
    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer
        var targetName: String?
    }

    func answer(_ head: HTTPRequestHead, body: ByteBuffer?) -> Answer {
        let uri = head.uri[...]
        let path = uri.firstIndex(where: { $0 == "?" || $0 == "#" }).map { uri[..<$0] } ?? uri
        var query: Substring = ""
        if let mark = uri.firstIndex(of: "?") {
            query = uri[uri.index(after: mark)...]
            if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        }
        let method = head.method.rawValue
        var answer = Self.final(routeAnswer(head, method: method, path: path, query: query, body: body))
        if cors { addCORSHeaders(to: &answer, request: head) }
        return answer
    }

    private func routeAnswer(_ head: HTTPRequestHead, method: String, path: Substring, query: Substring, body: ByteBuffer?) -> Answer {
        let match = routes.match(method: method, path: path, query: query)
        if cors, method == "OPTIONS", head.headers.contains(name: "Access-Control-Request-Method") {
            return preflight(match, head)
        }
        switch match {
        case .notFound(let nearest):
            var problem = Problem(status: 404, title: "Not Found", detail: "no route for \(method) \(String(path).logSafe)")
            if !nearest.isEmpty {
                problem.extensions.append(("nearest", .array(nearest.map { .string("\($0.summary) (\($0.targetName))") })))
            }
            return Self.problemAnswer(problem)
        case .wrongMethod(let allowed):
            var answer = Self.problemAnswer(Problem(
                status: 405, title: "Method Not Allowed",
                detail: "\(String(path).logSafe) does not answer \(method); it answers \(allowed.joined(separator: ", "))",
                extensions: [("allowed", .array(allowed.map { .string($0) }))]))
            answer.headers.add(name: "Allow", value: allowed.joined(separator: ", "))
            return answer
        case .found(let route, _):
            let problems = RequestCheck(route: route).problems(query: query, headers: head.headers, body: body)
            if !problems.isEmpty {
                let first = problems[0]
                let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
                let problem = Problem(status: 400, title: "Bad Request", detail: "\(first.reason) (target '\(route.targetName)')\(more)",
                                      invalidParameters: problems)
                let request = "\(method) \(head.uri)"
                var answer = route.badRequestAnswer.map { declaredProblemAnswer(problem, $0, route, request: request) } ?? Self.problemAnswer(problem)
                if answer.status == 400 { addDeclaredHeaders(to: &answer, route, request: request) }
                answer.targetName = route.targetName
                return answer
            }
            let prefer = head.headers[canonicalForm: "Prefer"]
            // Made up from a schema when asked, when there is no sample, or when only a schema has the status asked for.
            let code = Self.preferredCode(prefer)
            let dynamic = Self.preference(prefer, named: "dynamic") == "true" || (route.answers.isEmpty && !route.schemaAnswers.isEmpty)
                || code.map { code in !route.answers.contains { $0.status == code } && route.schemaAnswer(for: code) != nil } == true
            var answer = dynamic ? schemaAnswer(route, prefer: prefer, request: "\(method) \(head.uri)", body: body)
                                 : sampleAnswer(route, prefer: prefer)
            addDeclaredHeaders(to: &answer, route, request: "\(method) \(head.uri)")
            answer.targetName = route.targetName
            return answer
        }
    }

    /// The sample `Prefer: code=NNN` asks for, else the default one.
    private func sampleAnswer(_ route: MockRoute, prefer: [Substring]) -> Answer {
        guard !route.answers.isEmpty else {
            // A status declared with no body (an OpenAPI `2XX` with a description only) is answered
            // empty: the one asked for, else the lowest success. A status asked for that is not
            // declared empty is not answered with that success instead.
            let empty: Int?
            if let wanted = Self.preferredCode(prefer) {
                empty = route.answersEmpty(wanted) ? wanted : nil
            } else {
                empty = route.emptySuccessStatus
            }
            if let empty { return Answer(status: empty, headers: HTTPHeaders(), body: ByteBuffer()) }
            return Self.problemAnswer(Problem(
                status: 501, title: "Not Implemented",
                detail: "target '\(route.targetName)' has no sample to answer with; declare one with sample @FILE"))
        }
        var sample = route.answers[0]
        if let wanted = Self.preferredCode(prefer) {
            guard let found = route.answers.first(where: { $0.status == wanted }) else { return Self.noAnswer(for: wanted, route) }
            sample = found
        }
        var headers = HTTPHeaders()
        if let contentType = sample.contentType { headers.add(name: "Content-Type", value: contentType) }
        return Answer(status: sample.status, headers: headers, body: sample.body)
    }

    /// An answer made up from the schema of the declared answer `Prefer: code=NNN` asks for, else
    /// the first: the same for the same request (method, URI, body) and seed, valid against the
    /// schema. With `Prefer: dynamic=false`, the same for every request.
    private func schemaAnswer(_ route: MockRoute, prefer: [Substring], request: String, body: ByteBuffer?) -> Answer {
        guard !route.schemaAnswers.isEmpty else {
            guard !route.answers.isEmpty else { return sampleAnswer(route, prefer: prefer) }
            return Self.problemAnswer(Problem(status: 501, title: "Not Implemented",
                                              detail: "Prefer asks for a dynamic answer, but target '\(route.targetName)' has no schema to make one from"))
        }
        var chosen = route.schemaAnswers[0]
        if let wanted = Self.preferredCode(prefer) {
            guard let found = route.schemaAnswer(for: wanted) else {
                return route.answers.contains { $0.status == wanted } ? sampleAnswer(route, prefer: prefer) : Self.noAnswer(for: wanted, route)
            }
            chosen = found
        }
        let bodyText = body.map { String(buffer: $0) } ?? ""
        let part = Self.preference(prefer, named: "dynamic") == "false" ? route.summary : request + "\n" + bodyText
        var generator = SeededRandom(seed: routes.seed, part: part)
        // A range's or `default`'s example is its sample, as a single status's example is; `dynamic=true` makes one up.
        let example = Self.preference(prefer, named: "dynamic") == "true" ? nil : chosen.example
        guard let value = example ?? SchemaSampler(root: route.schemaRoot, style: .plain).validValue(for: chosen.schema, using: &generator) else {
            return Self.problemAnswer(Problem(status: 500, title: "Internal Server Error",
                                              detail: "no value fits the schema of target '\(route.targetName)''s \(chosen.status) answer: it may ask for something impossible"))
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: chosen.contentType)
        let text = MediaBody.text(value, mediaType: chosen.contentType, schema: chosen.schema, root: route.schemaRoot)
        return Answer(status: chosen.status, headers: headers, body: ByteBuffer(string: text))
    }

    /// A refused request answered as the route's declared answer for it says, status 400: wsh's
    /// problem when it fits the schema (for a text type, its detail), else the document's example,
    /// else a value made up from the schema; in the last two the problem's words go into the
    /// members that take them (`detail`, `message`, `title`, `status`...). A 500 when no value fits.
    private func declaredProblemAnswer(_ problem: Problem, _ declared: MockRoute.SchemaAnswer, _ route: MockRoute, request: String) -> Answer {
        let sampler = SchemaSampler(root: route.schemaRoot, style: .plain)
        func fits(_ value: JSONValue) -> Bool { sampler.violation(of: value, against: declared.schema) == nil }
        var value: JSONValue
        if fits(problem.value) {
            value = problem.value
        } else if !MediaType.isJSON(declared.contentType), fits(.string(problem.detail)) {
            value = .string(problem.detail)
        } else {
            var generator = SeededRandom(seed: routes.seed, part: request)
            guard let given = declared.example ?? sampler.validValue(for: declared.schema, using: &generator) else {
                return Self.problemAnswer(Problem(
                    status: 500, title: "Internal Server Error",
                    detail: "the request is refused (\(problem.detail)), but no value fits the schema of target '\(route.targetName)''s \(declared.status) answer"))
            }
            value = given
            if case .object(var members) = value {
                for index in members.indices {
                    let words: JSONValue? = switch members[index].key.lowercased() {
                    case "detail", "message", "error", "error_description", "description", "reason": .string(problem.detail)
                    case "title": .string(problem.title)
                    case "status", "code": members[index].value.string != nil ? .string("400") : .number("400")
                    default: nil
                    }
                    guard let words else { continue }
                    var trial = members
                    trial[index].value = words
                    if fits(.object(trial)) { members = trial }
                }
                value = .object(members)
            }
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: declared.contentType)
        let text = MediaBody.text(value, mediaType: declared.contentType, schema: declared.schema, root: route.schemaRoot)
        return Answer(status: 400, headers: headers, body: ByteBuffer(string: text))
    }

    /// The headers the answer's status must carry, each its example or a value made up from its
    /// schema (the same for the same request and seed); a 500 saying which when none can be made.
    private func addDeclaredHeaders(to answer: inout Answer, _ route: MockRoute, request: String) {
        guard let declared = route.declaredResponse(for: answer.status)?.headers, !declared.isEmpty else { return }
        var generator = SeededRandom(seed: routes.seed, part: request + "\nheaders")
        let sampler = SchemaSampler(root: route.schemaRoot, style: .plain)
        for header in declared where !answer.headers.contains(name: header.name) {
            let value = header.example ?? sampler.validValue(for: header.schema, using: &generator)
            guard let text = value.map(Self.headerText), text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else {
                answer = Self.problemAnswer(Problem(
                    status: 500, title: "Internal Server Error",
                    detail: "no value fits the schema of header '\(header.name.logSafe)', which target '\(route.targetName)''s \(answer.status) answer must carry"))
                return
            }
            answer.headers.add(name: header.name, value: text)
        }
    }

    /// A header's value as OpenAPI's `simple` style writes it: a string as it is, a list's items
    /// joined by commas, an object's names and values the same.
    static func headerText(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .null: ""
        case .array(let items): items.map(headerText).joined(separator: ",")
        case .object(let members): members.map { $0.key + "," + headerText($0.value) }.joined(separator: ",")
        default: value.compactText
        }
    }

    /// The answer to `Prefer: code=` for a status no sample or schema has: empty when the route
    /// declares it without a body, else a 500 saying which statuses the route can answer.
    private static func noAnswer(for wanted: Int, _ route: MockRoute) -> Answer {
        if route.answersEmpty(wanted) { return Answer(status: wanted, headers: HTTPHeaders(), body: ByteBuffer()) }
        let statuses = Array(Set(route.sampleStatuses + route.schemaAnswers.map(\.status) + route.declaredResponses.map(\.status))).sorted()
        let listed = statuses.map(String.init).joined(separator: ", ")
        return problemAnswer(Problem(
            status: 500, title: "Internal Server Error",
            detail: "Prefer asks for status \(wanted), but target '\(route.targetName)' answers \(listed) only",
            extensions: [("statuses", .array(statuses.map { .number(String($0)) }))]))
    }

    /// The answer as it can go out: a 1xx (a sample a document declares as `100`) is no final
    /// answer, and NIO stops the server on one with a body, so it is a 500 saying so; a 204, 205
    /// or 304 has no body and no `Content-Type` (RFC 9110 15.3.5, 15.3.6, 15.4.5), whatever the
    /// response it was made from declares.
    static func final(_ answer: Answer) -> Answer {
        if answer.status < 200 {
            var refused = problemAnswer(Problem(
                status: 500, title: "Internal Server Error",
                detail: "target '\(answer.targetName ?? "?")' answers status \(answer.status), which is informational, not an answer; wsh serve answers 200-599"))
            refused.targetName = answer.targetName
            return refused
        }
        guard [204, 205, 304].contains(answer.status) else { return answer }
        var empty = answer
        empty.body = ByteBuffer()
        empty.headers.remove(name: "Content-Type")
        return empty
    }

    /// `code=404` in a `Prefer` header (RFC 7240 preferences, as Prism reads them).
    static func preferredCode(_ values: [Substring]) -> Int? {
        preference(values, named: "code").flatMap { Int($0) }
    }

    /// The value of the preference `name` in `Prefer` headers, unquoted and lowercased.
    static func preference(_ values: [Substring], named name: String) -> String? {
        for value in values {
            for preference in value.split(whereSeparator: { $0 == "," || $0 == ";" }) {
                let parts = preference.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, parts[0].lowercased() == name {
                    return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
                }
            }
        }
        return nil
    }

    /// A CORS preflight: the methods the path answers, and the headers asked for.
    private func preflight(_ match: MockRoutes.Match, _ head: HTTPRequestHead) -> Answer {
        var methods: [String]
        switch match {
        case .found(let route, _): methods = [route.method]
        case .wrongMethod(let allowed): methods = allowed
        case .notFound: return Answer(status: 404, headers: HTTPHeaders(), body: ByteBuffer())
        }
        if methods.contains("GET"), !methods.contains("HEAD") { methods.append("HEAD") }
        var headers = HTTPHeaders()
        headers.add(name: "Access-Control-Allow-Methods", value: methods.joined(separator: ", "))
        if let asked = head.headers.first(name: "Access-Control-Request-Headers") {
            headers.add(name: "Access-Control-Allow-Headers", value: asked)
        }
        headers.add(name: "Access-Control-Max-Age", value: "600")
        return Answer(status: 204, headers: headers, body: ByteBuffer())
    }

    private func addCORSHeaders(to answer: inout Answer, request: HTTPRequestHead) {
        answer.headers.add(name: "Access-Control-Allow-Origin", value: request.headers.first(name: "Origin") ?? "*")
        answer.headers.add(name: "Access-Control-Expose-Headers", value: "*")
        if request.headers.contains(name: "Origin") { answer.headers.add(name: "Vary", value: "Origin") }
    }

    static func problemAnswer(_ problem: Problem) -> Answer {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: Problem.mediaType)
        return Answer(status: problem.status, headers: headers, body: ByteBuffer(string: problem.body))
    }
}

extension String {
    /// The text cut to 200 characters, control characters escaped: safe to echo in a log or a problem.
    var logSafe: String {
        // Most request lines are short printable ASCII: nothing to escape or cut.
        if utf8.count <= 200, utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return self }
        var text = ""
        for scalar in unicodeScalars.prefix(200) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                text += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return unicodeScalars.count > 200 ? text + "…" : text
    }
}
