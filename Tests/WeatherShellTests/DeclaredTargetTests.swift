import Testing
import TestSupport
@testable import WeatherShell

/// A target's `key:=JSON` default is JSON where it is declared: `query n:=abc` was taken and sent
/// as the text `abc`, and `json tags:=[a,b]` failed only at the first call.
@Suite struct DeclaredTargetTests {
    @ShellActor private static func declare(_ field: String) async -> (Halt?, String) {
        let shell = ShellHarness()
        let halt = await shell.run("target t { base http://127.0.0.1:9; \(field) }\necho declared")
        return (halt, shell.stderr)
    }

    @Test(arguments: ["query n:=abc", "json tags:=[a,b]", "form f:=\"{\\\"a\\\"\""])
    func aDefaultThatIsNotJSONIsAnErrorAtItsDeclaration(field: String) async {
        let (halt, stderr) = await Self.declare(field)
        #expect(halt != nil)
        #expect(stderr.contains("takes JSON"), "\(stderr)")
        #expect(stderr.contains(":='[\"a\", \"b\"]'"), "the note shows the quoting: \(stderr)")
    }

    @Test(arguments: ["query n:=3", #"query tag:='["a","b"]'"#, "json ok:=true obj:='{\"a\": null}'"])
    func aJSONDefaultIsTaken(field: String) async {
        let (halt, stderr) = await Self.declare(field)
        #expect(halt == nil, "\(stderr)")
    }

    /// A body and no method is a POST, as HTTPie and curl send data (it was a GET with a body,
    /// which servers ignore or refuse); a method given is kept, and no body is a GET.
    @ShellActor @Test func aBodyWithNoMethodIsAPost() async throws {
        let server = try await TestServer.start()
        let cases = ["form x=1": "POST", "json user=ann": "POST", "multipart note=n": "POST", "body \"text\"": "POST",
                     "form x=1; method GET": "GET", "method PUT; json a=1": "PUT", "query q=1": "GET"]
        for (fields, method) in cases {
            let shell = ShellHarness()
            let halt = await shell.run("set output quiet\ntarget t { base \(server.baseURL); path /echo/t; \(fields) }\ncall t")
            #expect(halt == nil, "\(fields): \(shell.stderr)")
            #expect(shell.run.lastResponse?.request.method.rawValue == method, "\(fields)")
        }
        try await server.shutdown()
    }
}
