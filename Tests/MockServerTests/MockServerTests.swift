import Foundation
import MockServer
import Targets
import TestSupport
import Testing

/// The mock server answers declared targets' samples over real HTTP, sent by wsh's own provider.
@Suite struct MockServerTests {
    private func call(_ target: Target, _ server: MockServer, _ arguments: CallArguments = CallArguments()) async throws -> Response {
        var pointed = target
        pointed.baseURL = server.url + (URL(string: target.baseURL)?.path ?? "")
        var noValidation = pointed
        noValidation.validationType = .none
        return try await Provider<Target>(transport: NetworkTransport.shared).request(noValidation, arguments: arguments)
    }

    @Test func aRouteAnswersItsSampleWithItsStatusAndType() async throws {
        try await withMockServer([Samples.forecastTarget, Samples.userTarget]) { server in
            let forecast = try await call(Samples.forecastTarget, server, CallArguments(values: [("latitude", .text("1")), ("longitude", .text("2"))]))
            #expect(forecast.status == 200)
            #expect(forecast.text == Samples.forecast)
            #expect(forecast.header("Content-Type") == "application/json")
            let user = try await call(Samples.userTarget, server, CallArguments(values: [("id", .text("7"))]))
            #expect(user.text == Samples.user)
        }
    }

    @Test func preferPicksTheSampleOfAStatusAndAnUnknownOneIsA500NamingThem() async throws {
        try await withMockServer([Samples.userTarget]) { server in
            let missing = try await rawRequest(server.port, "GET /users/9 HTTP/1.1\r\nHost: x\r\nPrefer: code=404\r\n\r\n")
            #expect(missing.status == 404)
            #expect(missing.text == Samples.missingUser)
            let unknown = try await rawRequest(server.port, "GET /users/9 HTTP/1.1\r\nHost: x\r\nPrefer: code=418\r\n\r\n")
            #expect(unknown.status == 500)
            #expect(unknown.header("Content-Type") == "application/problem+json")
            #expect(unknown.text.contains(#""detail":"Prefer asks for status 418, but target 'user' answers 200, 404 only""#), "\(unknown.text)")
            #expect(unknown.text.contains(#""statuses":[200,404]"#))
        }
    }

    @Test func aMissingRequiredQueryParameterIsA400ProblemNamingIt() async throws {
        try await withMockServer([Samples.forecastTarget]) { server in
            let answer = try await rawRequest(server.port, "GET /v1/forecast?latitude=1 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 400)
            #expect(answer.header("Content-Type") == "application/problem+json")
            let problem = try JSONValue.parse(answer.text)
            #expect(problem["title"]?.string == "Bad Request")
            #expect(problem["detail"]?.string == "required query parameter 'longitude' is missing (target 'current')")
            #expect(problem["invalid-params"]?[0]?["name"]?.string == "longitude")
            #expect(problem["invalid-params"]?[0]?["in"]?.string == "query")
        }
    }

    @Test func aMissingRequiredHeaderIsA400NamingIt() async throws {
        var target = Samples.userTarget
        target.requiredHeaders = ["X-Request-Id"]
        try await withMockServer([target]) { server in
            let missing = try await rawRequest(server.port, "GET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(missing.status == 400)
            let problem = try JSONValue.parse(missing.text)
            #expect(problem["invalid-params"]?[0]?["in"]?.string == "header")
            #expect(problem["detail"]?.string == "required header 'X-Request-Id' is missing (target 'user')")
            let given = try await rawRequest(server.port, "GET /users/7 HTTP/1.1\r\nHost: x\r\nx-request-id: 1\r\n\r\n")
            #expect(given.status == 200)
        }
    }

    @Test func jsonBodyFieldsAreCheckedForPresenceAndType() async throws {
        try await withMockServer([Samples.createTarget]) { server in
            func post(_ body: String) async throws -> RawHTTPConnection.Answer {
                try await rawRequest(server.port, "POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            }
            let created = try await post(#"{"name": "Ada", "age": 36, "tags": []}"#)
            #expect(created.status == 201)
            let missing = try await post(#"{"age": 36}"#)
            #expect(missing.status == 400)
            #expect(missing.text.contains("required JSON field 'name' is missing"), "\(missing.text)")
            let wrongType = try await post(#"{"name": "Ada", "age": "36"}"#)
            #expect(wrongType.status == 400)
            #expect(wrongType.text.contains("JSON field 'age' should be a number, not a string"), "\(wrongType.text)")
            let notJSON = try await post("name=Ada")
            #expect(notJSON.status == 400)
            #expect(notJSON.text.contains("the body is not JSON"), "\(notJSON.text)")
            let twoWrong = try await post(#"{"name": "Ada", "age": "x", "tags": {}}"#)
            #expect(twoWrong.text.contains("(and 1 more)"), "\(twoWrong.text)")
        }
    }

    @Test func anUnknownPathIsA404ListingTheNearestRoutes() async throws {
        try await withMockServer([Samples.forecastTarget, Samples.userTarget, Samples.createTarget]) { server in
            let answer = try await rawRequest(server.port, "GET /v1/forcast HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 404)
            let problem = try JSONValue.parse(answer.text)
            #expect(problem["detail"]?.string == "no route for GET /v1/forcast")
            #expect(problem["nearest"]?[0]?.string == "GET /v1/forecast (current)")
        }
    }

    @Test func aKnownPathWithAnotherMethodIsA405WithAllow() async throws {
        try await withMockServer([Samples.userTarget, Samples.createTarget]) { server in
            let answer = try await rawRequest(server.port, "DELETE /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 405)
            #expect(answer.header("Allow") == "GET, HEAD")
            let other = try await rawRequest(server.port, "GET /users HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(other.status == 405)
            #expect(other.header("Allow") == "POST")
        }
    }

    @Test func aBodyOverTheLimitIsA413AndTheConnectionCloses() async throws {
        try await withMockServer([Samples.createTarget]) { server in
            // The default limit, 10 MB, refused from the Content-Length before any body is sent.
            let declared = try await offPool {
                let connection = try RawHTTPConnection(port: server.port)
                try connection.send("POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 10485761\r\n\r\n")
                let answer = try connection.readAnswer()
                return (answer, connection.isClosedByServer())
            }
            #expect(declared.0.status == 413)
            #expect(declared.0.text.contains("the request body is over the limit of 10.0 MB"), "\(declared.0.text)")
            #expect(declared.1)
        }
        try await withMockServer([Samples.createTarget], bodyLimit: 1000) { server in
            // Chunked, with no length to refuse early: refused when the chunks pass the limit.
            let chunk = String(repeating: "x", count: 600)
            let chunked = "POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n"
            let answer = try await rawRequest(server.port, chunked)
            #expect(answer.status == 413)
        }
    }

    @Test func expectContinueIsAnsweredBeforeTheBodyIsSent() async throws {
        try await withMockServer([Samples.createTarget]) { server in
            let statuses = try await offPool {
                let connection = try RawHTTPConnection(port: server.port)
                let body = #"{"name":"Ada"}"#
                try connection.send("POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
                let interim = try connection.readAnswer()
                try connection.send(body)
                return [interim.status, try connection.readAnswer().status]
            }
            #expect(statuses == [100, 201])
        }
    }

    @Test func routeUpdatesTakeEffectOnTheNextRequest() async throws {
        try await withMockServer([Samples.userTarget]) { server in
            #expect(try await rawRequest(server.port, "GET /v1/forecast?latitude=1&longitude=2 HTTP/1.1\r\nHost: x\r\n\r\n").status == 404)
            server.update(MockRoutes(routes: [MockRoute(target: Samples.forecastTarget)]))
            let answer = try await rawRequest(server.port, "GET /v1/forecast?latitude=1&longitude=2 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 200)
            #expect(answer.text == Samples.forecast)
        }
    }

    @Test func headAnswersTheHeadersOfGetWithoutTheBody() async throws {
        try await withMockServer([Samples.userTarget]) { server in
            let answer = try await offPool {
                let connection = try RawHTTPConnection(port: server.port)
                try connection.send("HEAD /users/7 HTTP/1.1\r\nHost: x\r\n\r\nGET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
                let head = try connection.readAnswer()
                // A HEAD answer carries the length of the body it does not send: read the next answer by hand.
                let get = try connection.readAnswerAfterHead()
                return (head, get)
            }
            #expect(answer.0.status == 200)
            #expect(answer.0.header("Content-Length") == String(Samples.user.utf8.count))
            #expect(answer.1.contains(Samples.user))
        }
    }

    @Test func corsAddsHeadersAndAnswersPreflight() async throws {
        try await withMockServer([Samples.createTarget], cors: true) { server in
            let preflight = try await rawRequest(server.port, "OPTIONS /users HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\n\r\n")
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "http://app.test")
            #expect(preflight.header("Access-Control-Allow-Methods") == "POST")
            #expect(preflight.header("Access-Control-Allow-Headers") == "content-type")
            let body = #"{"name":"Ada"}"#
            let created = try await rawRequest(server.port, "POST /users HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(created.status == 201)
            #expect(created.header("Access-Control-Allow-Origin") == "http://app.test")
        }
    }

    @Test func aDelayHoldsEachAnswer() async throws {
        try await withMockServer([Samples.userTarget], delay: .milliseconds(300)) { server in
            let clock = ContinuousClock()
            let start = clock.now
            let answer = try await rawRequest(server.port, "GET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 200)
            #expect(start.duration(to: clock.now) >= .milliseconds(290))
        }
    }

    @Test func eachRequestIsLoggedOnceWithSecretsMasked() async throws {
        let lines = LogLines()
        try await withMockServer([Samples.forecastTarget], redaction: Redaction(secrets: ["s3cr3t-value"]), log: lines.sink) { server in
            _ = try await rawRequest(server.port, "GET /v1/forecast?latitude=1&longitude=2&appid=abc123&q=s3cr3t-value HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await rawRequest(server.port, "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        let logged = lines.all
        #expect(logged.count == 2)
        #expect(logged[0].hasPrefix("GET /v1/forecast?latitude=1&longitude=2&appid=***&q=*** -> 200 current "), "\(logged)")
        #expect(logged[0].hasSuffix(" ms"))
        #expect(logged[1].hasPrefix("GET /nowhere -> 404 "))
        #expect(!logged.joined().contains("abc123") && !logged.joined().contains("s3cr3t"))
    }

    @Test func twoTargetsOnOnePathAreToldApartByTheirQuery() async throws {
        let hourly = Target(name: "hourly", baseURL: "https://api.open-meteo.com/v1", path: "/forecast",
                            task: .query([Parameter(name: "latitude"), Parameter(name: "hourly", defaultValue: .text("temperature_2m"))]),
                            samples: [Sample(body: Data("[1,2,3]".utf8))])
        try await withMockServer([Samples.forecastTarget, hourly]) { server in
            let answer = try await rawRequest(server.port, "GET /v1/forecast?latitude=1&hourly=temperature_2m HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.text == "[1,2,3]")
            let current = try await rawRequest(server.port, "GET /v1/forecast?latitude=1&longitude=2&current=temperature_2m HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(current.text == Samples.forecast)
        }
    }

    /// A target with no sample, declared first on a path, does not hide one of the same path that
    /// has a sample (a Postman request beside its saved example): it answered 501 for both.
    @Test func aRouteWithNoSampleGivesWayToOneOfItsPathThatHasOne() async throws {
        let bare = Target(name: "request", baseURL: "https://h/v1", path: "/digest-auth")
        let example = Target(name: "success", baseURL: "https://h/v1", path: "/digest-auth", samples: [Sample(body: Data(#"{"ok":true}"#.utf8))])
        try await withMockServer([bare, example]) { server in
            let answer = try await rawRequest(server.port, "GET /v1/digest-auth HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 200 && answer.text == #"{"ok":true}"#, "\(answer.text)")
        }
        try await withMockServer([bare]) { server in
            let answer = try await rawRequest(server.port, "GET /v1/digest-auth HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 501, "alone, it still says it has no sample")
        }
        // The query fits first: a request with the bare target's query is its own, and says it has no sample.
        let queried = Target(name: "queried", baseURL: "https://h/v1", path: "/digest-auth",
                             task: .query([Parameter(name: "hourly", defaultValue: .text("x"))]))
        try await withMockServer([example, queried]) { server in
            let answer = try await rawRequest(server.port, "GET /v1/digest-auth?hourly=x HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 501, "\(answer.text)")
        }
    }

    @Test func stopClosesConnectionsKeptAlive() async throws {
        let routes = MockRoutes(routes: [MockRoute(target: Samples.userTarget)])
        let server = try await MockServer.start(.init(port: 0), routes: routes)
        let connection = try RawHTTPConnection(port: server.port)
        let first = try await offPool {
            try connection.send("GET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            return try connection.readAnswer().status
        }
        #expect(first == 200)
        await server.stop()
        #expect(try await offPool { connection.isClosedByServer() })
        // A port picked for 0 is still named once the server is stopped (`serve stop` said ":0").
        #expect(server.port != 0)
        #expect(server.url == "http://127.0.0.1:\(server.port)")
    }

    @Test func aPortInUseIsSaidPlainly() async throws {
        try await withMockServer([]) { server in
            await #expect {
                _ = try await MockServer.start(.init(port: server.port), routes: MockRoutes(routes: []))
            } throws: { error in
                "\(error)" == "cannot listen on 127.0.0.1:\(server.port): address already in use"
            }
        }
    }
}

extension RawHTTPConnection {
    /// Reads what follows on the connection until the server has sent a whole GET answer, as text.
    func readAnswerAfterHead() throws -> String {
        let answer = try readAnswer()
        return answer.head + "\r\n\r\n" + answer.text
    }
}

/// Whatever bytes a client sends, the server answers or closes that connection, and goes on
/// answering others.
@Suite struct MalformedRequestTests {
    static let hostile: [String] = [
        "GARBAGE\r\n\r\n",
        "GET / HTTP/1.1\r\nHost x-no-colon\r\n\r\n",
        "GET /users/7 HTTP/9.9\r\n\r\n",
        "GET /\u{01}\u{7f}path HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nxx\r\n0\r\n\r\n",
        "POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        "POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
        "GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 20_000) + "\r\n",
        // Not valid percent-encoding: the id is taken as written.
        "GET /users/%ZZ%00 HTTP/1.1\r\nHost: x\r\n\r\n",
        // Blank lines before a request are allowed (RFC 9112, 2.2).
        "\r\n\r\nGET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n",
    ]

    @Test(arguments: hostile.indices)
    func aMalformedRequestLeavesTheServerAnswering(_ index: Int) async throws {
        try await withMockServer([Samples.userTarget, Samples.createTarget]) { server in
            let request = Self.hostile[index]
            let outcome = try await offPool { () -> Int in
                // A minute to read: a bound only a server that neither answers nor closes reaches.
                let connection = try RawHTTPConnection(port: server.port, timeout: 60)
                try? connection.send(request)
                // Either an answer (4xx) or a closed connection; never silence until the timeout.
                if let answer = try? connection.readAnswer() { return answer.status }
                return connection.isClosedByServer() ? -1 : -2
            }
            #expect(outcome != -2, "no answer and no close for request \(index)")
            #expect(outcome == -1 || (200..<500).contains(outcome), "request \(index) answered \(outcome)")
            let after = try await rawRequest(server.port, "GET /users/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(after.status == 200)
        }
    }

    @Test func aMalformedBodyForAJSONRouteIsA400NotACrash() async throws {
        try await withMockServer([Samples.createTarget]) { server in
            let deep = String(repeating: "[", count: 100_000)
            let bodies = [deep, "{\"name\": \"\u{FFFD}\", \"age\": 1e999999}", String(decoding: [0xFF, 0xFE, 0x00, 0x7B], as: UTF8.self)]
            for body in bodies {
                let answer = try await rawRequest(server.port, "POST /users HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                #expect([201, 400].contains(answer.status), "\(answer.status) \(answer.text.prefix(200))")
            }
        }
    }

    /// Placeholders with text around them, or two in one segment, match as OpenAPI writes them;
    /// before, only the first placeholder of a segment was read and these were 404s.
    @Test func aSegmentWithSeveralPlaceholdersOrTextAroundOneMatches() async throws {
        let file = Target(name: "file", baseURL: "https://api.example.com", path: "/files/{name}.{ext}", samples: [Sample(body: Data("f".utf8))])
        let cancel = Target(name: "cancel", baseURL: "https://api.example.com", path: "/v1/{id}:cancel", method: .post, samples: [Sample(body: Data("c".utf8))])
        let report = Target(name: "report", baseURL: "https://api.example.com", path: "/report-{year}", samples: [Sample(body: Data("r".utf8))])
        let parts = Target(name: "parts", baseURL: "https://api.example.com", path: "/p/{a}-{b}.json", samples: [Sample(body: Data("p".utf8))])
        try await withMockServer([file, cancel, report, parts]) { server in
            for (request, body) in [("GET /files/report.pdf", "f"), ("GET /files/report.tar.gz", "f"), ("POST /v1/abc:cancel", "c"),
                                    ("GET /report-2024", "r"), ("GET /p/x-y-z.json", "p")] {
                let answer = try await rawRequest(server.port, "\(request) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
                #expect(answer.status == 200 && answer.text == body, "\(request): \(answer.status) \(answer.text)")
            }
            for request in ["GET /files/report", "GET /files/.pdf", "POST /v1/:cancel", "GET /report-", "GET /p/x.json"] {
                let answer = try await rawRequest(server.port, "\(request) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
                #expect(answer.status == 404, "\(request): \(answer.status) \(answer.text)")
            }
        }
    }
}
