import Foundation
import Testing
@testable import WeatherShell

/// The `.http` reader: the REST Client README's own examples, and each rule of the format.
@Suite struct HTTPFileParserTests {
    static let readmeExamples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Files/http/rest-client-readme")

    /// Line and column (1-based, in bytes: the examples are ASCII) of an error's start.
    static func place(_ failure: HTTPFileParser.Failure, in text: String) -> (Int, Int) {
        let before = Array(text.utf8)[..<failure.span.lowerBound]
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return (line, column)
    }

    /// Every ```http block of REST Client's README (Tests/Files/http/SOURCES.md) is read, but three,
    /// refused at their place: a fragment of headers with no request line, `@prompt`, and a date in
    /// a format of its own (dayjs's `'YYYY-MM-DD'`).
    @Test func everyExampleOfRESTClientsReadmeIsReadOrRefusedAtItsPlace() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.readmeExamples.path).filter { $0.hasSuffix(".http") }.sorted()
        #expect(names.count == 30)
        let refused: [String: (String, Int, Int)] = [
            "08.http": ("a request line is METHOD URL [HTTP/VERSION]", 1, 1),
            "25.http": ("wsh does not ask for values while a file runs (@prompt)", 7, 1),
            "29.http": ("'{{$datetime 'YYYY-MM-DD'}}': wsh writes $datetime as rfc1123 or iso8601, not in a format of its own", 11, 21),
        ]
        var requests = 0
        for name in names {
            let text = try String(contentsOf: Self.readmeExamples.appendingPathComponent(name), encoding: .utf8)
            do {
                let file = try HTTPFileParser.parse(text)
                #expect(refused[name] == nil, "\(name) was read")
                requests += file.requests.count
            } catch {
                let expected = try #require(refused[name], "\(name): \(error.message.text)")
                #expect(error.message.text == expected.0, "\(name)")
                #expect(Self.place(error, in: text) == (expected.1, expected.2), "\(name)")
            }
        }
        #expect(requests >= 30, "the examples hold at least one request each")
    }

    @Test func requestLinesHeadersAndBodies() throws {
        let text = """
            @host = http://h
            ### first one
            # @name login
            // a comment
            POST {{host}}/login?who={{$processEnv USER}} HTTP/1.1
            Content-Type: application/json
            X-Folded: one
              two

            {"a": 1}


            ###
            {{host}}/search
                ?q=1
                &r=2
            # @no-redirect
            ###
            # @no-redirect
            # @no-cookie-jar
            # @timeout 5 s
            PROPFIND http://h/dav
            """
        let file = try HTTPFileParser.parse(text)
        let requests = file.requests
        #expect(requests.count == 3)
        #expect(requests[0].name == "login")
        #expect(requests[0].title == "first one")
        #expect(requests[0].method == "POST")
        #expect(requests[0].url.expressions.map(\.expression) == [.variable("host"), .processEnv("USER", named: false)])
        #expect(requests[0].headers.map(\.name) == ["Content-Type", "X-Folded"])
        #expect(requests[0].headers[1].value.parts == [.text("one"), .text(" "), .text("two")])
        guard case .text(let body)? = requests[0].body.first else { Issue.record("no body"); return }
        #expect(body.parts == [.text("{\"a\": 1}")], "blank lines before ### are not the body's")
        #expect(requests[1].method == "GET")
        #expect(requests[1].url.parts.dropFirst() == [.text("/search"), .text("?q=1"), .text("&r=2")])
        #expect(!requests[1].noRedirect, "a directive after a request's lines is not that request's")
        #expect(requests[2].method == "PROPFIND")
        #expect(requests[2].noRedirect && requests[2].noCookieJar)
        #expect(requests[2].timeout == "5 s")
        guard case .variable(let host)? = file.items.first else { Issue.record("no variable"); return }
        #expect(host.name == "host")
    }

    /// httpyac's `/* ... */` (its examples/api/httpbin.http opens with one holding `> [ ... ]`) is
    /// skipped before a request and among its headers; in a body it is the body's.
    @Test func blockCommentsAreSkippedOutsideBodies() throws {
        let text = """
            /*
              > [ Base URL: httpbin.org/ ]
              GET http://not/a/request
            */
            /* one line */
            POST http://h/a
            /* among
               the headers */
            Accept: */*

            /* sent */
            ###
            GET http://h/b
            """
        let requests = try HTTPFileParser.parse(text).requests
        #expect(requests.map(\.method) == ["POST", "GET"])
        // A host named like a protocol is a host: `ws:8080` is HTTP (review-rmain8 L1).
        #expect(try HTTPFileParser.parse("GET ws:8080/health\n").requests.count == 1)
        #expect(requests[0].headers.map(\.name) == ["Accept"])
        guard case .text(let body)? = requests[0].body.first else { Issue.record("no body"); return }
        #expect(body.parts == [.text("/* sent */")])
    }

    @Test func includedFilesAndMultipartLines() throws {
        let file = try HTTPFileParser.parse("POST http://h/u\nContent-Type: multipart/form-data; boundary=b\n\n--b\n\n< ./a.txt\n--b--\n")
        let body = try #require(file.requests.first?.body)
        #expect(body.count == 3)
        if case .text(let before) = body[0] { #expect(before.parts == [.text("--b"), .text("\n"), .text("\n")]) }
        if case .file(let path, let substitutes, let encoding, _) = body[1] { #expect(path == "./a.txt" && !substitutes && encoding == nil) }
        if case .text(let after) = body[2] { #expect(after.parts == [.text("\n"), .text("--b--")]) }
    }

    @Test(arguments: [
        ("GET http://h\n\n> {% client.test() %}", "a response handler is JavaScript, which wsh does not run", 3, 1),
        ("< {% request.variables.set('a', 1) %}\nGET http://h", "a pre-request script is JavaScript, which wsh does not run", 1, 1),
        ("GET http://h\n> ./check.js", "a response handler is JavaScript, which wsh does not run", 2, 1),
        ("### with pre script file\n< ./pre.js\nGET http://h", "a pre-request script is JavaScript, which wsh does not run", 2, 1),
        ("{{\n  exports.host = 'http://h';\n}}\n###\nGET {{host}}/a", "a script block ('{{' to '}}') is httpyac's JavaScript, which wsh does not run", 1, 1),
        ("GET http://h\n# @ref tok\n{{\n  exports.x = 1;\n}}", "a script block ('{{' to '}}') is httpyac's JavaScript, which wsh does not run", 3, 1),
        ("GET http://h\n\n{{@response\n  test.status(200);\n}}", "a script block ('{{' to '}}') is httpyac's JavaScript, which wsh does not run", 3, 1),
        ("curl -X POST http://h/anything -H 'X-A: 1' -d 'a=1'", "a curl command, which a .http file of wsh does not send", 1, 1),
        ("POST http://h\n\n?? status == 201\n?? body json.x == 1", "wsh does not run httpyac's assertions ('??')", 3, 1),
        ("GET http://h\n  ?? status == 201", "wsh does not run httpyac's assertions ('??')", 2, 1),
        ("GET http://h\nAccept: */*\n?? header content-type includes json", "wsh does not run httpyac's assertions ('??')", 3, 1),
        ("# @retries 3\nGET http://h", "wsh does not know the directive '@retries'", 1, 1),
        ("GET http://h/{{x", "'{{' is not closed by '}}' on its line", 1, 14),
        ("GET http://h/{{$nope}}", "'{{$nope}}': wsh does not know this value", 1, 14),
        ("GET http://h/{{a b}}", "'{{a b}}' is not a variable name", 1, 14),
        ("GET http://h/{{$randomInt 9 1}}", "'{{$randomInt 9 1}}': $randomInt takes two whole numbers, the lower first: {{$randomInt 1 100}}", 1, 14),
        ("GET http://h\nBad Header: x", "'Bad Header' cannot be a header name", 2, 1),
        ("GET http://h\nno colon", "expected a header 'Name: value', or a blank line before the body", 2, 1),
        ("GET http://h/{{login.response.cookies.x}}", "'{{login.response.cookies.x}}': an answer has a body and headers", 1, 14),
        ("GET http://h/{{$timestamp -9223372036854775808 s}}",
         "'{{$timestamp -9223372036854775808 s}}': an offset is a whole number and a unit of y, M, w, d, h, m, s: -1 d", 1, 14),
        ("GET http://h/{{%%a}}", "'{{%%a}}': one '%' percent-encodes a value; two are not read", 1, 14),
        ("# @name ack\nAMQP amqp://guest:guest@localhost\namqp_queue: q", "a request over AMQP is httpyac's: wsh sends HTTP requests only", 2, 1),
        ("MQTT tcp://broker:1883\n\nhello", "a request over MQTT is httpyac's: wsh sends HTTP requests only", 1, 1),
        ("GRPC grpcb.in:9000/hello.HelloService/SayHello", "a request over gRPC is httpyac's: wsh sends HTTP requests only", 1, 1),
        ("wss://echo.example/socket", "a request over WebSocket is httpyac's: wsh sends HTTP requests only", 1, 1),
        ("SSE https://h/events", "a request over server-sent events is httpyac's: wsh sends HTTP requests only", 1, 1),
        // A `/*` never closed is said, not the rest of the file skipped (review-rmain8 M3).
        ("/*\nGET http://h/a\n\n###\nGET http://h/b", "a '/*' comment is not closed: it ends at a line that ends with '*/'", 1, 1),
        ("/* c */ GET http://h/a", "a request line is METHOD URL [HTTP/VERSION]", 1, 1),
    ])
    func whatIsNotUnderstoodIsAnErrorAtItsPlace(text: String, message: String, line: Int, column: Int) {
        #expect(throws: HTTPFileParser.Failure.self) { try HTTPFileParser.parse(text) }
        do {
            _ = try HTTPFileParser.parse(text)
        } catch {
            #expect(error.message.text == message)
            #expect(Self.place(error, in: text) == (line, column))
        }
    }

    @Test func valuesBothClientsWrite() throws {
        func expression(_ text: String) throws -> HTTPExpression {
            try #require(try HTTPFileParser.parse("GET http://h/{{\(text)}}").requests.first?.url.expressions.first?.expression)
        }
        #expect(try expression("$guid") == .uuid)
        #expect(try expression("$random.uuid") == .uuid)
        #expect(try expression("$random.integer(1, 10)") == .randomInt(1, 10))
        #expect(try expression("$randomInt") == .randomInt(0, 1000), "JetBrains' form alone")
        #expect(try expression("$env.HOME") == .processEnv("HOME", named: false))
        #expect(try expression("$processEnv %secretKey") == .processEnv("secretKey", named: true))
        #expect(try expression("$dotenv %which") == .dotenv("which", named: true))
        #expect(try expression("$dotenv API_KEY") == .dotenv("API_KEY", named: false))
        #expect(try expression("%name") == .percentEncoded(.variable("name")))
        #expect(try expression("$timestamp -1 d") == .date(HTTPDate(format: .timestamp, offset: -86_400)))
        #expect(try expression("$datetime rfc1123") == .date(HTTPDate(format: .rfc1123, offset: 0)))
        #expect(try expression("$localDatetime iso8601 2 h") == .date(HTTPDate(format: .iso8601(local: true), offset: 7_200)))
        #expect(try expression("login.response.body.//reply[1]/@id") == .responseBody(request: "login", path: "//reply[1]/@id"))
        #expect(try expression("login.request.headers.X-A") == .requestHeader(request: "login", name: "X-A"))
    }
}
