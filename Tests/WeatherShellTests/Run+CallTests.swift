import Foundation
import TestSupport
import Testing
@testable import WeatherShell

/// Under `set stub` an answer from a sample says so, and a target with no sample is an error.
@ShellActor @Suite struct RunCallTests {
    @Test func aTargetWithoutASampleIsAnErrorNamingIt() async {
        let shell = ShellHarness()
        let halt = await shell.run("set stub immediate\ntarget bare { base http://127.0.0.1:9; path /x }\ncall bare")
        #expect(halt != nil)
        #expect(shell.stderr.contains("<test>:3:6: error: target 'bare' has no sample to answer with under set stub"), "\(shell.stderr)")
        #expect(shell.stderr.contains("or answer live with: set stub off"))
        #expect(shell.stdout.isEmpty)
    }

    /// `set stub on` is `set stub immediate`, as every other switch takes `on`.
    @Test func stubOnAnswersFromTheSample() async {
        let shell = ShellHarness()
        let halt = await shell.run("set stub on\ntarget s { base http://127.0.0.1:9; path /x; sample '{\"a\": 1}' }\ncall s\nset stub")
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout.contains("{\"a\": 1}"), "\(shell.stdout)")
        #expect(shell.stdout.contains("stub  immediate"), "\(shell.stdout)")
    }

    @Test func theStatusLineOfASampleAnswerSaysStub() async throws {
        let captured = ShellHarness.Captured()
        let io = ShellIO(stdoutIsTerminal: false, stderrIsTerminal: true, capture: { text, isError in
            captured.append(text, isError: isError)
        })
        let run = Run(session: Session(bail: false, color: false), io: io, mode: .script)
        let directory = try ScratchDirectory.make("wsh-stub")
        try #"{"a": 1}"#.write(to: directory.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        try? await run.execute(text: """
            target s { base http://127.0.0.1:9; path /x; sample @s.json }
            call s
            set stub immediate
            call s
            """, file: "<test>", directory: directory.path)
        let stderr = captured.stderr
        #expect(stderr.contains(/HTTP 200 OK  stub  \d+ ms  8 B/), "\(stderr)")
        #expect(stderr.components(separatedBy: "stub").count == 2, "one answer from a sample, marked once: \(stderr)")
    }
}

/// `sample @FILE status N` lines give a target several answers; `set stub ... status N` picks one.
@ShellActor @Suite struct SeveralSampleLinesTests {
    private func directory() throws -> String {
        let directory = try ScratchDirectory.make("wsh-samples")
        try #"{"id": 1}"#.write(to: directory.appendingPathComponent("user.json"), atomically: true, encoding: .utf8)
        try "no such user".write(to: directory.appendingPathComponent("missing.txt"), atomically: true, encoding: .utf8)
        return directory.path
    }

    @Test func setStubStatusPicksTheSampleOfThatStatus() async throws {
        let shell = ShellHarness()
        let halt = await shell.run("""
            target user { base http://127.0.0.1:9; path /u; sample @user.json; sample @missing.txt status 404 }
            set stub immediate
            call user
            print status
            set stub immediate status 404
            set stub
            call user
            print status
            print headers Content-Type
            """, directory: try directory())
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout.contains(#"{"id": 1}"#), "\(shell.stdout)")
        #expect(shell.stdout.contains("200\n"))
        #expect(shell.stdout.contains(/stub +immediate status 404/), "\(shell.stdout)")
        #expect(shell.stdout.contains("no such user"))
        #expect(shell.stdout.contains("404\n"))
        #expect(shell.stdout.contains("text/plain"))
    }

    @Test func aStatusNoSampleHasIsAnErrorListingTheOnesItHas() async throws {
        let shell = ShellHarness()
        let halt = await shell.run("""
            target user { base http://127.0.0.1:9; path /u; sample @user.json; sample @missing.txt status 404 }
            set stub immediate status 500
            call user
            """, directory: try directory())
        #expect(halt != nil)
        #expect(shell.stderr.contains("target 'user' has no sample with status 500; its samples: 200, 404"), "\(shell.stderr)")
    }

    @Test func twoSamplesWithOneStatusAreAnError() async throws {
        let shell = ShellHarness()
        let halt = await shell.run("target user { base http://127.0.0.1:9; path /u; sample @user.json; sample @missing.txt status 200 }",
                                   directory: try directory())
        #expect(halt != nil)
        #expect(shell.stderr.contains("target 'user' has two samples with status 200"), "\(shell.stderr)")
    }
}

/// `header NAME` with no value in a target: each call must give `NAME:value`, and it is sent.
@ShellActor @Suite struct RequiredHeaderTests {
    @Test func aCallWithoutTheHeaderIsAnErrorSayingHowToGiveIt() async {
        let shell = ShellHarness()
        let halt = await shell.run("target t { base http://127.0.0.1:9; path /x; header X-Request-Id Accept:application/json }\ncall t")
        #expect(halt != nil)
        #expect(shell.stderr.contains("<test>:2:6: error: missing header 'X-Request-Id' for target 't'"), "\(shell.stderr)")
        #expect(shell.stderr.contains("note: give it as X-Request-Id:VALUE"))
    }

    @Test func theHeaderGivenAtTheCallIsSent() async throws {
        let server = try await TestServer.start(routes: [:])
        let shell = ShellHarness()
        let halt = await shell.run("""
            target t { base \(server.baseURL); path /echo; header X-Request-Id }
            call t X-Request-Id:req-42
            expect status == 200
            """)
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout.contains(#"["X-Request-Id","req-42"]"#), "\(shell.stdout)")
    }

    /// `header X-API-Key: VALUE`, as curl's -H takes it, declared an empty X-API-Key and a header
    /// each call must give named after the value, a secret the call's error then showed.
    @Test func aValueAfterTheColonsBlankIsRefusedMasked() async {
        for line in ["header X-API-Key: s3cr3tKEYvalue", "header Accept:text/plain Authorization: Bearer s3cr3tKEYvalue"] {
            let shell = ShellHarness()
            let halt = await shell.run("target t { base http://127.0.0.1:9; path /x; \(line) }")
            #expect(halt != nil, "\(line)")
            #expect(shell.stderr.contains("error: a header's value follows its ':' in the same word: "), "\(shell.stderr)")
            #expect(!shell.stderr.contains("s3cr3t"), "\(shell.stderr)")
        }
        let shell = ShellHarness()
        let halt = await shell.run("target t { base http://127.0.0.1:9; path /x; header X-Request-Id X-Empty: }")
        #expect(halt == nil, "\(shell.stderr)")
    }

    @Test func aHeaderNameWithBlanksOrColonFirstIsRefused() async {
        let shell = ShellHarness()
        let halt = await shell.run(#"target t { base http://127.0.0.1:9; header "X Y" }"#)
        #expect(halt != nil)
        #expect(shell.stderr.contains("a header is Name:value, or a bare Name each call must give"), "\(shell.stderr)")
    }
}
