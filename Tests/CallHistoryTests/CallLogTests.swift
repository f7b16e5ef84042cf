@testable import CallHistory
import Foundation
import Targets
import Testing
import TestSupport

/// The call log on its own: its one writer and full queue, the write-ahead log's size, page sizes,
/// and what it masks before anything is written. The `history` commands are tested through the
/// shell in WeatherShellTests (RunHistoryTests).
@Suite struct CallLogTests {
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

    /// Calls that come faster than the history writes them fill its queue (64 MB of bodies): the
    /// call that finds it full waits for the writer, however long a write under way takes. A wait
    /// with a deadline of `.distantFuture` once trapped in Foundation: 120 gets of a 1.3 MB answer
    /// ended wsh with SIGILL.
    @Test nonisolated func aCallThatFindsTheQueueFullWhileAWriteIsUnderWayWaitsAndGoesOn() async throws {
        let directory = try ScratchDirectory.make("wsh-history")
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
        let directory = try ScratchDirectory.make("wsh-history")
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
        let directory = try ScratchDirectory.make("wsh-history")
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
        let directory = try ScratchDirectory.make("wsh-history")
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
