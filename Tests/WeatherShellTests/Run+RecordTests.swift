import Foundation
import Targets
import Testing
import TestSupport
@testable import WeatherShell

/// `set record DIR` saves each live answer as a sample file, its secrets masked, and gives the
/// target that `sample` line; `save` writes them into the session file, which replays offline.
@ShellActor @Suite struct RunRecordTests {
    /// Runs `text` in `shell` with a loopback server whose base URL replaces `BASE`; the server is
    /// shut down before this returns.
    static func run(_ text: String, in shell: ShellHarness, directory: URL, routes: [String: StaticRoute] = [:]) async throws -> Halt? {
        let server = try await TestServer.start(routes: routes)
        let halt = await shell.run(text.replacingOccurrences(of: "BASE", with: server.baseURL), directory: directory.path)
        try await server.shutdown()
        return halt
    }

    /// An imported target given a recorded sample still follows `set base`: the next call goes
    /// to the mock it was recorded against, not to the document's host.
    @Test func aRecordedImportedTargetStillFollowsSetBase() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        let server = try await TestServer.start(routes: ["/v1/pets/1": StaticRoute(body: #"{"id": 1, "name": "Rex"}"#)])
        let shell = ShellHarness()
        let halt = await shell.run("""
            use openapi \(RunUseOpenAPITests.examples)/petstore.yaml
            set base \(server.baseURL)
            set record rec
            call showPetById petId=1
            show showPetById --curl petId=2
            """, directory: directory.path)
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        #expect(SessionFiles.read(directory.appendingPathComponent("rec/showPetById.json")).contains("Rex"))
        #expect(shell.stdout.contains("\(server.baseURL)/v1/pets/2"), "\(shell.stdout)")
    }

    /// A file the session did not record (a fixture written by hand) is kept aside, `NAME.orig`,
    /// with a note, before a recording replaces it (it was overwritten without a word: mock
    /// tester's F16); the session's own recording is replaced in place, and a file with the same
    /// bytes is left alone.
    @Test func aFixtureWrittenByHandIsKeptAsideNotLost() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("fx"), withIntermediateDirectories: true)
        try #"{"hand": "crafted"}"#.write(to: directory.appendingPathComponent("fx/user.json"), atomically: true, encoding: .utf8)
        let shell = ShellHarness()
        let halt = try await Self.run("""
            target user { base BASE; path /user; sample @fx/user.json }
            set record fx
            call user > /dev/null
            call user > /dev/null
            """, in: shell, directory: directory, routes: ["/user": StaticRoute(body: #"{"live": 1}"#)])
        #expect(halt == nil, "\(shell.stderr)")
        #expect(SessionFiles.read(directory.appendingPathComponent("fx/user.json.orig")) == #"{"hand": "crafted"}"#)
        #expect(SessionFiles.read(directory.appendingPathComponent("fx/user.json")).contains("live"))
        #expect(shell.stderr.components(separatedBy: "set record replaced").count == 2, "one note: \(shell.stderr)")
        #expect(shell.stderr.contains("fx/user.json; the file that was there is ") && shell.stderr.contains("fx/user.json.orig\n"), "\(shell.stderr)")
        // Another session recording another answer replaces the recording in place: the hand-written
        // file is kept aside once, not once a run (review 17 M2).
        let again = ShellHarness()
        _ = try await Self.run("target user { base BASE; path /user }\nset record fx\ncall user > /dev/null",
                               in: again, directory: directory, routes: ["/user": StaticRoute(body: #"{"live": 2}"#)])
        #expect(!again.stderr.contains("replaced"), "\(again.stderr)")
        #expect(SessionFiles.read(directory.appendingPathComponent("fx/user.json")).contains("2"))
        #expect(SessionFiles.read(directory.appendingPathComponent("fx/user.json.orig")) == #"{"hand": "crafted"}"#)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("fx").path).sorted() == ["user.json", "user.json.orig"])
    }

    /// A record directory whose name has a blank: the `sample` line names the file (`@"..."`),
    /// and `save` writes it relative, so the replay answers the recording, not the path's text.
    @Test func aRecordDirectoryWithABlankIsSavedAsAFileReference() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        let recorder = ShellHarness()
        let halt = try await Self.run("""
            target a { base BASE; path /a }
            set record "my fixtures"
            call a
            save session.wsh
            """, in: recorder, directory: directory, routes: ["/a": StaticRoute(body: #"{"recorded": true}"#)])
        #expect(halt == nil, "\(recorder.stderr)")
        #expect(SessionFiles.read(directory.appendingPathComponent("session.wsh")).contains("  sample @\"my fixtures/a.json\"\n"))

        let replay = ShellHarness()
        #expect(await replay.run("set stub immediate\nsource session.wsh\ncall a", directory: directory.path) == nil, "\(replay.stderr)")
        #expect(replay.stdout.hasPrefix(#"{"recorded": true}"#), "\(replay.stdout)")
    }

    @Test func liveAnswersBecomeSamplesThatASavedSessionReplaysOffline() async throws {
        let (variable, secret) = SessionFiles.secretInEnvironment()
        let directory = try SessionFiles.temporaryDirectory()
        let routes = [
            "/item/1": StaticRoute(body: #"{"id": 1, "token": "tok-live-123", "name": "first"}"#),
            "/item/2": StaticRoute(status: 404, contentType: "application/problem+json", body: #"{"title": "no item 2"}"#),
        ]
        let recorder = ShellHarness()
        let halt = try await Self.run("""
                let key = env \(variable)
                set record rec
                target item {
                  base BASE
                  path /item/{id}
                  query appid=$key
                  header X-Api-Key:$key
                }
                target echo { base BASE; path /echo; query appid=$key; header X-Api-Key:$key }
                call item id=2
                call item id=1
                call echo
                show item
                save session.wsh
                """, in: recorder, directory: directory, routes: routes)
        #expect(halt == nil, "\(recorder.stderr)")
        let records = directory.appendingPathComponent("rec")
        let item = SessionFiles.read(records.appendingPathComponent("item.json"))
        #expect(try JSONValue.parse(item) == JSONValue.parse(#"{"id": 1, "token": "***", "name": "first"}"#), "\(item)")
        #expect(SessionFiles.read(records.appendingPathComponent("404/item.json")) == #"{"title": "no item 2"}"#)
        let echo = SessionFiles.read(records.appendingPathComponent("echo.json"))
        #expect(echo.contains("***") && SessionFiles.leaks(of: secret, in: echo).isEmpty, "the echoed query and header: \(echo)")

        // The 200 goes before the 404, though recorded after it: the first sample is the default.
        let shown = recorder.stdout
        let ok = try #require(shown.range(of: "sample @\(records.path)/item.json\n"), "\(shown)")
        let missing = try #require(shown.range(of: "sample @\(records.path)/404/item.json status 404\n"), "\(shown)")
        #expect(ok.lowerBound < missing.lowerBound)

        let saved = SessionFiles.read(directory.appendingPathComponent("session.wsh"))
        #expect(saved.contains("let key = env \(variable)\n"), "\(saved)")
        #expect(saved.contains("  sample @rec/item.json\n  sample @rec/404/item.json status 404\n"), "\(saved)")
        #expect(saved.contains("sample @rec/echo.json"))
        #expect(!saved.contains("\nset record"), "replaying does not record again: \(saved)")
        #expect(SessionFiles.leaks(of: secret, in: saved + item + echo).isEmpty)

        // A new session, the server gone: the samples answer with their statuses.
        let replay = ShellHarness()
        let replayHalt = await replay.run("""
            set stub immediate
            source session.wsh
            call item id=1
            print status
            set stub immediate status 404
            call item id=1
            print status
            """, directory: directory.path)
        #expect(replayHalt == nil, "\(replay.stderr)")
        #expect(replay.stdout.contains(#""name": "first""#), "\(replay.stdout)")
        #expect(replay.stdout.contains("}\n200\n"), "\(replay.stdout)")
        #expect(replay.stdout.hasSuffix(#"{"title": "no item 2"}"# + "404\n"), "\(replay.stdout)")
    }

    /// Target `user`'s 404 and target `user-404`'s 200 were both `user-404.json`: the second
    /// answer replaced the first, and the replay of `user`'s 404 gave the other target's body. A
    /// status other than 200 is a directory (`404/user.json`), which no target's name can be.
    /// A session saved by an earlier wsh, whose samples are `TARGET-STATUS.EXT`, still replays.
    @Test func twoTargetsNeverShareARecordedFile() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        let recorder = ShellHarness()
        let halt = try await Self.run("""
            set record rec
            target user { base BASE; path /missing; validate 200,404 }
            target user-404 { base BASE; path /found }
            call user
            call user-404
            save session.wsh
            """, in: recorder, directory: directory,
            routes: ["/missing": StaticRoute(status: 404, body: #"{"who": "user, 404"}"#), "/found": StaticRoute(body: #"{"who": "user-404, 200"}"#)])
        #expect(halt == nil, "\(recorder.stderr)")
        #expect(SessionFiles.read(directory.appendingPathComponent("rec/404/user.json")) == #"{"who": "user, 404"}"#)
        #expect(SessionFiles.read(directory.appendingPathComponent("rec/user-404.json")) == #"{"who": "user-404, 200"}"#)

        try "target old { base http://127.0.0.1:9; path /old; sample @rec/old-404.json status 404 }\n"
            .write(to: directory.appendingPathComponent("earlier.wsh"), atomically: true, encoding: .utf8)
        try #"{"who": "old, 404"}"#.write(to: directory.appendingPathComponent("rec/old-404.json"), atomically: true, encoding: .utf8)
        let replay = ShellHarness()
        let replayHalt = await replay.run("""
            set output quiet
            source session.wsh
            source earlier.wsh
            set stub immediate status 404
            call user
            print .who
            call old
            print .who
            set stub immediate
            call user-404
            print .who
            """, directory: directory.path)
        #expect(replayHalt == nil, "\(replay.stderr)")
        #expect(replay.stdout == "user, 404\nold, 404\nuser-404, 200\n", "\(replay.stdout)")
    }

    @Test func aRecordedStatusReplacesTheSampleOfThatStatusAndKeepsTheOthers() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        try #"{"old": true}"#.write(to: directory.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try "gone".write(to: directory.appendingPathComponent("gone.txt"), atomically: true, encoding: .utf8)
        let shell = ShellHarness()
        let halt = try await Self.run("""
                set record \(directory.path)/rec
                target s { base BASE; path /status/503; sample @old.json; sample @gone.txt status 410 }
                call s
                show s
                set stub immediate status 410
                call s
                set stub immediate status 503
                call s
                """, in: shell, directory: directory)
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout.contains("  sample @old.json\n  sample @gone.txt status 410\n  sample @\(directory.path)/rec/503/s.json status 503\n"),
                "\(shell.stdout)")
        #expect(shell.stdout.contains("gone"))
        #expect(shell.stdout.hasSuffix(#"{"status":503,"message":"Service Unavailable"}"#), "\(shell.stdout)")
    }

    @Test func anAnswerThatCannotBeRecordedIsShownThenAnErrorAtTheCall() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        let shell = ShellHarness()
        await shell.run("set record rec", directory: directory.path)
        // The directory goes, and a file takes its name: the answer has nowhere to go.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("rec"))
        try "x".write(to: directory.appendingPathComponent("rec"), atomically: true, encoding: .utf8)
        let halt = try await Self.run("target s { base BASE; path /status/200 }\ncall s", in: shell, directory: directory)
        guard case .failure(.runtime) = halt else { Issue.record("expected a runtime failure"); return }
        #expect(shell.stdout == #"{"status":200,"message":"OK"}"#, "the answer is shown first")
        #expect(shell.stderr.contains("<test>:2:6: error: cannot record the answer of 's' in "), "\(shell.stderr)")
        #expect(shell.stderr.contains("rec/s.json: not a directory"), "\(shell.stderr)")
    }

    @Test func stubbedAnswersAreNotRecorded() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        try #"{"a": 1}"#.write(to: directory.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        let shell = ShellHarness()
        let halt = await shell.run("""
            set record rec
            set stub immediate
            target a { base http://127.0.0.1:9; path /a; sample @a.json }
            call a
            """, directory: directory.path)
        #expect(halt == nil, "\(shell.stderr)")
        let recorded = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("rec").path)
        #expect(recorded.isEmpty)
    }

    @Test func setRecordNamesItsDirectoryAndOffStopsIt() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        let shell = ShellHarness()
        await shell.run("set record deep/rec; set record; set record off; set record", directory: directory.path)
        #expect(shell.stdout.contains(/record +.*deep\/rec +\(<test>:1\)/), "\(shell.stdout)")
        #expect(shell.stdout.contains(/record +off +\(<test>:1\)/), "\(shell.stdout)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("deep/rec").path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func aDirectoryThatCannotBeMadeIsAnErrorAtTheSetLine() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        try "x".write(to: directory.appendingPathComponent("file"), atomically: true, encoding: .utf8)
        let shell = ShellHarness()
        let halt = await shell.run("echo hi\nset record file/rec", directory: directory.path)
        #expect(halt != nil)
        #expect(shell.stderr.contains("<test>:2:12: error: cannot record into "), "\(shell.stderr)")
        #expect(shell.stderr.contains("file/rec: not a directory"), "\(shell.stderr)")
    }

    @Test func aBundledPackTargetGetsItsSamplesAsFilesSoItCanBeSaved() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        let records = directory.appendingPathComponent("rec").path
        let shell = ShellHarness()
        #expect(await shell.run("use open-meteo; set record rec", directory: directory.path) == nil)
        let declared = try #require(shell.run.session.targets["current"])
        let answer = "\(records)/current-404.json"
        try #"{"error": true}"#.write(toFile: answer, atomically: true, encoding: .utf8)
        try shell.run.declareTarget(try shell.run.recordedDeclaration(declared, sample: answer, status: 404, directory: records))
        await shell.run("show current; save s.wsh", directory: directory.path)
        #expect(shell.stdout.contains("  sample @\(records)/current.json\n  sample @\(records)/current-404.json status 404\n}"), "\(shell.stdout)")
        #expect(SessionFiles.read(URL(fileURLWithPath: "\(records)/current.json")).contains("temperature_2m"), "the bundled sample, as a file")
        let saved = SessionFiles.read(directory.appendingPathComponent("s.wsh"))
        #expect(saved.contains("use open-meteo\n") && saved.contains("sample @rec/current.json\n"), "\(saved)")

        let replay = ShellHarness()
        let halt = await replay.run("source s.wsh; set stub immediate status 404; call current", directory: directory.path)
        #expect(halt != nil, "the pack's target validates 2xx")
        #expect(replay.stderr.contains(#"HTTP 404 Not Found from target 'current' (expected 2xx) body: {"error": true}"#), "\(replay.stderr)")
    }

    @Test func answerFileNamesFollowStatusAndMediaType() {
        #expect(RecordedSample.fileName(target: "user", status: 200, fileExtension: "json") == "user.json")
        #expect(RecordedSample.fileName(target: "user", status: 201, fileExtension: "json") == "201/user.json")
        #expect(RecordedSample.fileExtension(contentType: "application/problem+json", body: Data()) == "json")
        #expect(RecordedSample.fileExtension(contentType: "image/png", body: Data([0x89])) == "png")
        #expect(RecordedSample.fileExtension(contentType: nil, body: Data("[1]".utf8)) == "json")
        #expect(RecordedSample.fileExtension(contentType: "application/octet-stream", body: Data("{}".utf8)) == "json")
        #expect(RecordedSample.fileExtension(contentType: "application/x-unknown", body: Data("abc".utf8)) == "bin")
    }
}
