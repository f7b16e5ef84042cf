import Foundation
import NIOCore
import NIOHTTP1
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
        var answer = routeAnswer(head, method: method, path: path, query: query, body: body)
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
                var answer = Self.problemAnswer(Problem(
                    status: 400, title: "Bad Request",
                    detail: "\(first.reason) (target '\(route.targetName)')\(more)",
                    invalidParameters: problems))
                answer.targetName = route.targetName
                return answer
            }
            var answer = sampleAnswer(route, prefer: head.headers[canonicalForm: "Prefer"])
            answer.targetName = route.targetName
            return answer
        }
    }

    /// The sample `Prefer: code=NNN` asks for, else the default one.
    private func sampleAnswer(_ route: MockRoute, prefer: [Substring]) -> Answer {
        guard !route.answers.isEmpty else {
            return Self.problemAnswer(Problem(
                status: 501, title: "Not Implemented",
                detail: "target '\(route.targetName)' has no sample to answer with; declare one with sample @FILE"))
        }
        var sample = route.answers[0]
        if let wanted = Self.preferredCode(prefer) {
            guard let found = route.answers.first(where: { $0.status == wanted }) else {
                let statuses = route.sampleStatuses.map(String.init).joined(separator: ", ")
                return Self.problemAnswer(Problem(
                    status: 500, title: "Internal Server Error",
                    detail: "Prefer asks for status \(wanted), but target '\(route.targetName)' has samples for \(statuses) only",
                    extensions: [("statuses", .array(route.sampleStatuses.map { .number(String($0)) }))]))
            }
            sample = found
        }
        var headers = HTTPHeaders()
        if let contentType = sample.contentType { headers.add(name: "Content-Type", value: contentType) }
        return Answer(status: sample.status, headers: headers, body: sample.body)
    }

    /// `code=404` in a `Prefer` header (RFC 7240 preferences, as Prism reads them).
    static func preferredCode(_ values: [Substring]) -> Int? {
        for value in values {
            for preference in value.split(whereSeparator: { $0 == "," || $0 == ";" }) {
                let parts = preference.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, parts[0].lowercased() == "code" {
                    return Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
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
