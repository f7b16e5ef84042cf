import Foundation
@testable import Targets
import TestSupport
import Testing

/// Keys written or given twice, list defaults, query items and a body given whole, as the loopback
/// server's `/echo` route receives them.
@Suite struct ParameterBindingTests {
    func target(_ server: TestServer, _ task: RequestTask, path: String = "/echo") -> Target {
        Target(name: "t", baseURL: server.baseURL, path: path, method: .post, task: task)
    }

    func send(_ target: Target, _ arguments: CallArguments) async throws -> Echo {
        let response = try await Provider<Target>().request(target, arguments: arguments)
        #expect(response.status == 200)
        return try Echo(response)
    }

    @Test func aKeyDeclaredTwiceIsSentTwiceInQueryAndForm() async throws {
        try await withTestServer { server in
            let tags = [Parameter(name: "tag", defaultValue: .text("a")), Parameter(name: "n", defaultValue: .text("1")),
                        Parameter(name: "tag", defaultValue: .text("b"))]
            let query = try await send(target(server, .query(tags)), CallArguments())
            #expect(query.query == "tag=a&n=1&tag=b")
            let form = try await send(target(server, .form(tags)), CallArguments())
            #expect(form.body == "tag=a&n=1&tag=b")
            #expect(form.header("Content-Type") == "application/x-www-form-urlencoded")
        }
    }

    @Test func aListDefaultIsSentAsTheKeyRepeatedInOrder() async throws {
        try await withTestServer { server in
            let list = [Parameter(name: "tag", defaultValue: .json(#"["a", "b c", 3, null]"#))]
            let sent1 = try await send(target(server, .query(list)), CallArguments())
            #expect(sent1.query == "tag=a&tag=b%20c&tag=3&tag=null")
            let sent2 = try await send(target(server, .form(list)), CallArguments())
            #expect(sent2.body == "tag=a&tag=b%20c&tag=3&tag=null")
            // In a JSON body a list is the JSON array it is.
            let sent3 = try await send(target(server, .json(list)), CallArguments())
            #expect(sent3.body == #"{"tag":["a","b c",3,null]}"#)
        }
    }

    @Test func aParameterGivenTwiceIsSentTwiceWhereItIsDeclared() async throws {
        try await withTestServer { server in
            let twice = CallArguments(values: [("tag", .text("x")), ("tag", .text("y"))])
            let declared = [Parameter(name: "a", defaultValue: .text("1")), Parameter(name: "tag", defaultValue: .text("d")),
                            Parameter(name: "tag", defaultValue: .text("e"))]
            // The call's values replace every declared default of the name, at its first place.
            let sent4 = try await send(target(server, .query(declared)), twice)
            #expect(sent4.query == "a=1&tag=x&tag=y")
            let sent5 = try await send(target(server, .form(declared)), twice)
            #expect(sent5.body == "a=1&tag=x&tag=y")
            let sent6 = try await send(target(server, .json(declared)), twice)
            #expect(sent6.body == #"{"a":"1","tag":["x","y"]}"#)
            let multipart = try await send(target(server, .multipart(declared)), twice)
            #expect(multipart.body.components(separatedBy: "name=\"tag\"").count == 3)
            let x = try #require(multipart.body.range(of: "\r\n\r\nx\r\n"))
            let y = try #require(multipart.body.range(of: "\r\n\r\ny\r\n"))
            #expect(x.lowerBound < y.lowerBound)
        }
    }

    @Test func queryItemsFollowTheTargetsQueryWhetherDeclaredOrNot() async throws {
        try await withTestServer { server in
            let declared = target(server, .query([Parameter(name: "q", defaultValue: .text("1"))]))
            let echo = try await send(declared, CallArguments(queryItems: [("extra", "a b"), ("q", "2")]))
            #expect(echo.query == "q=1&extra=a%20b&q=2")
            let plain = try await send(target(server, .plain), CallArguments(queryItems: [("x", "1")]))
            #expect(plain.query == "x=1")
        }
    }

    /// A name both the query and the body declare (an OpenAPI `name` query parameter beside a
    /// `name` field): `name==q` gives the query's value and `name=b` the body's. The query sent
    /// both (`name=b&name=q`), so no call could give them apart.
    @Test func aNameInQueryAndBodyTakesItsQueryValueFromDoubleEquals() async throws {
        try await withTestServer { server in
            let both = target(server, .composite(query: [Parameter(name: "name")],
                                                 body: .json([Parameter(name: "name"), Parameter(name: "size", isOptional: true)])))
            let apart = try await send(both, CallArguments(values: [("name", .text("b"))], queryItems: [("name", "q"), ("x", "1")]))
            #expect(apart.query == "name=q&x=1" && apart.body == #"{"name":"b"}"#, "\(apart.query) \(apart.body)")
            let same = try await send(both, CallArguments(values: [("name", .text("b"))]))
            #expect(same.query == "name=b" && same.body == #"{"name":"b"}"#, "\(same.query) \(same.body)")
            // The body's field is still needed; an optional one is left out.
            await #expect(throws: ProviderError.self) {
                try await Provider<Target>().request(both, arguments: CallArguments(queryItems: [("name", "q")]))
            }
            let optional = target(server, .composite(query: [Parameter(name: "name")],
                                                     body: .json([Parameter(name: "name", isOptional: true), Parameter(name: "size", defaultValue: .json("3"))])))
            let queryOnly = try await send(optional, CallArguments(queryItems: [("name", "q")]))
            #expect(queryOnly.query == "name=q" && queryOnly.body == #"{"size":3}"#, "\(queryOnly.query) \(queryOnly.body)")
        }
    }

    @Test func aBodyGivenWholeReplacesTheDeclaredOneWithItsType() async throws {
        try await withTestServer { server in
            let json = target(server, .composite(query: [Parameter(name: "v", defaultValue: .text("2"))],
                                                 body: .json([Parameter(name: "name")])))
            let body = RawBody(data: Data("<a>1</a>".utf8), contentType: "application/xml")
            let echo = try await send(json, CallArguments(body: body))
            #expect(echo.body == "<a>1</a>")
            #expect(echo.header("Content-Type") == "application/xml")
            #expect(echo.query == "v=2")
            // A body field beside a whole body is an error that names it.
            let error = await providerError {
                _ = try await Provider<Target>().request(json, arguments: CallArguments(values: [("name", .text("x"))], body: body))
            }
            #expect(error?.misplacedArgument == "name")
        }
    }

    @Test func aPathParameterTakesOneValueAndAFileNeedsAMultipartBody() async throws {
        try await withTestServer { server in
            let item = target(server, .json([Parameter(name: "f", defaultValue: .text(""))]), path: "/echo/{id}")
            let twice = await providerError {
                _ = try await Provider<Target>().request(item, arguments: CallArguments(values: [("id", .text("1")), ("id", .text("2"))]))
            }
            #expect(twice?.misplacedArgument == "id")
            #expect(twice?.description == "parameter 'id' of target 't' fills a path segment and takes one value, not several")
            let file = await providerError {
                _ = try await Provider<Target>().request(item, arguments: CallArguments(values: [("id", .text("1")), ("f", .file("/etc/hostname"))]))
            }
            #expect(file?.misplacedArgument == "f")
        }
    }

    @Test func aFilePartTakesItsTypeFromTypeSuffixElseItsExtension() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-parts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("logo.png").path
        let raw = directory.appendingPathComponent("logo.raw").path
        try Data("PNG".utf8).write(to: URL(fileURLWithPath: png))
        try Data("RAW".utf8).write(to: URL(fileURLWithPath: raw))
        try await withTestServer { server in
            let upload = target(server, .multipart([Parameter(name: "a"), Parameter(name: "b"), Parameter(name: "c")]))
            let echo = try await send(upload, CallArguments(values: [
                ("a", .file(png)), ("b", .file(raw)), ("c", .file(raw + ";type=image/x-raw")), ("a", .file(raw)),
            ]))
            // A file field given twice is two parts, in order (httpbin's echo lists only one per name).
            let first = try #require(echo.body.range(of: "name=\"a\"; filename=\"logo.png\""))
            let second = try #require(echo.body.range(of: "name=\"a\"; filename=\"logo.raw\""))
            #expect(first.lowerBound < second.lowerBound)
            #expect(second.upperBound < (echo.body.range(of: "name=\"b\"")?.lowerBound ?? echo.body.startIndex))
            #expect(echo.body.contains("name=\"a\"; filename=\"logo.png\"\r\nContent-Type: image/png\r\n\r\nPNG\r\n"))
            #expect(echo.body.contains("name=\"b\"; filename=\"logo.raw\"\r\nContent-Type: application/octet-stream\r\n\r\nRAW\r\n"))
            #expect(echo.body.contains("name=\"c\"; filename=\"logo.raw\"\r\nContent-Type: image/x-raw\r\n\r\nRAW\r\n"))
        }
    }
}

/// Arguments that do not fit the target fail before anything is sent.
@Suite struct ParameterErrorTests {
    private func current(_ server: TestServer) -> Target {
        Target(
            name: "current", baseURL: server.baseURL, path: "/echo/{station}",
            task: .query([
                Parameter(name: "latitude", defaultValue: .text("37.27")),
                Parameter(name: "longitude", defaultValue: .text("127.11")),
            ]))
    }

    @Test func unknownParameterIsNamedWithTheTargetsParameters() async throws {
        try await withTestServer { server in
            let arguments = CallArguments(values: [(name: "station", value: .text("s")), (name: "lattitude", value: .text("1"))])
            let error = await providerError { _ = try await Provider<Target>().request(current(server), arguments: arguments) }
            let failure = try #require(error)
            #expect(failure.step == .endpoint)
            #expect(failure.unknownParameter == "lattitude")
            #expect(failure.missingParameter == nil)
            #expect(failure.parameters == ["station", "latitude", "longitude"])
            #expect(failure.targetName == "current")
            #expect(failure.description == "unknown parameter 'lattitude' for target 'current'")
            #expect(server.hits("/echo/s") == 0)
        }
    }

    @Test func missingRequiredParameterIsNamed() async throws {
        try await withTestServer { server in
            let error = await providerError { _ = try await Provider<Target>().request(current(server)) }
            let failure = try #require(error)
            #expect(failure.step == .endpoint)
            #expect(failure.missingParameter == "station")
            #expect(failure.unknownParameter == nil)
            #expect(failure.parameters == ["station", "latitude", "longitude"])
            #expect(failure.description == "missing required parameter 'station' for target 'current'")
        }
    }

    /// A path segment takes one value: a second one for it is an error naming it, not a silent choice
    /// of one (a query or body parameter given twice is sent twice).
    @Test func aPathParameterGivenTwiceIsAnError() async throws {
        try await withTestServer { server in
            let error = await providerError {
                _ = try await Provider<Target>().request(current(server), arguments: CallArguments(values: [("station", .text("a")), ("station", .text("b"))]))
            }
            #expect(error?.step == .endpoint)
            #expect(error?.misplacedArgument == "station")
            #expect(server.hits("/echo/a") + server.hits("/echo/b") == 0)
        }
    }
}
