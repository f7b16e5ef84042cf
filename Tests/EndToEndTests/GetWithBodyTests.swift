import Foundation
import Testing
import TestSupport

/// A GET with a body (Elasticsearch's `GET /_search`) is sent as a GET with its body, as curl,
/// newman, REST Client and JetBrains send it, from a `.http` file, a Postman collection (newman's
/// own test collection, Tests/Files/postman/SOURCES.md) and `import curl`; `targets` and
/// `export http` say GET too. A body with no method is a POST in wsh, so an importer writes the GET.
@Suite struct GetWithBodyTests {
    @Test func aDotHTTPGetWithABodyIsSentAsAGet() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try WSHProcess.temporaryDirectory()
            defer { ScratchDirectory.remove(directory) }
            try """
                # @name search
                GET \(httpbin.baseURL)/anything/_search
                Content-Type: application/json

                {"query": {"match_all": {}}}

                """.write(to: directory.appendingPathComponent("search.http"), atomically: true, encoding: .utf8)
            let result = try await WSHProcess.run(["-c", """
                use http search.http
                set output quiet
                call search
                print .method .data
                targets
                export http
                """], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(#"GET {"query": {"match_all": {}}}"#), "\(result.stdout)")
            #expect(result.stdout.contains("GET \(httpbin.baseURL)/anything/_search"), "export http: \(result.stdout)")
            #expect(!result.stdout.contains("POST"), "\(result.stdout)")
        }
    }

    /// newman's `request-body-with-get` collection: `default` is a GET whose body Postman prunes;
    /// `form-data` and `raw` keep theirs (`disableBodyPruning`), and newman's tests of them expect
    /// `GET / HTTP/1.1` with the body.
    @Test func postmanGetsThatKeepTheirBodyAreSentAsGets() async throws {
        try await HTTPBinServer.with { httpbin in
            let directory = try PostmanCollectionTests.copies([("\"raw\": \"localhost:4041\"", "\"raw\": \"\(httpbin.baseURL)/anything\""),
                                                               ("\"port\": \"4041\"", "\"port\": \"\(httpbin.port)\"")])
            defer { ScratchDirectory.remove(directory) }
            let result = try await WSHProcess.run(["-c", """
                use postman request-body-with-get.postman_collection.json as g
                set output quiet
                call g.default
                print .method .data
                call g.raw
                print .method .data .headers.Content-Type
                call g.form-data
                print .method .headers.Content-Type
                targets
                """], directory: directory)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "GET ", "the pruned body: \(result.stdout)")
            #expect(lines.count > 2 && lines[1] == #"GET { "foo": "bar" } application/json"#, "\(result.stdout)")
            // Its field is `dataKey`, a name wsh masks the value of: the part is there, sent with the GET.
            #expect(lines.count > 2 && lines[2].hasPrefix("GET multipart/form-data; boundary="), "\(result.stdout)")
            #expect(!result.stdout.contains("POST"), "targets: \(result.stdout)")
        }
    }

    @Test func curlWithXGetAndDataIsAGet() async throws {
        try await HTTPBinServer.with { httpbin in
            let result = try await WSHProcess.run(["-c", """
                import curl curl -X GET \(httpbin.baseURL)/anything -H 'Content-Type: application/json' -d '{"a":1}' as c
                set output quiet
                call c
                print .method .data
                """])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(#"GET {"a":1}"#), "\(result.stdout)")
        }
    }

    /// `target NAME from last` of a GET sent with a body (`get URL a=1`) sends it as that GET again.
    @Test func aTargetFromALastGetWithABodyIsAGet() async throws {
        try await HTTPBinServer.with { httpbin in
            let result = try await WSHProcess.run(["-c", """
                set output quiet
                get \(httpbin.baseURL)/anything a=1
                target again from last
                call again
                print .method .json.a
                """])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "GET 1\n", "\(result.stdout)")
        }
    }
}
