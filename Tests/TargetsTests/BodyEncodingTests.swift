import Foundation
import Targets
import TestSupport
import Testing

/// JSON, form, multipart, raw and composite bodies, as they arrive at a real server.
@Suite struct BodyEncodingTests {
    @Test func jsonBodyTypesComeFromColonEquals() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "create", baseURL: server.baseURL, path: "/echo", method: .post,
                task: .json([
                    Parameter(name: "name"),
                    Parameter(name: "count", defaultValue: .json("3")),
                    Parameter(name: "price", defaultValue: .json("1.50")),
                    Parameter(name: "tags", defaultValue: .json("[1, 2]")),
                    Parameter(name: "flag", defaultValue: .json("true")),
                    Parameter(name: "nested", defaultValue: .json(#"{"b": null, "a": "x"}"#)),
                    Parameter(name: "quoted", defaultValue: .text("say \"hi\"\n")),
                ]))
            let echo = try await echo(target, [("name", .text("x")), ("count", .json("-1e3"))])
            #expect(echo.method == "POST")
            #expect(echo.header("Content-Type") == "application/json")
            #expect(echo.body == #"{"name":"x","count":-1e3,"price":1.50,"tags":[1,2],"flag":true,"nested":{"b":null,"a":"x"},"quoted":"say \"hi\"\n"}"#)
        }
    }

    @Test func invalidJSONArgumentIsAnEncodingErrorNamingTheParameter() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "create", baseURL: server.baseURL, path: "/echo", method: .post,
                task: .json([Parameter(name: "tags")]))
            let error = await providerError {
                _ = try await Provider<Target>().request(
                    target, arguments: CallArguments(values: [(name: "tags", value: .json("[1, 2"))]))
            }
            #expect(error?.step == .encoding)
            #expect(error?.description.contains("parameter 'tags'") == true)
            #expect(server.hits("/echo") == 0)
        }
    }

    @Test func formBodyIsURLEncodedLikeTheQuery() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "login", baseURL: server.baseURL, path: "/echo", method: .post,
                task: .form([
                    Parameter(name: "user", defaultValue: .text("a b")),
                    Parameter(name: "note", defaultValue: .text("x&y=z")),
                    Parameter(name: "accent", defaultValue: .text("é")),
                    Parameter(name: "n", defaultValue: .json("[1]")),
                    Parameter(name: "m", defaultValue: .json("{\"a\":[1]}")),
                ]))
            let echo = try await echo(target)
            #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded")
            // A JSON list is the key once per element; other JSON goes as its text.
            #expect(echo.body == "user=a%20b&note=x%26y%3Dz&accent=%C3%A9&n=1&m=%7B%22a%22%3A%5B1%5D%7D")
            #expect(echo.query == "")
        }
    }

    @Test func multipartHasABoundaryTextPartsAndFileParts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wsh-multipart-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jsonFile = directory.appendingPathComponent("data.json")
        let textFile = directory.appendingPathComponent("notes.txt")
        let otherFile = directory.appendingPathComponent("blob.bin")
        try Data(#"{"k":1}"#.utf8).write(to: jsonFile)
        try Data("line one\nline two".utf8).write(to: textFile)
        try Data("raw".utf8).write(to: otherFile)

        try await withTestServer { server in
            let target = Target(
                name: "upload", baseURL: server.baseURL, path: "/echo", method: .post,
                task: .multipart([
                    Parameter(name: "title", defaultValue: .text("a \"b\"")),
                    Parameter(name: "data"),
                    Parameter(name: "notes", defaultValue: .file(textFile.path)),
                    Parameter(name: "blob", defaultValue: .file(otherFile.path)),
                ]))
            let echo = try await echo(target, [("data", .file(jsonFile.path))])
            let contentType = try #require(echo.header("Content-Type"))
            #expect(contentType.hasPrefix("multipart/form-data; boundary="))
            let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
            #expect(boundary.count >= 24)
            let expected = [
                "--\(boundary)",
                #"Content-Disposition: form-data; name="title""#, "", #"a "b""#,
                "--\(boundary)",
                #"Content-Disposition: form-data; name="data"; filename="data.json""#,
                "Content-Type: application/json", "", #"{"k":1}"#,
                "--\(boundary)",
                #"Content-Disposition: form-data; name="notes"; filename="notes.txt""#,
                "Content-Type: text/plain", "", "line one\nline two",
                "--\(boundary)",
                #"Content-Disposition: form-data; name="blob"; filename="blob.bin""#,
                "Content-Type: application/octet-stream", "", "raw",
                "--\(boundary)--", "",
            ].joined(separator: "\r\n")
            #expect(echo.body == expected)
        }
    }

    @Test func missingMultipartFileIsAnEncodingErrorNamingIt() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "upload", baseURL: server.baseURL, path: "/echo", method: .post,
                task: .multipart([Parameter(name: "f", defaultValue: .file("/nonexistent/wsh/missing.json"))]))
            let error = await providerError { _ = try await Provider<Target>().request(target) }
            #expect(error?.step == .encoding)
            #expect(error?.description.contains("/nonexistent/wsh/missing.json") == true)
            #expect(error?.description.contains("no such file") == true)
            #expect(server.hits("/echo") == 0)
        }
    }

    @Test func rawDataIsSentAsGivenWithItsContentType() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "raw", baseURL: server.baseURL, path: "/echo", method: .put,
                task: .data(Data("hello\nworld é".utf8), contentType: "text/plain"))
            let echo = try await echo(target)
            #expect(echo.header("Content-Type") == "text/plain")
            #expect(echo.body == "hello\nworld é")
        }
    }

    /// A file given for a query or JSON parameter is an error naming it: only a multipart body carries
    /// a file, and sending its path as text instead would change what was asked silently.
    @Test func fileValuesOutsideMultipartAreAnError() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "paths", baseURL: server.baseURL, path: "/echo", method: .post,
                task: .composite(query: [Parameter(name: "from")], body: .json([Parameter(name: "to")])))
            for name in ["from", "to"] {
                let error = await providerError {
                    _ = try await Provider<Target>().request(target, arguments: CallArguments(values: [("from", .text("a")), ("to", .text("b")), (name, .file("/tmp/c.txt"))]))
                }
                #expect(error?.misplacedArgument == name)
                #expect(error?.description == "'\(name)@FILE' sends a file part, and target 'paths' has no multipart body to carry it")
            }
            #expect(server.hits("/echo") == 0)
        }
    }

    @Test func compositeSendsQueryAndBodyAndKeepsAUserContentType() async throws {
        try await withTestServer { server in
            let target = Target(
                name: "both", baseURL: server.baseURL, path: "/echo/{id}", method: .patch,
                task: .composite(
                    query: [Parameter(name: "dry run", defaultValue: .text("yes"))],
                    body: .json([Parameter(name: "value", defaultValue: .json("1"))])),
                headers: [Header(name: "content-type", value: "application/merge-patch+json")])
            let echo = try await echo(target, [("id", .text("42"))])
            #expect(echo.path == "/echo/42")
            #expect(echo.query == "dry%20run=yes")
            #expect(echo.body == #"{"value":1}"#)
            #expect(echo.headers(named: "Content-Type") == ["application/merge-patch+json"])
        }
    }
}
