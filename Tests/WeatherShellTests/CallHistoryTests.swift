@testable import CallHistory
import Foundation
import Targets
import Testing
import TestSupport
@testable import WeatherShell

/// The call history: every call recorded in SQLite with its secrets masked, `history`, `history
/// show`, `history replay`, `set history off`, the size cap, and a damaged database.
@ShellActor @Suite struct CallHistoryTests {
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

    /// A GET of `http://127.0.0.1:1` + `path` answered 200 with `body`, as the shell records it.
    nonisolated static func getEntry(_ body: Data, path: String = "/big") -> CallEntry {
        let request = Request(method: .get, url: "http://127.0.0.1:1" + path)
        return CallEntry(target: "(get)", arguments: CallArguments(), request: request,
                         response: Response(status: 200, reason: "OK", body: body, request: request), failure: nil,
                         elapsed: .zero, stubbed: false, redaction: Redaction())
    }

    /// The size of the write-ahead log beside the database at `path` (`Int.max` when the file
    /// system gives none, so that no bound on it holds).
    nonisolated static func logBytes(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? .max
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

        // An argument that held a secret was not kept: it must be given again.
        _ = await shell.run("history replay \(calls[1].id)")
        #expect(shell.stderr.contains("call \(calls[1].id) gave 'q' a secret, which the history does not keep"), "\(shell.stderr)")
        #expect(shell.stderr.contains("history replay \(calls[1].id) q=VALUE"))
        #expect(server.hits("/echo/two") == 1)
        _ = await shell.run("history replay \(calls[1].id) q=$key")
        #expect(server.hits("/echo/two") == 2)

        // A replay is a call too.
        let after = try log.recent(10)
        #expect(after.count == 4 && after.last?.url == "\(server.baseURL)/echo/two?appid=***&q=***")

        // In another session, without the target: the request as recorded, unless it held a secret.
        let other = ShellHarness()
        other.run.session.callLog = CallLog(path: log.path)
        _ = await other.run("history replay \(calls[0].id)")
        #expect(other.stderr.contains("cannot be sent again as recorded: the history masked its query appid"), "\(other.stderr)")
        #expect(other.stderr.contains("declare target 'echo'"), "\(other.stderr)")
        #expect(server.hits("/echo/one") == 2)
        // An ad-hoc request has no target to declare: the note says to type it again.
        _ = await other.run("set output quiet\nget \(server.baseURL)/echo/adhoc appid==literal-appid-1")
        let adHocLog = other.run.session.callLog
        _ = try await offPool { adHocLog?.flush(within: 10) }
        let adHoc = try #require(try log.recent(1).first)
        _ = await other.run("history replay \(adHoc.id)")
        #expect(other.stderr.contains("an ad-hoc request has no target to fill its secrets from"), "\(other.stderr)")
        #expect(server.hits("/echo/adhoc") == 1)
        _ = await other.run("target open { base \(server.baseURL); path /echo/open; header X-Seen:yes }\nset output quiet\ncall open")
        let otherLog = other.run.session.callLog
        _ = try await offPool { otherLog?.flush(within: 10) }
        let open = try #require(try log.recent(1).first)
        let fresh = ShellHarness()
        fresh.run.session.callLog = CallLog(path: log.path)
        _ = await fresh.run("set output raw\nhistory replay \(open.id)")
        #expect(server.hits("/echo/open") == 2, "\(fresh.stderr)")
        #expect(fresh.stdout.contains(#"["X-Seen","yes"]"#), "the recorded header was sent again: \(fresh.stdout)")
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

    /// Calls that come faster than the history writes them fill its queue (64 MB of bodies): the
    /// call that finds it full writes the queue itself, first waiting for a write under way however
    /// long it takes. That wait trapped in Foundation (a deadline of `.distantFuture`): 120 gets of
    /// a 1.3 MB answer ended wsh with SIGILL.
    @Test nonisolated func aCallThatFindsTheQueueFullWhileAWriteIsUnderWayWaitsAndGoesOn() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        // Waits for another program's lock up to a minute: the test ends that wait itself.
        let log = CallLog(path: directory.appendingPathComponent("calls.sqlite").path, busyTimeout: 60_000)
        log.record(Self.getEntry(Data("first".utf8)), sizeLimit: CallLog.defaultSizeLimit)
        #expect(try await offPool { log.flush(within: 10) })
        // Another program holds the write lock: the writer's next transaction waits for it.
        let other = try SQLiteDatabase(path: log.path, create: false)
        try other.execute("BEGIN IMMEDIATE")
        log.record(Self.getEntry(Data("second".utf8)), sizeLimit: CallLog.defaultSizeLimit)
        #expect(try await Self.within(seconds: 60) { log.isCommitting }, "a write under way")
        // Meanwhile calls fill the queue; the one that finds it full waits for the writer.
        let body = Data(repeating: UInt8(ascii: "x"), count: 1_300_000)
        let count = CallLog.maximumQueuedBytes / body.count + 2
        let filling = Task {
            try await offPool {
                for _ in 0..<count { log.record(Self.getEntry(body), sizeLimit: CallLog.defaultSizeLimit) }
            }
        }
        #expect(try await Self.within(seconds: 60) { log.hasWaiter }, "a call waits for the write")
        #expect(log.isCommitting, "the write it waits for is still under way")
        // The other program lets go; the write ends, and the waiting call goes on.
        try other.execute("COMMIT")
        try await filling.value
        log.record(Self.getEntry(Data("after".utf8), path: "/after"), sizeLimit: CallLog.defaultSizeLimit)
        #expect(try await offPool { log.flush(within: 60) })
        #expect(log.takeNotices().isEmpty)
        let urls = try log.recent(count + 10).map(\.url)
        #expect(urls.count == count + 3, "every call written")
        #expect(urls.last == "http://127.0.0.1:1/after", "the call after the full queue was written last")
        _ = try await offPool { log.close(within: 10) }
    }

    /// Polls `condition` every millisecond until it holds or `seconds` have passed; whether it held.
    nonisolated static func within(seconds: Int, _ condition: @Sendable () -> Bool) async throws -> Bool {
        let clock = ContinuousClock(), deadline = clock.now + .seconds(seconds)
        while !condition() {
            if clock.now >= deadline { return false }
            try await Task.sleep(for: .milliseconds(1))
        }
        return true
    }

    /// A write-ahead log grown past 1 MB is cut to nothing when it is folded into the database,
    /// not only folded: wsh leaves its connection open at exit, and the next process, finding the
    /// whole log again, copied all of it once more (a 59 MB log cost every later one-call run 130 ms;
    /// below 4 MB, every one-call run 3-5 ms, in three disk syncs).
    @Test nonisolated func aLogPastOneMegabyteIsCutWhenItIsFolded() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        let path = directory.appendingPathComponent("calls.sqlite").path
        let entry = Self.getEntry(Data(repeating: UInt8(ascii: "x"), count: 700_000))
        // Two calls at once, in one transaction: about 1.4 MB of log.
        let log = CallLog(path: path)
        for _ in 0..<2 { log.record(entry, sizeLimit: CallLog.defaultSizeLimit) }
        #expect(try await offPool { log.flush(within: 60) })
        let folded = try Self.logBytes(path)
        #expect(folded < 1 << 20, "\(folded) bytes of log")
        // The process ends with its connection open; the next one adds a call and finds the log small.
        _ = try await offPool { log.finish(within: 10) }
        let next = CallLog(path: path)
        next.record(Self.getEntry(Data("{}".utf8)), sizeLimit: CallLog.defaultSizeLimit)
        #expect(try await offPool { next.flush(within: 10) })
        #expect(try next.recent(10).count == 3)
        let after = try Self.logBytes(path)
        #expect(after < 64 << 10, "\(after) bytes of log")
        _ = try await offPool { next.close(within: 10) }
    }

    /// The same for a log past 4 MB, written by one batch.
    @Test nonisolated func aLogPastFourMegabytesIsCutWhenItIsFolded() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        let log = CallLog(path: directory.appendingPathComponent("calls.sqlite").path)
        let entry = Self.getEntry(Data(repeating: UInt8(ascii: "x"), count: 900_000))
        // Eight calls at once, in one transaction: about 7 MB of log.
        for _ in 0..<8 { log.record(entry, sizeLimit: CallLog.defaultSizeLimit) }
        #expect(try await offPool { log.flush(within: 60) })
        #expect(try log.recent(10).count == 8)
        let logSize = try Self.logBytes(log.path)
        #expect(logSize < 4 << 20, "\(logSize) bytes of log")
        _ = try await offPool { log.close(within: 10) }
    }

    /// A new history is made with 8 KB pages, which write a call's row in fewer, larger pieces; a
    /// file made with other pages (by an earlier wsh) keeps them, and its calls are still written.
    @Test nonisolated func aNewHistoryHasEightKilobytePagesAndAFileWithOtherPagesStillTakesCalls() async throws {
        let directory = try SessionFiles.temporaryDirectory()
        func pageSize(_ path: String) throws -> Int64 {
            try SQLiteDatabase(path: path, create: false).integer("PRAGMA page_size")
        }
        let entry = Self.getEntry(Data("{}".utf8), path: "/pages")
        let new = CallLog(path: directory.appendingPathComponent("new.sqlite").path)
        new.record(entry, sizeLimit: CallLog.defaultSizeLimit)
        #expect(try await offPool { new.flush(within: 10) })
        #expect(try pageSize(new.path) == 8192)
        _ = try await offPool { new.close(within: 10) }

        let olderPath = directory.appendingPathComponent("older.sqlite").path
        let older = try SQLiteDatabase(path: olderPath, create: true)
        try older.execute("PRAGMA page_size = 4096; PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = WAL")
        try older.execute(CallStore.schema + "PRAGMA user_version = \(CallStore.version)")
        let log = CallLog(path: olderPath)
        for _ in 0..<3 { log.record(entry, sizeLimit: CallLog.defaultSizeLimit) }
        #expect(try await offPool { log.flush(within: 10) })
        #expect(try log.recent(10).count == 3)
        #expect(try pageSize(olderPath) == 4096)
        _ = try await offPool { log.close(within: 10) }
    }

    @Test func sizesAsTheLanguageWritesThem() {
        #expect(SizeText.parse("100MB") == 100 << 20)
        #expect(SizeText.parse("64kb") == 64 << 10)
        #expect(SizeText.parse("1.5GB") == 3 << 29)
        #expect(SizeText.parse("4096") == 4096)
        #expect(SizeText.parse("MB") == nil && SizeText.parse("-1MB") == nil && SizeText.parse("ten") == nil)
        #expect(SizeText.text(100 << 20) == "100MB" && SizeText.text(1 << 30) == "1GB" && SizeText.text(1000) == "1000B")
    }

    /// A header's value is masked under a sensitive name, and secrets in it are masked, byte for byte.
    @Test func headerLinesAreMaskedByNameAndBySecret() {
        func record(_ headers: [Header], secrets: [String] = []) -> (text: String, withheld: [String]) {
            let request = Request(method: .get, url: "http://127.0.0.1:1/x", headers: headers)
            let entry = CallEntry(target: "t", arguments: CallArguments(), request: request, response: nil, failure: "refused",
                                  elapsed: .zero, stubbed: false, redaction: Redaction(secrets: secrets))
            let record = CallRecord(entry)
            return (String(decoding: record.requestHeaders, as: UTF8.self), record.withheld)
        }
        let plain = [Header(name: "X-Trace", value: "blue-lagoon-7"), Header(name: "Accept", value: "*/*")]
        let shown = "X-Trace: blue-lagoon-7\nAccept: */*\n"
        #expect(record(plain) == (shown, []))
        // The same headers, the value now one of the session's secrets.
        #expect(record(plain, secrets: ["blue-lagoon-7"]) == ("X-Trace: ***\nAccept: */*\n", ["header X-Trace"]))
        // The same value under a sensitive name that adds no secret.
        #expect(record([Header(name: "X-Trace", value: "a=b")]) == ("X-Trace: a=b\n", []))
        #expect(record([Header(name: "Cookie", value: "a=b")]) == ("Cookie: ***\n", ["header Cookie"]))
        // Equal as Swift compares text, not as bytes: the secret's bytes in the second only.
        let composed = "caf\u{E9}-lagoon-7", decomposed = "cafe\u{301}-lagoon-7"
        #expect(record([Header(name: "X-Trace", value: decomposed)], secrets: [composed]).text != "X-Trace: ***\n")
        #expect(record([Header(name: "X-Trace", value: composed)], secrets: [composed]) == ("X-Trace: ***\n", ["header X-Trace"]))
        // The same value under a sensitive name.
        let sensitive = [Header(name: "X-Api-Key", value: "blue-lagoon-7"), plain[1]]
        #expect(record(sensitive) == ("X-Api-Key: ***\nAccept: */*\n", ["header X-Api-Key"]))
        #expect(record(plain + [Header(name: "Cookie", value: "a=b")]) == (shown + "Cookie: ***\n", ["header Cookie"]))
    }

    /// An answer's body is masked by the secrets, byte for byte, and by its content type.
    @Test func answerBodiesAreMaskedBySecretAndContentType() {
        func record(_ body: String, type: String? = "application/json", secrets: [String] = []) -> String {
            let request = Request(method: .get, url: "http://127.0.0.1:1/x")
            let response = Response(status: 200, reason: "OK", headers: type.map { [Header(name: "Content-Type", value: $0)] } ?? [],
                                    body: Data(body.utf8), request: request)
            let entry = CallEntry(target: "t", arguments: CallArguments(), request: request, response: response, failure: nil,
                                  elapsed: .zero, stubbed: false, redaction: Redaction(secrets: secrets))
            return String(decoding: CallRecord(entry).body ?? Data(), as: UTF8.self)
        }
        let plain = #"{"city":"blue-lagoon-7"}"#
        #expect(record(plain) == plain)
        // The same bytes, a secret of the session in them now.
        #expect(record(plain, secrets: ["blue-lagoon-7"]) == "{\n  \"city\": \"***\"\n}\n")
        // The same bytes with no type, then as a form, where a field named like a secret is masked.
        let form = "token=blue-lagoon-7"
        #expect(record(form, type: nil) == form)
        #expect(record(form, type: "application/x-www-form-urlencoded") == "token=***")
        #expect(record(form, type: "text/plain") == form)
        // Equal as Swift compares text, not as bytes: the secret's bytes in the second only.
        let composed = "caf\u{E9}-lagoon-7", decomposed = "cafe\u{301}-lagoon-7"
        #expect(record(#"{"city":"\#(decomposed)"}"#, secrets: [composed]).contains(decomposed))
        #expect(record(#"{"city":"\#(composed)"}"#, secrets: [composed]) == "{\n  \"city\": \"***\"\n}\n")
        #expect(record(#"{"city":"\#(composed)"}"#, secrets: [decomposed]) == #"{"city":"\#(composed)"}"#)
    }

    @Test func listsKeptInOneColumnComeBackAsTheyWere() {
        let items = ["header Cookie", "a\\b", "two\nlines", "ends with \\", "\\n is not a line break", "", "é ü 雪", "a\r", "b", "\n\u{301}"]
        let encoded = ListText.encode(items)
        #expect(encoded.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count == items.count, "\(encoded)")
        #expect(ListText.decode(encoded) == items)
        #expect(ListText.encode([]) == "" && ListText.decode("") == [])
    }
}
