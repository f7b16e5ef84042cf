@testable import CallHistory
import Foundation
import Targets
import Testing
import TestSupport
@testable import WeatherShell

/// The call history: every call recorded in SQLite with its secrets masked, `history`, `history
/// show`, `history replay`, `set history off`, the size cap, and a damaged database.
@ShellActor @Suite struct RunHistoryTests {
    /// A shell whose session records into a database of its own in a new directory.
    static func shell() throws -> (ShellHarness, CallLog, URL) {
        let directory = try SessionFiles.temporaryDirectory()
        let shell = ShellHarness()
        let log = CallLog(path: directory.appendingPathComponent("state/wsh/calls.sqlite").path)
        shell.run.session.callLog = log
        return (shell, log, directory)
    }

    /// The bytes of the database and its write-ahead log, as text, for looking for secrets.
    static func databaseBytes(_ log: CallLog) -> String {
        ["", "-wal", "-shm"].map { suffix in
            (FileManager.default.contents(atPath: log.path + suffix)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }.joined(separator: "\n")
    }

    /// The `#` column of `history`'s rows (its header line left out).
    static func listedNumbers(_ output: String) -> [Int] {
        output.split(separator: "\n").compactMap { Int($0.split(separator: " ").first ?? "") }
    }


    @Test func callsAreRecordedWithEverySecretMasked() async throws {
        let (variable, secret) = SessionFiles.secretInEnvironment()
        let token = "tok-\(UUID().uuidString)"
        let (shell, log, _) = try Self.shell()
        let server = try await TestServer.start(routes: ["/login": StaticRoute(body: #"{"token": "\#(token)", "user": "ann"}"#)])
        let halt = await shell.run("""
            let key = env \(variable)
            target echo { base \(server.baseURL); path /echo; query appid=$key city=Suwon; header X-Api-Key:$key }
            target login { base \(server.baseURL); path /login; method POST; json user password }
            target basic { base \(server.baseURL); path /echo/basic }
            plugin auth basic ann:$key host 127.0.0.1
            call echo
            call login user=ann password=$key
            call basic
            """)
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        // The answers were printed whole: the shell masks nothing it was asked for.
        #expect(shell.stdout.contains(token))
        _ = try await offPool { log.close(within: 10) }
        let bytes = Self.databaseBytes(log)
        #expect(bytes.contains("appid=***&city=Suwon"), "the URL is kept, its secret masked")
        #expect(SessionFiles.leaks(of: secret, in: bytes).isEmpty, "the env secret, in any form, in the database")
        #expect(!bytes.contains(token), "the token the login answered with")
        let calls = try log.recent(10)
        try #require(calls.map(\.target) == ["echo", "login", "basic"])
        #expect(calls.allSatisfy { $0.status == 200 && $0.method != "" })
        let echo = try #require(try log.call(calls[0].id))
        #expect(echo.requestHeaders.contains(Header(name: "X-Api-Key", value: "***")))
        #expect(echo.withheld.contains("query appid") && echo.withheld.contains("header X-Api-Key"), "\(echo.withheld)")
        let login = try #require(try log.call(calls[1].id))
        #expect(login.arguments == ["user=ann", "password=***"])
        #expect(login.maskedArguments == ["password"])
        #expect(String(decoding: login.body ?? Data(), as: UTF8.self).contains(#""token": "***""#))
        let basic = try #require(try log.call(calls[2].id))
        #expect(basic.requestHeaders.contains(Header(name: "Authorization", value: "***")))
    }

    /// A multipart form is a form, and an XML login names its password as JSON does: a text part
    /// or an element named as a credential is masked in the history, `-v` and `export http`, as
    /// the same field sent url-encoded is (the history held `client_secret` in clear). The calls
    /// go where no answer echoes the body: answers are shown as they came.
    @Test func multipartFieldsAndXMLElementsNamedAsCredentialsAreMasked() async throws {
        let (shell, log, directory) = try Self.shell()
        let server = try await TestServer.start()
        let xml = directory.appendingPathComponent("login.xml")
        try Data("<login><user>ann</user><wsse:Password>XmlPw999</wsse:Password></login>".utf8).write(to: xml)
        let halt = await shell.run("""
            set output quiet
            target m { base \(server.baseURL); path /echo/m; method POST; multipart api_key=SvMp999 note=plain }
            call m
            post \(server.baseURL)/status/200 --multipart client_secret=MpSec321 -v
            post \(server.baseURL)/status/201 @\(xml.path)
            export http m
            """)
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        for secret in ["SvMp999", "MpSec321", "XmlPw999"] {
            #expect(!shell.stdout.contains(secret) && !shell.stderr.contains(secret), "\(secret) shown: \(shell.stdout)")
        }
        #expect(shell.stdout.contains("name=\"client_secret\"\r\n\r\n***") || shell.stdout.contains("name=\"client_secret\"\n\n***"),
                "-v shows the field masked: \(shell.stdout)")
        #expect(shell.stdout.contains("{{api_key}}") && shell.stdout.contains("plain"), "export http: \(shell.stdout)")
        _ = try await offPool { log.close(within: 10) }
        let bytes = Self.databaseBytes(log)
        #expect(try log.recent(10).count == 3)
        for secret in ["SvMp999", "MpSec321", "XmlPw999"] {
            #expect(!bytes.contains(secret), "\(secret) in the database")
        }
        #expect(bytes.contains("ann") && bytes.contains("plain"), "what is not a credential is kept")
    }

    @Test func historyListsTheLastCallsOrThoseMatchingAPattern() async throws {
        let (shell, _, _) = try Self.shell()
        let server = try await TestServer.start()
        let halt = await shell.run("""
            target status { base \(server.baseURL); path /status/{code} }
            target echo { base \(server.baseURL); path /echo/{name} }
            set output quiet
            set bail off
            call status code=201
            call echo name=first
            call status code=404
            call echo name=second
            """)
        #expect(halt == nil, "\(shell.stderr)")
        _ = await shell.run("history")
        let all = shell.captured.stdout
        let lines = all.split(separator: "\n")
        #expect(lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["#", "time", "target", "method", "URL", "status", "ms"])
        #expect(Self.listedNumbers(all).count == 4)
        #expect(lines[3].contains("\(server.baseURL)/status/404") && lines[3].contains(" 404 "), "\(all)")

        shell.captured.stdout = ""
        _ = await shell.run("history 2")
        #expect(Self.listedNumbers(shell.stdout) == Array(Self.listedNumbers(all).suffix(2)))
        #expect(shell.stdout.contains("/status/404") && shell.stdout.contains("/echo/second") && !shell.stdout.contains("/echo/first"))

        shell.captured.stdout = ""
        _ = await shell.run("history ECHO")
        let matching = shell.stdout
        #expect(Self.listedNumbers(matching).count == 2, "\(matching)")
        #expect(matching.contains("/echo/first") && matching.contains("/echo/second") && !matching.contains("/status/"))

        shell.captured.stdout = ""
        _ = await shell.run("history nothing-like-this")
        #expect(shell.stdout.isEmpty)
        #expect(shell.stderr.contains("no call in the history matches 'nothing-like-this'"))
        try await server.shutdown()
    }

    /// At a terminal each line of the listing fits its width, the status and ms columns counted:
    /// a long URL is cut with `…`, and a narrow terminal (40 columns) gives up the time, method,
    /// ms and target columns, in that order, before the URL would get less than 12 columns. At 80
    /// columns a 11-letter target and a 4-digit ms made each row 4 columns too wide (the URL was
    /// never cut below 24), at 40 every row took two lines.
    @Test func theListingFitsA80And40ColumnTerminal() {
        let rows = [["73", "2026-11-30 01:59:31", "weather-now", "GET", "http://127.0.0.1:47950/anything/a/long/path/x", "200", "6"],
                    ["74", "2026-11-30 02:00:01", "sl", "POST", "http://127.0.0.1:47950/never/and/more/of/it", "failed", "2340"]]
        let wide = Run.historyTable(rows, columns: 80)
        #expect(wide.allSatisfy { $0.count <= 80 }, "\(wide.joined(separator: "\n"))")
        #expect(wide[0].split(separator: " ") == ["#", "time", "target", "method", "URL", "status", "ms"])
        #expect(wide[1].contains("weather-now") && wide[1].contains("http://127.0.0.1:4") && wide[1].contains("…"), "\(wide)")
        #expect(wide[2].hasSuffix("failed  2340"), "\(wide)")
        let narrow = Run.historyTable(rows, columns: 40)
        #expect(narrow.allSatisfy { $0.count <= 40 }, "\(narrow.joined(separator: "\n"))")
        #expect(narrow[0].split(separator: " ") == ["#", "target", "URL", "status"], "\(narrow)")
        #expect(narrow[2].hasPrefix("74  sl ") && narrow[2].contains("http://127.0") && narrow[2].hasSuffix("failed"), "\(narrow)")
        // Into a pipe (no width) every column is whole.
        #expect(Run.historyTable(rows, columns: nil)[2].contains("http://127.0.0.1:47950/never/and/more/of/it"))
    }

    /// The newest call in `log`, once `shell`'s history writer has written what it holds.
    @ShellActor static func newestCall(of shell: ShellHarness, in log: CallLog) async throws -> CallSummary {
        let writer = shell.run.session.callLog
        _ = try await offPool { writer?.flush(within: 10) }
        return try #require(try log.recent(1).first)
    }

    @Test func historyShowPrintsTheRequestAndTheAnswer() async throws {
        let (variable, _) = SessionFiles.secretInEnvironment()
        let (shell, log, _) = try Self.shell()
        let server = try await TestServer.start(routes: ["/item": StaticRoute(
            headers: [("Content-Type", "application/json"), ("X-Trace", "abc")], body: Array(#"{"id": 7, "name": "seven"}"#.utf8))])
        let halt = await shell.run("""
            let key = env \(variable)
            target item { base \(server.baseURL); path /item; method POST; json name; header X-Api-Key:$key }
            set output quiet
            call item name=seven
            """)
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        let id = try #require(try log.recent(1).first?.id)
        _ = await shell.run("history show \(id)")
        let shown = shell.stdout
        #expect(shown.contains("call \(id)  ") && shown.contains("target item"), "\(shown)")
        #expect(shown.contains("POST \(server.baseURL)/item\n"), "\(shown)")
        #expect(shown.contains("X-Api-Key: ***\n"))
        #expect(shown.contains(#"{"name":"seven"}"#), "the request's body: \(shown)")
        #expect(shown.contains("HTTP 200 OK\n") && shown.contains("X-Trace: abc\n"), "\(shown)")
        #expect(shown.hasSuffix(#"{"id": 7, "name": "seven"}"#) || shown.contains(#"{"id": 7, "name": "seven"}"#))

        _ = await shell.run("history show 999999")
        #expect(shell.stderr.contains("the history has no call 999999"))
    }

    @Test func historyReplaySendsTheCallAgain() async throws {
        let (variable, secret) = SessionFiles.secretInEnvironment()
        let (shell, log, _) = try Self.shell()
        let server = try await TestServer.start()
        let halt = await shell.run("""
            let key = env \(variable)
            target echo { base \(server.baseURL); path /echo/{name}; query appid=$key q }
            set output quiet
            call echo name=one q=plain
            call echo name=two q=$key
            """)
        #expect(halt == nil, "\(shell.stderr)")
        let calls = try log.recent(2)
        try #require(calls.count == 2)
        #expect(server.hits("/echo/one") == 1)

        // Its target is declared: called again with the same arguments, the secret filled from the session.
        _ = await shell.run("set output raw\nhistory replay \(calls[0].id)")
        #expect(server.hits("/echo/one") == 2)
        #expect(shell.stdout.contains(#""query":"appid=\#(secret)&q=plain""#), "the server got the secret again: \(shell.stdout)")

        // `> FILE` writes the answer to the file, as after `call` (a newcomer got it read as arguments).
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let written = await shell.run("history replay \(calls[0].id) > \(file.path)")
        #expect(written == nil, "\(shell.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains(#""path":"/echo/one""#))
        #expect(server.hits("/echo/one") == 3)

        // An argument that held a secret was not kept: it must be given again.
        _ = await shell.run("history replay \(calls[1].id)")
        #expect(shell.stderr.contains("call \(calls[1].id) gave 'q' a secret, which the history does not keep"), "\(shell.stderr)")
        #expect(shell.stderr.contains("history replay \(calls[1].id) q=VALUE"))
        #expect(server.hits("/echo/two") == 1)
        _ = await shell.run("history replay \(calls[1].id) q=$key")
        #expect(server.hits("/echo/two") == 2)

        // A replay is a call too.
        let after = try log.recent(10)
        #expect(after.count == 5 && after.last?.url == "\(server.baseURL)/echo/two?appid=***&q=***")

        // In another session, without the target: the request as recorded, unless it held a secret.
        let other = ShellHarness()
        other.run.session.callLog = CallLog(path: log.path)
        _ = await other.run("history replay \(calls[0].id)")
        #expect(other.stderr.contains("cannot be sent again as recorded: the history masked its query appid"), "\(other.stderr)")
        #expect(other.stderr.contains("declare target 'echo'"), "\(other.stderr)")
        #expect(server.hits("/echo/one") == 3)
        // An ad-hoc request has no target to declare: the note says to type it again.
        _ = await other.run("set output quiet\nget \(server.baseURL)/echo/adhoc appid==literal-appid-1")
        let adHoc = try await Self.newestCall(of: other, in: log)
        _ = await other.run("history replay \(adHoc.id)")
        #expect(other.stderr.contains("an ad-hoc request has no target to fill its secrets from"), "\(other.stderr)")
        #expect(server.hits("/echo/adhoc") == 1)
        _ = await other.run("target open { base \(server.baseURL); path /echo/open; header X-Seen:yes }\nset output quiet\ncall open")
        let open = try await Self.newestCall(of: other, in: log)
        let fresh = ShellHarness()
        fresh.run.session.callLog = CallLog(path: log.path)
        _ = await fresh.run("set output raw\nhistory replay \(open.id)")
        #expect(server.hits("/echo/open") == 2, "\(fresh.stderr)")
        #expect(fresh.stdout.contains(#"["X-Seen","yes"]"#), "the recorded header was sent again: \(fresh.stdout)")
        try await server.shutdown()
    }

    /// An ad-hoc request's Cookie from the jar and Authorization from `plugin auth` are the
    /// session's, not the call's: a replay leaves them to the jar and the plugins in effect then
    /// (it was refused, "the history masked its header Cookie ... type it again", for a cookie
    /// nobody typed). A masked header the call itself gave still refuses it, and is named alone.
    @Test func aReplayLeavesTheJarsCookieAndAPluginsHeaderToTheSessionInEffect() async throws {
        let (variable, _) = SessionFiles.secretInEnvironment()
        let (shell, log, _) = try Self.shell()
        let server = try await TestServer.start(routes: ["/login": StaticRoute(
            headers: [("Content-Type", "application/json"), ("Set-Cookie", "plain=v1; Path=/")], body: Array("{}".utf8))])
        let halt = await shell.run("""
            let key = env \(variable)
            set output quiet
            get \(server.baseURL)/login
            get \(server.baseURL)/echo/jar
            plugin auth bearer RpTok99 host 127.0.0.1
            get \(server.baseURL)/echo/plugin
            get \(server.baseURL)/echo/typed X-Api-Key:$key
            """)
        #expect(halt == nil, "\(shell.stderr)")
        _ = try await Self.newestCall(of: shell, in: log)
        let calls = try log.recent(3)
        try #require(calls.map(\.url) == ["/echo/jar", "/echo/plugin", "/echo/typed"].map { server.baseURL + $0 })

        // The jar adds its cookie again, once: the recorded one is not sent beside it.
        shell.captured.stdout = ""
        let replayed = await shell.run("set output raw\nhistory replay \(calls[0].id)")
        #expect(replayed == nil, "\(shell.stderr)")
        #expect(server.hits("/echo/jar") == 2)
        #expect(shell.stdout.contains(#"["Cookie","plain=v1"]"#), "\(shell.stdout)")

        // Another session, with the plugin: it adds its header; the jar is empty, so no Cookie.
        let other = ShellHarness()
        other.run.session.callLog = CallLog(path: log.path)
        let again = await other.run("plugin auth bearer RpTok99 host 127.0.0.1\nset output raw\nhistory replay \(calls[1].id)")
        #expect(again == nil, "\(other.stderr)")
        #expect(server.hits("/echo/plugin") == 2)
        #expect(other.stdout.contains(#"["Authorization","Bearer RpTok99"]"#) && !other.stdout.contains("Cookie"), "\(other.stdout)")

        // Without the plugin, the request goes without its header, as any call would.
        let bare = ShellHarness()
        bare.run.session.callLog = CallLog(path: log.path)
        #expect(await bare.run("set output raw\nhistory replay \(calls[1].id)") == nil, "\(bare.stderr)")
        #expect(server.hits("/echo/plugin") == 3)
        #expect(!bare.stdout.contains("Authorization") && bare.stdout.contains("/echo/plugin"), "\(bare.stdout)")

        // A header the call itself gave, masked, still refuses the replay, and is the only one named.
        _ = await other.run("history replay \(calls[2].id)")
        #expect(other.stderr.contains("cannot be sent again as recorded: the history masked its header X-Api-Key"), "\(other.stderr)")
        #expect(!other.stderr.contains("Cookie") && !other.stderr.contains("Authorization"), "\(other.stderr)")
        #expect(server.hits("/echo/typed") == 1)
        try await server.shutdown()
    }

    @Test func setHistoryOffStopsRecording() async throws {
        let (shell, log, _) = try Self.shell()
        let server = try await TestServer.start()
        let halt = await shell.run("""
            target echo { base \(server.baseURL); path /echo/{name} }
            set output quiet
            call echo name=kept
            set history off
            call echo name=unrecorded
            set history on
            call echo name=again
            set history
            """)
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout.hasPrefix("history  on"), "\(shell.stdout)")
        let urls = try log.recent(10).map(\.url)
        #expect(urls == ["\(server.baseURL)/echo/kept", "\(server.baseURL)/echo/again"])
    }

    @Test func theSizeCapDropsTheOldestCalls() async throws {
        let (shell, log, _) = try Self.shell()
        let server = try await TestServer.start()
        let calls = 60
        let halt = await shell.run("""
            target large { base \(server.baseURL); path /large; query bytes=8000 n }
            set output quiet
            set history-size 128KB
            \((1...calls).map { "call large n=\($0)" }.joined(separator: "\n"))
            set history-size
            """)
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        #expect(shell.stdout.hasPrefix("history-size  128KB"), "\(shell.stdout)")
        let kept = try log.recent(1000)
        #expect(kept.count < calls && kept.count > 3, "\(kept.count) calls kept")
        #expect(kept.last?.url.hasSuffix("n=\(calls)") == true, "the newest call is kept")
        let numbers = kept.map { Int($0.url.split(separator: "=").last ?? "") ?? 0 }
        #expect(numbers == Array((calls - kept.count + 1)...calls), "the oldest are dropped, the rest kept in order")
        _ = try await offPool { log.close(within: 10) }
        let size = (try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0
        #expect(size <= 160 << 10, "the database file is \(size) bytes")

        let invalid = ShellHarness()
        _ = await invalid.run("set history-size 1KB")
        #expect(invalid.stderr.contains("invalid value '1KB' for 'history-size'"))
        #expect(invalid.stderr.contains("at least 64KB"))
    }

    @Test func aDamagedDatabaseIsReportedOnceAndCallsGoOn() async throws {
        let (shell, log, directory) = try Self.shell()
        let file = directory.appendingPathComponent("state/wsh/calls.sqlite")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let damaged = Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        try damaged.write(to: file)
        let server = try await TestServer.start()
        let halt = await shell.run("""
            target echo { base \(server.baseURL); path /echo/{name} }
            set output raw
            call echo name=one
            call echo name=two
            call echo name=three
            """)
        _ = try await offPool { log.close(within: 10) }
        shell.run.reportHistoryNotices()
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        #expect(["one", "two", "three"].allSatisfy { shell.stdout.contains(#""path":"/echo/\#($0)""#) }, "\(shell.stdout)")
        let notice = "the call history \(file.path) is damaged"
        #expect(shell.stderr.components(separatedBy: notice).count == 2, "said once: \(shell.stderr)")
        #expect(!shell.stderr.contains("SQLite") && !shell.stderr.contains("Error"), "in the user's words: \(shell.stderr)")
        #expect(shell.run.firstFailure == nil, "not a failure of the run")
        #expect(FileManager.default.contents(atPath: file.path) == damaged, "the file is left for the user to look at")
    }

    @Test func aLockedDatabaseIsReportedOnceAndCallsGoOn() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        let shell = ShellHarness()
        // Waits 50 ms for another program's lock, not 5 s, so that the test is quick.
        let log = CallLog(path: directory.appendingPathComponent("calls.sqlite").path, busyTimeout: 50)
        shell.run.session.callLog = log
        let server = try await TestServer.start()
        _ = await shell.run("target echo { base \(server.baseURL); path /echo/{name} }\nset output raw\ncall echo name=before")
        _ = try await offPool { log.flush(within: 10) }
        // Another program takes the write lock and keeps it.
        let other = try SQLiteDatabase(path: log.path, create: false)
        try other.execute("BEGIN IMMEDIATE")
        let halt = await shell.run("call echo name=locked1\ncall echo name=locked2\nhistory 1")
        _ = try await offPool { log.flush(within: 10) }
        shell.run.reportHistoryNotices()
        try other.execute("COMMIT")
        _ = await shell.run("call echo name=after")
        _ = try await offPool { log.close(within: 10) }
        shell.run.reportHistoryNotices()
        try await server.shutdown()
        #expect(halt == nil, "\(shell.stderr)")
        #expect(["before", "locked1", "locked2", "after"].allSatisfy { shell.stdout.contains(#""path":"/echo/\#($0)""#) }, "\(shell.stdout)")
        let notice = "the call history \(log.path) is locked by another program"
        #expect(shell.stderr.components(separatedBy: notice).count == 2, "said once: \(shell.stderr)")
        #expect(shell.run.firstFailure == nil, "not a failure of the run: \(shell.stderr)")
        let urls = try log.recent(10).map(\.url)
        #expect(urls.first == "\(server.baseURL)/echo/before" && urls.last == "\(server.baseURL)/echo/after", "\(urls)")
    }


    @Test func sizesAsTheLanguageWritesThem() {
        #expect(SizeText.parse("100MB") == 100 << 20)
        #expect(SizeText.parse("64kb") == 64 << 10)
        #expect(SizeText.parse("1.5GB") == 3 << 29)
        #expect(SizeText.parse("4096") == 4096)
        #expect(SizeText.parse("MB") == nil && SizeText.parse("-1MB") == nil && SizeText.parse("ten") == nil)
        #expect(SizeText.text(100 << 20) == "100MB" && SizeText.text(1 << 30) == "1GB" && SizeText.text(1000) == "1000B")
    }

}
