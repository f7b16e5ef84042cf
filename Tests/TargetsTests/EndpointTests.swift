@testable import Targets
import TestSupport
import Testing

/// Query strings and `{name}` path segments, as they arrive at a real server.
@Suite struct EndpointTests {
    @Test func queryIsEncodedAsCurlDataURLEncodeInDeclarationOrder() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "search", baseURL: server.baseURL, path: "/echo",
                task: .query([
                    Parameter(name: "q", defaultValue: .text("a b&c=d")),
                    Parameter(name: "city", defaultValue: .text("수원")),
                    Parameter(name: "safe", defaultValue: .text("A-z_0.9~")),
                    Parameter(name: "count", defaultValue: .json("3")),
                    Parameter(name: "plus", defaultValue: .text("1+1/2?#%")),
                ]))
            let echo = try await echo(target)
            #expect(echo.method == "GET")
            #expect(echo.path == "/echo")
            #expect(echo.query == "q=a%20b%26c%3Dd&city=%EC%88%98%EC%9B%90&safe=A-z_0.9~&count=3&plus=1%2B1%2F2%3F%23%25")
            #expect(echo.body == "")
        }
    }

    /// A path written with brackets and a space (`/x[1]?f[a]=b c`) arrives with both escaped once;
    /// the HTTP client escaped the whole URL again, `%` included (`b%2520c`), where a bracket was left.
    @Test func bracketsInAWrittenPathAreEscapedOnceWithTheRest() async throws {
        try await withTestServer { server in
            let target = Target(name: "t", baseURL: server.baseURL, path: "/echo/x[1]?f[a]=b c")
            let echo = try await echo(target)
            #expect(echo.path == "/echo/x%5B1%5D")
            #expect(echo.query == "f%5Ba%5D=b%20c")
        }
    }

    @Test func callArgumentsOverrideDefaultsButKeepDeclarationOrder() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "current", baseURL: server.baseURL, path: "/echo",
                task: .query([
                    Parameter(name: "latitude", defaultValue: .text("37.27")),
                    Parameter(name: "longitude", defaultValue: .text("127.11")),
                    Parameter(name: "current", defaultValue: .text("temperature_2m")),
                ]))
            let echo = try await echo(target, [("longitude", .text("129.0")), ("latitude", .text("35.1"))])
            #expect(echo.query == "latitude=35.1&longitude=129.0&current=temperature_2m")
        }
    }

    @Test func pathPlaceholdersAreFilledAndEscapedAsOneSegment() async throws {
        try await withTestServer { server in
            let target = Target(name: "user", baseURL: server.baseURL + "/", path: "/echo/{city}/items/{id}")
            let echo = try await echo(target, [("city", .text("New York/NY é")), ("id", .text("7"))])
            #expect(echo.path == "/echo/New%20York%2FNY%20%C3%A9/items/7")
            #expect(echo.query == "")
        }
    }

    @Test func everyMethodIsSentAsDeclared() async throws {
        try await withTestServer { server in
            for method in HTTPMethod.allCases where method != .head {
                let target = Target(name: "m", baseURL: server.baseURL, path: "echo", method: method)
                let echo = try await echo(target)
                #expect(echo.method == method.rawValue)
                #expect(echo.path == "/echo")
            }
            let head = Target(name: "h", baseURL: server.baseURL, path: "/echo", method: .head)
            let response = try await Provider<Target>().request(head)
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(server.hits("/echo") == HTTPMethod.allCases.count)
        }
    }

    @Test func targetWithoutBaseURLUsesTheProviderFallback() async throws {
        try await withTestServer { server in
            let target = Target(name: "relative", path: "/echo/fallback")
            let response = try await Provider<Target>(baseURL: server.baseURL).request(target)
            #expect(try Echo(response).path == "/echo/fallback")

            let error = await providerError { _ = try await Provider<Target>().request(target) }
            #expect(error?.step == .endpoint)
            #expect(error?.description.contains("no base URL") == true)
        }
    }

    @Test func callHeadersFollowTheTargetsAndReplaceSameNamedOnes() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "h", baseURL: server.baseURL, path: "/echo",
                headers: [Header(name: "Accept", value: "application/json"), Header(name: "X-Trace", value: "1")])
            let echo = try await echo(target, headers: [
                Header(name: "accept", value: "text/plain"), Header(name: "Accept-Language", value: "ko"),
            ])
            #expect(echo.headers(named: "Accept") == ["text/plain"])
            #expect(echo.header("X-Trace") == "1")
            #expect(echo.header("Accept-Language") == "ko")
            let names = echo.headers.map { $0.name.lowercased() }
            let accept = try #require(names.firstIndex(of: "accept"))
            let trace = try #require(names.firstIndex(of: "x-trace"))
            let language = try #require(names.firstIndex(of: "accept-language"))
            #expect(accept < trace && trace < language)
        }
    }

    @Test func parametersListPathThenQueryThenBodyInDeclarationOrder() {
        let target = Target(
            name: "p", path: "/{b}/{a}",
            task: .composite(
                query: [Parameter(name: "q2"), Parameter(name: "q1", defaultValue: .text("x"))],
                body: .json([Parameter(name: "j"), Parameter(name: "a")])))
        #expect(target.parameters.map(\.name) == ["b", "a", "q2", "q1", "j"])
        #expect(target.parameters.first { $0.name == "q1" }?.defaultValue == .text("x"))
    }
}

/// Characters that may not appear in a URL, written literally in a declaration.
@Suite struct LiteralURLCharacterTests {
    @Test func literalSpacesAndUnicodeInThePathAreEscapedOnce() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "literal", baseURL: server.baseURL, path: "/echo/수원 city/100%/a%2Fb/{id}",
                task: .query([Parameter(name: "q", defaultValue: .text("x y"))]))
            let echo = try await echo(target, [("id", .text("a b"))])
            #expect(echo.path == "/echo/%EC%88%98%EC%9B%90%20city/100%25/a%2Fb/a%20b")
            #expect(echo.query == "q=x%20y")
        }
    }
}

@Suite struct URLCheckTests {
    @Test func httpAndHttpsURLsWithAHostPass() {
        for url in ["http://127.0.0.1:8080/x", "https://api.open-meteo.com/v1/forecast?a=1", "HTTP://Example.com", "http://h"] {
            #expect(Endpoint.hasHTTPSchemeAndHost(url), "\(url)")
        }
    }

    @Test func otherSchemesAndMissingHostsFail() {
        for url in ["ftp://host/x", "http://", "https:///path", "http://:80/x", "api.example.com/x", "", "htp://x"] {
            #expect(!Endpoint.hasHTTPSchemeAndHost(url), "\(url)")
        }
    }

    @Test func aTargetWithABadBaseIsAnEndpointError() {
        let target = Target(name: "bad", baseURL: "ftp://files.example.com", path: "/x")
        #expect(throws: ProviderError.self) { _ = try Endpoint(target: target, arguments: CallArguments()) }
    }
}
