import Foundation
import MockServer
import NIOCore
import NIOPosix
import OpenAPI
import Targets

extension Run {
    /// `serve start [OPTIONS]`, `serve stop`, `serve`, `serve log`: the session's targets as a mock
    /// server in the background, while this run goes on.
    func serve(_ arguments: [Word], command: Word) async throws {
        let words = try arguments.map { try expand($0).text }
        switch words.first {
        case nil:
            showServing()
        case "start":
            if let server = session.server {
                throw failure("already serving at \(server.url); stop it first with serve stop", at: command.span)
            }
            switch ServeSettings.parse(Array(words.dropFirst())) {
            case .success(let settings):
                // At the prompt the lines wait for `serve log`, not to be written over the line being typed.
                let server = try await startServing(settings, at: command.span, keepingLog: mode == .interactive)
                let logged = session.serveLog != nil ? "; requests: serve log" : ""
                io.err("serving \(server.routes.routes.count) route\(server.routes.routes.count == 1 ? "" : "s") at \(server.url)\(logged)\n")
            case .failure(let error):
                throw failure(error.message, at: arguments[error.index + 1].span, notes: ["usage: \(ServeSettings.usage)"])
            }
        case "stop":
            guard let server = session.server else { throw failure("not serving; start with serve start", at: command.span) }
            session.server = nil
            await server.stop()
            io.err("stopped serving at \(server.url)\n")
        case "log":
            if let extra = arguments.dropFirst().first { throw failure("usage: serve log", at: extra.span) }
            showServeLog()
        default:
            throw failure("usage: serve start [--port N] | serve stop | serve log | serve", at: arguments[0].span)
        }
    }

    /// Starts the session's mock server; the routes follow the declarations from now on.
    /// At the prompt the server shares the session's event loops; `wsh serve` gives it its own group.
    /// Its request lines go to stderr as they come, or with `keepingLog` to ``Session/serveLog``.
    @discardableResult
    func startServing(_ settings: ServeSettings, at span: SourceSpan?, keepingLog: Bool = false,
                      group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> MockServer {
        let kept = settings.quiet || !keepingLog ? nil : ServeLog()
        let log: (@Sendable (String) -> Void)? = settings.quiet ? nil : kept.map { kept in { @Sendable line in kept.append(line) } }
            ?? { @Sendable line in FileHandleOutput.standardError(line + "\n") }
        var settings = settings
        if settings.seed == nil { settings.seed = UInt64.random(in: 0...UInt64.max) }
        session.serveSettings = settings
        session.serveLog = kept
        let configuration = MockServer.Configuration(host: settings.host, port: settings.port, cors: settings.cors, log: log)
        do {
            let server = try await MockServer.start(configuration, routes: servedRoutes().routes, group: group)
            session.server = server
            session.servedSignature = servedSignature
            return server
        } catch {
            throw failure(error.description, at: span,
                          notes: error.portUnavailable && settings.port != 0 ? ["choose another port with --port N, or 0 for any free one"] : [])
        }
    }

    /// After a statement: when serving, gives the server the routes as declared now, if anything
    /// they are made from changed.
    func refreshServedRoutes() {
        guard let server = session.server else { return }
        let signature = servedSignature
        guard signature != session.servedSignature || session.targets.all.contains(where: \.dependsOnVariables) else { return }
        session.servedSignature = signature
        server.update(servedRoutes().routes)
    }

    /// The routes of every target that compiles now, and the names of those that do not, with why.
    func servedRoutes() -> (routes: MockRoutes, skipped: [(name: String, reason: String)]) {
        var routes: [MockRoute] = []
        var skipped: [(String, String)] = []
        for declared in session.targets.all {
            do {
                var route = MockRoute(target: try compiledTarget(declared), fallbackBase: options.base)
                if let operation = declared.openAPI {
                    route.schemaAnswers = Self.schemaAnswers(operation.operation.responses)
                    route.badRequestAnswer = Self.badRequestAnswer(operation.operation.responses)
                    route.schemaRoot = operation.schemas.root
                    route.declaredResponses = operation.operation.responses.compactMap { response in
                        guard let (status, covers) = MockRoute.SchemaAnswer.served(response.status) else { return nil }
                        // OpenAPI ignores a declared Content-Type header: the media type says it.
                        let required = response.headers.filter { $0.required && $0.name.lowercased() != "content-type" }
                        return .init(status: status, covers: covers,
                                     headers: required.map { .init(name: $0.name, schema: $0.schema ?? .object([]), example: $0.example) },
                                     hasBody: !response.content.isEmpty)
                    }
                    // Each sample under the media type its example came from (the first with one).
                    for response in operation.operation.responses {
                        guard let status = Int(response.status), let media = response.content.first(where: { $0.example != nil }),
                              let example = media.example else { continue }
                        route.declareSample(status: status, mediaType: media.mediaType, example: example, schema: media.schema)
                    }
                }
                routes.append(route)
            } catch {
                let reason = (error as? Diagnostic)?.message ?? "\(error)"
                skipped.append((declared.name, mask(reason)))
            }
        }
        var delay = session.serveSettings?.delay
        if delay == nil, case .delayed(let stubDelay) = options.stub { delay = stubDelay }
        return (MockRoutes(routes: routes, redaction: redaction, delay: delay, seed: session.serveSettings?.seed ?? 0), skipped)
    }

    /// The answers an OpenAPI operation declares with a body, success first (lowest status first),
    /// as `wsh serve` makes them up: a range as its first status (`2XX` as 200, `4XX` as 400) and
    /// `default` as 500, each also answering `Prefer: code=` for a status it covers, with its
    /// example when it gives one (a single status's example is a sample already). Each in its JSON
    /// media type when it has one with a schema, else in the first type it declares (text, XML,
    /// CSV, octet-stream...), never in a type it does not.
    static func schemaAnswers(_ responses: [ResponseInfo]) -> [MockRoute.SchemaAnswer] {
        var answers: [MockRoute.SchemaAnswer] = []
        for response in responses {
            guard let (status, covers) = MockRoute.SchemaAnswer.served(response.status) else { continue }
            guard let media = bodyMedia(response) else { continue }
            answers.append(.init(status: status, contentType: media.mediaType, schema: media.schema ?? .object([]),
                                 example: covers == nil ? nil : media.example, covers: covers))
        }
        return answers.enumerated().sorted { left, right in
            let leftRank = (200...299).contains(left.element.status) ? (0, left.element.status) : (1, left.offset)
            let rightRank = (200...299).contains(right.element.status) ? (0, right.element.status) : (1, right.offset)
            return leftRank < rightRank
        }.map(\.element)
    }

    /// The media type an answer is made up in: its JSON type with a schema, else the first type
    /// it declares; never a wildcard (`image/*`), which no Content-Type can be.
    static func bodyMedia(_ response: ResponseInfo) -> MediaSchema? {
        let concrete = response.content.filter { !$0.mediaType.contains("*") }
        return concrete.first { $0.schema != nil && MediaType.isJSON($0.mediaType) } ?? concrete.first
    }

    /// The answer an operation declares for a request it refuses, with a body: the response that
    /// answers 400 by the rule `Prefer: code=400` follows (its `400`, else its `4XX` in any case,
    /// else its `default`); nil when that one has no content.
    static func badRequestAnswer(_ responses: [ResponseInfo]) -> MockRoute.SchemaAnswer? {
        let keyed = responses.compactMap { response in MockRoute.SchemaAnswer.served(response.status).map { (response, $0.covers) } }
        let answering = keyed.first { $0.1 == nil && Int($0.0.status) == 400 }
            ?? keyed.filter { $0.1?.contains(400) == true }.min { ($0.1?.count ?? 0) < ($1.1?.count ?? 0) }
        guard let response = answering?.0, let media = bodyMedia(response) else { return nil }
        return .init(status: 400, contentType: media.mediaType, schema: media.schema ?? .object([]), example: media.example)
    }

    /// `serve`: where it listens and each route with its target and sample statuses.
    private func showServing() {
        guard let server = session.server else {
            io.out("not serving; start with: \(ServeSettings.usage)\n")
            return
        }
        let (routes, skipped) = servedRoutes()
        io.out("serving at \(server.url)\n")
        io.out(ServedRouteList.text(routes.routes, skipped: skipped))
        if let waiting = session.serveLog?.count, waiting > 0 {
            io.out("\(waiting) request\(waiting == 1 ? "" : "s") not shown yet: serve log\n")
        }
    }

    /// `serve log`: the request lines kept since the last `serve log` (at the prompt; elsewhere
    /// they go to stderr as they come).
    private func showServeLog() {
        guard let log = session.serveLog else {
            io.err(session.server == nil ? "not serving; start with: \(ServeSettings.usage)\n"
                   : "no requests are kept: they go to stderr as they come, or nowhere with --quiet\n")
            return
        }
        let (lines, dropped) = log.take()
        if dropped > 0 { io.out("(\(dropped) older request\(dropped == 1 ? "" : "s") dropped)\n") }
        for line in lines { io.out(line + "\n") }
    }

    /// What the served routes are made from, apart from variables.
    private var servedSignature: ServedSignature {
        ServedSignature(generation: session.targets.generation, base: options.base, stub: options.stub)
    }
}

/// What the served routes were made from: the targets' version, `set base` and `set stub`.
struct ServedSignature: Equatable {
    let generation: Int
    let base: String?
    let stub: ShellOptions.Stub
}

/// The routes as `serve` and `wsh serve` list them: `GET  /v1/forecast  current  200, 404`.
enum ServedRouteList {
    static func text(_ routes: [MockRoute], skipped: [(name: String, reason: String)]) -> String {
        let methodWidth = routes.map(\.method.count).max() ?? 0
        let pathWidth = routes.map(\.path.count).max() ?? 0
        let nameWidth = routes.map(\.targetName.count).max() ?? 0
        var text = ""
        for route in routes {
            let samples = route.sampleStatuses.isEmpty
                ? (route.schemaAnswers.isEmpty && route.declaredResponses.allSatisfy(\.hasBody) ? noSample : schemaStatuses(route))
                : route.sampleStatuses.map(String.init).joined(separator: ", ")
            text += "  \(route.method.padding(methodWidth))  \(route.path.padding(pathWidth))  \(route.targetName.padding(nameWidth))  \(samples)\n"
        }
        for (name, reason) in skipped {
            text += "  not served: \(name): \(reason)\n"
        }
        return text
    }

    /// What a route with nothing to answer a plain request with is listed as.
    private static let noSample = "no sample (answers 501)"

    /// A route answered from its document alone: `500` for a `default` with an example, then
    /// `made up from its schema: 200, 404` for those with a schema only, then `empty: 204` for
    /// the statuses answered with no body, as spans (`empty: 200-399, 500-599`: a `4XX` with a
    /// body beside a `default` without). When a plain request gets none of them (no schema, and no
    /// success declared empty), it says so: `no sample (answers 501); empty with Prefer: code=400-499`.
    private static func schemaStatuses(_ route: MockRoute) -> String {
        let given = route.schemaAnswers.filter { $0.example != nil }.map { String($0.status) }
        let madeUp = route.schemaAnswers.filter { $0.example == nil }.map { String($0.status) }
        let spans = emptySpans(route)
        var empty = spans.isEmpty ? "" : "empty: " + spans
        if !spans.isEmpty, route.schemaAnswers.isEmpty, route.emptySuccessStatus == nil {
            empty = "\(noSample); empty with Prefer: code=" + spans
        }
        let parts = [given.joined(separator: ", "), madeUp.isEmpty ? "" : "made up from its schema: " + madeUp.joined(separator: ", "), empty]
        return parts.filter { !$0.isEmpty }.joined(separator: "; ")
    }

    /// The statuses from 200 to 599 the route answers with no body, in order, a run of them as
    /// its span: `204`, `200-299`, `200-399, 500-599`.
    private static func emptySpans(_ route: MockRoute) -> String {
        var spans: [ClosedRange<Int>] = []
        for status in 200...599 where route.answersEmpty(status) {
            if let last = spans.last, last.upperBound == status - 1 {
                spans[spans.count - 1] = last.lowerBound...status
            } else {
                spans.append(status...status)
            }
        }
        return spans.map { $0.count == 1 ? String($0.lowerBound) : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ")
    }
}

/// `serve`: answer the targets' samples as a mock server
struct ServeShellCommand: ShellCommand {
    static let entry = CommandCatalog.Entry(name: "serve", usage: "\(ServeSettings.usage) | serve stop | serve log | serve", summary: "answer the targets' samples as a mock server")

    static func completions(after previous: [String], word: String, in session: CompletionSnapshot) -> [String]? {
        if previous.count == 1 { return ["start", "stop", "log"] }
        if previous[1] == "start" { return ["--port", "--host", "--delay", "--seed", "--cors", "--quiet"].filter { !previous.contains($0) } }
        return []
    }

    @ShellActor static func run(_ arguments: [Word], command: Word, statement: Statement, in run: Run) async throws {
        try await run.serve(arguments, command: command)
    }
}
