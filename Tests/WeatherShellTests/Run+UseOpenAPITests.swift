import Foundation
import Testing
import TestSupport
@testable import WeatherShell

/// Completion and help from an imported OpenAPI document (the example petstore).
@Suite @ShellActor struct RunUseOpenAPITests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/openapi").path

    @Test func callListsParametersWithDescriptionsAndEnumValues() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("use openapi petstore.yaml", directory: Self.examples)
        let run = shell.run
        #expect(run.completions(for: "call list") == ["listPets"])
        #expect(run.completions(for: "call listPets ") == ["limit=", "status=", "tags="])
        #expect(run.completions(for: "call listPets status=") == ["status=available", "status=pending", "status=sold"])
        #expect(run.completions(for: "call listPets status=p") == ["status=pending"])
        #expect(run.completions(for: "call listPets limit=") == ["limit="])
        #expect(run.completions(for: "use open").contains("openapi"))
        #expect(run.completions(for: "use openapi \(Self.examples)/pet") == ["\(Self.examples)/petstore.wsh", "\(Self.examples)/petstore.yaml"])
        #expect(run.completions(for: "openapi ") == ["export"])
        let snapshot = run.completionSnapshot()
        #expect(snapshot.listing(["limit=", "status=", "tags="], for: "call listPets ") == """
        limit=   How many pets to return at most
        status=  Only pets with this status
        tags=    Only pets with all of these tags

        """)
        #expect(snapshot.listing(["showPetById", "listPets"], for: "call ") == "showPetById  listPets\n")
    }

    @Test func helpShowsSummaryParametersAndResponses() async {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("use openapi petstore.yaml\nhelp showPetById", directory: Self.examples)
        #expect(shell.stdout == """
        showPetById: Info for a specific pet
          GET http://127.0.0.1:8080/v1/pets/{petId}
        parameters:
          petId  (path, integer, required) The pet's id
        responses:
          200  The pet  [application/json]
          404  No such pet  [application/json]
        'show showPetById' prints its declaration

        """)
        #expect(shell.stderr.contains("4 targets of 'Petstore' declared"))
        #expect(shell.stderr.contains("note: this API uses bearer auth: plugin auth bearer $token"))
    }

    /// An import replaces what the same document declared before, never a target declared by
    /// hand: that was replaced with no word, and the user's work was lost.
    @Test func anImportKeepsATargetDeclaredByHand() async throws {
        let shell = ShellHarness(mode: .interactive)
        await shell.run("target listPets { base http://127.0.0.1:9; path /mine }\nuse openapi petstore.yaml\nuse openapi petstore.yaml",
                        directory: Self.examples)
        #expect(shell.run.session.targets["listPets"]?.declaration.fields.contains { $0.name == "path" && $0.arguments.first?.literal == "/mine" } == true)
        #expect(shell.stderr.contains("not declared: 'listPets' is already declared (<test>:1); forget it first, or import under a prefix"),
                "\(shell.stderr)")
        #expect(shell.stderr.contains("3 targets of 'Petstore' declared"), "the document's own are declared again: \(shell.stderr)")
        #expect(!shell.stderr.contains("'createPet' is already declared"), "\(shell.stderr)")
        // A recorded sample makes it `<recorded ...>`'s, still the document's: imported again, it is replaced.
        let directory = try ScratchDirectory.make("wsh-reimport")
        let server = try await TestServer.start(routes: ["/v1/pets": StaticRoute(contentType: "application/json", body: "[]"),
                                                         "/pets": StaticRoute(contentType: "application/json", body: "[]")])
        let recorded = ShellHarness(mode: .interactive)
        await recorded.run("use openapi \(Self.examples)/petstore.yaml\nset base \(server.baseURL)\nset record rec\ncall listPets > /dev/null\n"
                           + "set record off\nuse openapi \(Self.examples)/petstore.yaml", directory: directory.path)
        try await server.shutdown()
        #expect(recorded.run.session.targets["listPets"]?.declaration.file.name.hasPrefix("<openapi") == true,
                "\(String(describing: recorded.run.session.targets["listPets"]?.declaration.file.name)) \(recorded.stderr)")
        #expect(!recorded.stderr.contains("already declared"), "\(recorded.stderr)")
    }

    /// A document with a relative server: its targets have no base of their own, so `show` has
    /// no "under set base" note (it named an empty URL), and `help` no title ends in a blank.
    @Test func aTargetWithNoBaseOfItsOwnShowsNoSetBaseNote() async throws {
        let directory = try ScratchDirectory.make("wsh-relative")
        try """
            openapi: 3.0.0
            info: {title: T, version: "1"}
            servers: [{url: /v1}]
            paths:
              /pets:
                get:
                  operationId: pets
                  responses: {"200": {description: ok}}
            """.write(to: directory.appendingPathComponent("rel.yaml"), atomically: true, encoding: .utf8)
        let shell = ShellHarness()
        await shell.run("use openapi rel.yaml\nset base http://127.0.0.1:9\nshow pets\nhelp pets", directory: directory.path)
        #expect(shell.stdout.contains("  path /v1/pets\n"), "\(shell.stdout)")
        #expect(!shell.stdout.contains("under set base"), "\(shell.stdout)")
        #expect(shell.stdout.contains("}\npets\n  GET /v1/pets\n"), "\(shell.stdout)")
    }

    /// A document from a URL has its relative `$ref`s fetched from beside it, as a local file's
    /// are read from its directory: the operation and the required parameter they hold are there.
    @Test func aDocumentFromAURLHasItsRelativeRefsFetchedBesideIt() async throws {
        let yaml = "application/yaml"
        let server = try await TestServer.start(routes: [
            "/specs/api.yaml": StaticRoute(contentType: yaml, body: """
                openapi: 3.0.3
                info: {title: Refs, version: '1'}
                servers: [{url: 'http://127.0.0.1:9'}]
                paths:
                  /a: {$ref: 'sub/pa.yaml'}
                  /b:
                    get:
                      operationId: b
                      parameters: [{$ref: 'sub/params.yaml#/P'}]
                      responses: {'200': {description: ok}}
                """),
            "/specs/sub/pa.yaml": StaticRoute(contentType: yaml, body: """
                get:
                  operationId: fromsub
                  responses: {'200': {description: ok}}
                """),
            "/specs/sub/params.yaml": StaticRoute(contentType: yaml, body: "P: {name: q, in: query, required: true, schema: {type: string}}\n"),
            "/specs/broken.yaml": StaticRoute(contentType: yaml, body: """
                openapi: 3.0.3
                info: {title: Broken, version: '1'}
                paths:
                  /c: {$ref: 'gone.yaml'}
                  /d: {$ref: 'http://127.0.0.2:9/elsewhere.yaml'}
                """),
        ])
        let shell = ShellHarness()
        let halt = await shell.run("use openapi \(server.baseURL)/specs/api.yaml\nshow b\nshow fromsub")
        let broken = ShellHarness()
        await broken.run("use openapi \(server.baseURL)/specs/broken.yaml")
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout.contains("query q\n"), "\(shell.stdout)")
        #expect(shell.stdout.contains("target fromsub {"), "\(shell.stdout)")
        #expect(!shell.stderr.contains("warning"), "\(shell.stderr)")
        // One that cannot be fetched is a warning, as an unreadable local file is.
        #expect(broken.stderr.contains("$ref 'gone.yaml': cannot read \(server.baseURL)/specs/gone.yaml"), "\(broken.stderr)")
        // Another origin is not fetched: the fetch would carry an auth plugin's credential there.
        #expect(broken.stderr.contains("warning: http://127.0.0.2:9/elsewhere.yaml is not fetched: a $ref is fetched only from the document's own"),
                "\(broken.stderr)")
        #expect(!broken.stderr.contains("cannot fetch http://127.0.0.2"), "\(broken.stderr)")
    }

    /// A document from a URL with a relative server, or none, has its targets on the document's
    /// host, as OpenAPI says (a local document's relative server leaves the host to `set base`).
    @Test func aDocumentFromAURLTakesItsHostForARelativeServerOrNone() async throws {
        func document(_ servers: String) -> StaticRoute {
            StaticRoute(contentType: "application/yaml", body: """
                openapi: 3.0.3
                info: {title: Here, version: '1'}
                \(servers)
                paths:
                  /x: {get: {operationId: x, responses: {'200': {description: ok}}}}
                """)
        }
        let server = try await TestServer.start(routes: [
            "/specs/relative.yaml": document("servers: [{url: /v1}]"),
            "/specs/none.yaml": document(""),
        ])
        let relative = ShellHarness(), none = ShellHarness()
        await relative.run("use openapi \(server.baseURL)/specs/relative.yaml\nshow x --curl")
        await none.run("use openapi \(server.baseURL)/specs/none.yaml\nshow x --curl")
        try await server.shutdown()
        #expect(relative.stdout.contains("\(server.baseURL)/v1/x"), "\(relative.stdout)\(relative.stderr)")
        #expect(none.stdout.contains("\(server.baseURL)/x"), "\(none.stdout)\(none.stderr)")
    }
}
