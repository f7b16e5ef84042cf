import Foundation
import Targets
import Testing
@testable import WeatherShell

/// Reading a Postman collection: both formats' ways of writing auth, URLs and headers, folders,
/// inheritance of auth, pruning of a GET's body.
@Suite struct PostmanCollectionTests {
    static func collection(_ text: String) throws -> PostmanCollection {
        try PostmanCollection(json: try JSONValue.parse(Array(text.utf8)))
    }

    @Test func formatTwoPointOneWithFoldersAuthAndExamples() throws {
        let collection = try Self.collection("""
            {"info": {"name": "Users", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "variable": [{"key": "baseUrl", "value": "http://h"}, {"key": "off", "value": "x", "disabled": true}],
             "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{token}}", "type": "string"}]},
             "item": [{"name": "users", "variable": [{"key": "folderVar", "value": "f"}], "item": [
               {"name": "get user", "request": {"method": "GET",
                 "url": {"raw": "{{baseUrl}}/users/:id?fields=name", "host": ["{{baseUrl}}"], "path": ["users", ":id"],
                         "variable": [{"key": "id", "value": "7"}]},
                 "body": {"mode": "raw", "raw": "pruned"}},
                "response": [{"name": "ok", "code": 200, "body": "{\\"id\\": 7}", "header": [{"key": "Content-Type", "value": "application/json"}]}]},
               {"name": "create", "request": {"method": "POST", "url": "{{baseUrl}}/users", "auth": {"type": "noauth"},
                 "header": [{"key": "X-A", "value": "1"}, {"key": "X-Off", "value": "2", "disabled": true}],
                 "body": {"mode": "urlencoded", "urlencoded": [{"key": "name", "value": "{{name}}"}]}},
                "event": [{"listen": "test", "script": {"exec": ["pm.test('ok', () => {});", ""]}}]}
             ]}]}
            """)
        #expect(collection.name == "Users")
        #expect(collection.variables.map(\.name) == ["baseUrl", "folderVar"])
        let get = try #require(collection.requests.first)
        #expect(get.path == ["users", "get user"])
        #expect(get.url == "{{baseUrl}}/users/:id?fields=name")
        #expect(get.pathVariables.map(\.name) == ["id"])
        #expect(get.body == nil, "Postman prunes a GET's body")
        #expect(get.auth?.type == "bearer" && get.auth?.settings["token"] == "{{token}}", "the collection's auth is inherited")
        #expect(get.examples.first?.status == 200 && get.examples.first?.contentType == "application/json")
        let create = try #require(collection.requests.last)
        #expect(create.auth?.type == "noauth", "its own noauth stops the collection's")
        #expect(create.headers.map(\.name) == ["X-A"])
        guard case .urlencoded(let fields)? = create.body else { Issue.record("no form"); return }
        #expect(fields.map(\.name) == ["name"])
        #expect(create.scripts.map(\.kind) == ["test"])
        #expect(create.scripts.first?.lines == ["pm.test('ok', () => {});"])
    }

    @Test func formatTwoPointZerosAuthObjectsHeaderTextAndURLObjects() throws {
        let collection = try Self.collection("""
            {"info": {"name": "Old", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"},
             "item": [{"name": "basic", "request": {"method": "PUT",
               "url": {"protocol": "https", "host": ["api", "example", "com"], "port": "8443", "path": ["v1", "things"],
                       "query": [{"key": "a", "value": "1"}]},
               "header": "X-One: 1\\nX-Two: two words",
               "auth": {"type": "basic", "basic": {"username": "ann", "password": "pw"}},
               "body": {"mode": "graphql", "graphql": {"query": "{ me { id } }", "variables": "{\\"a\\": 1}"}}}}]}
            """)
        let request = try #require(collection.requests.first)
        #expect(request.url == "https://api.example.com:8443/v1/things?a=1")
        #expect(request.headers.map(\.name) == ["X-One", "X-Two"])
        #expect(request.headers.last?.value == "two words")
        #expect(request.auth?.settings == ["username": "ann", "password": "pw"])
        guard case .graphql(let query, let variables)? = request.body else { Issue.record("no GraphQL"); return }
        #expect(query == "{ me { id } }" && variables == "{\"a\": 1}")
    }

    /// Rows with an empty key are left out wherever a collection has rows, as Postman sends none of
    /// them; a folder's `inherit` auth passes the collection's on.
    @Test func emptyKeyRowsAreLeftOutAndInheritIsNoAuthOfItsOwn() throws {
        let collection = try Self.collection("""
            {"info": {"name": "c"}, "auth": {"type": "basic", "basic": [{"key": "username", "value": "ann"}]},
             "item": [{"name": "f", "auth": {"type": "inherit"}, "item": [
               {"name": "q", "request": {"method": "POST", "header": ": no name\\nX-One: 1",
                 "url": {"host": ["h"], "query": [{"key": "", "value": "x"}, {"key": "a", "value": "1"}]},
                 "body": {"mode": "formdata", "formdata": [{"key": "", "value": "x"}, {"key": "p", "value": "1"}]}}}]}]}
            """)
        let request = try #require(collection.requests.first)
        #expect(request.url == "h?a=1")
        #expect(request.headers.map(\.name) == ["X-One"])
        guard case .formdata(let parts)? = request.body else { Issue.record("no form-data"); return }
        #expect(parts.map(\.name) == ["p"])
        #expect(request.auth?.type == "basic", "inherit takes the collection's auth")
    }

    /// A URL saved with its parts: the query is its enabled rows (what Postman sends), not the raw
    /// URL's, which keeps a disabled row; a raw URL's fragment stays after it.
    @Test func aDisabledQueryRowIsLeftOutOfTheRawURL() throws {
        let collection = try Self.collection("""
            {"info": {"name": "c"}, "item": [
              {"name": "q", "request": {"method": "GET", "url": {"raw": "{{base-url}}/users/:id?verbose=true&skip=1",
                "host": ["{{base-url}}"], "path": ["users", ":id"],
                "query": [{"key": "verbose", "value": "true"}, {"key": "skip", "value": "1", "disabled": true}]}}},
              {"name": "none", "request": {"method": "GET", "url": {"raw": "http://h/a?skip=1#top",
                "query": [{"key": "skip", "value": "1", "disabled": true}]}}},
              {"name": "raw", "request": {"method": "GET", "url": {"raw": "http://h/a?x=1"}}}]}
            """)
        #expect(collection.requests.map(\.url) == ["{{base-url}}/users/:id?verbose=true", "http://h/a#top", "http://h/a?x=1"])
    }

    /// A query row whose value is null (a key typed without `=`) is the key alone, as Postman sends
    /// it, in a URL saved as parts or with its raw text; an empty value keeps its `=`.
    @Test func aQueryRowWithANullValueIsTheKeyAlone() throws {
        let collection = try Self.collection("""
            {"info": {"name": "c"}, "item": [
              {"name": "parts", "request": {"method": "GET", "url": {"host": ["h"],
                "query": [{"key": "e", "value": null}, {"key": "f"}, {"key": "g", "value": ""}, {"key": "a", "value": "1"}]}}},
              {"name": "raw", "request": {"method": "GET", "url": {"raw": "http://h/a?e&a=1", "query": [{"key": "e", "value": null}, {"key": "a", "value": "1"}]}}}]}
            """)
        #expect(collection.requests.map(\.url) == ["h?e&f&g=&a=1", "http://h/a?e&a=1"])
    }

    @Test func whatIsNotACollectionSaysSo() {
        #expect(throws: PostmanCollection.Failure.self) { try Self.collection("{\"requests\": []}") }
        #expect(throws: PostmanCollection.Failure.self) { try Self.collection("{\"info\": {}}") }
    }

    @Test func namesAsWshWritesThem() {
        #expect(Run.postmanVariableName("base-url") == "base_url")
        #expect(Run.postmanVariableName("1st") == "_1st")
        #expect(Run.postmanTargetName("Get a user (by id)") == "Get-a-user-by-id")
        #expect(Run.postmanTargetName("[draft] Auth") == "draft-Auth")
        #expect(Run.postmanTargetName("404 page") == "r-404-page")
    }
}
