@testable import CallHistory
import Foundation
import Testing
import TestSupport

/// The size cap, on the store itself: past 97% of the cap the oldest calls go, down to 95%, in
/// one write however far over the file is, and never the newest call.
@Suite struct CallStoreCapTests {
    static let cap = 64 << 10

    /// `count` records of a GET answered with `bodyBytes` bytes, numbered from `first` in their paths.
    static func records(_ count: Int, bodyBytes: Int, first: Int = 0) -> [CallRecord] {
        (first..<first + count).map { number in
            CallRecord(CallLogTests.getEntry(Data(repeating: UInt8(ascii: "x"), count: bodyBytes), path: "/\(number)"))
        }
    }

    /// The bytes of pages in use (not on the free list), as the cap counts them.
    static func usedBytes(_ path: String) throws -> Int64 {
        let database = try SQLiteDatabase(path: path, create: false)
        let pages = try database.integer("PRAGMA page_count") - database.integer("PRAGMA freelist_count")
        return try pages * database.integer("PRAGMA page_size")
    }

    /// How many calls are kept, and the URL of the newest.
    static func kept(_ path: String) throws -> (count: Int64, newest: String?) {
        let database = try SQLiteDatabase(path: path, create: false)
        let count = try database.integer("SELECT COUNT(*) FROM calls")
        let statement = try database.prepare("SELECT url FROM calls ORDER BY id DESC LIMIT 1")
        let newest = try statement.step() ? statement.text(0) : nil
        return (count, newest)
    }

    /// 95% of the cap, or two pages below it, as `CallStore` puts the floor.
    static func floor(pageSize: Int64) -> Int64 {
        Int64(cap) - max(Int64(cap) / 20, 2 * pageSize)
    }

    @Test func oneBatchFarPastTheCapKeepsTheNewestCallsUnderIt() throws {
        let path = try ScratchDirectory.make("wsh-cap").appendingPathComponent("calls.sqlite").path
        let store = try CallStore(writingTo: path, busyTimeout: 1000)
        try store.insert(Self.records(30, bodyBytes: 8000), sizeLimit: Self.cap)
        let used = try Self.usedBytes(path)
        #expect(used <= Self.floor(pageSize: Int64(CallStore.pageSizeOfNewFiles)), "\(used) bytes in use")
        let (count, newest) = try Self.kept(path)
        #expect(count > 1 && count < 30, "\(count) calls kept")
        #expect(newest == "http://127.0.0.1:1/29", "the newest call is kept")
    }

    /// A cap lowered far below the history is reached by the next write, not over many.
    @Test func aCapLoweredFarBelowTheHistoryIsReachedInOneWrite() throws {
        let path = try ScratchDirectory.make("wsh-cap").appendingPathComponent("calls.sqlite").path
        let store = try CallStore(writingTo: path, busyTimeout: 1000)
        for batch in 0..<20 {
            try store.insert(Self.records(100, bodyBytes: 2000, first: batch * 100), sizeLimit: CallLog.defaultSizeLimit)
        }
        #expect(try Self.usedBytes(path) > 4 << 20, "a history of a few MB")
        try store.insert(Self.records(1, bodyBytes: 2000, first: 2000), sizeLimit: Self.cap)
        let used = try Self.usedBytes(path)
        #expect(used <= Self.floor(pageSize: Int64(CallStore.pageSizeOfNewFiles)), "\(used) bytes in use after one write")
        let (count, newest) = try Self.kept(path)
        #expect(count > 1, "\(count) calls kept")
        #expect(newest == "http://127.0.0.1:1/2000")
    }

    /// Calls of a few hundred bytes, many to a page, written in small batches: the history never
    /// passes the cap, and each time it is cut it goes down to 95%, not just under 97%.
    @Test func smallCallsInSmallBatchesStayUnderTheCapAndAreCutTo95Percent() throws {
        let path = try ScratchDirectory.make("wsh-cap").appendingPathComponent("calls.sqlite").path
        let store = try CallStore(writingTo: path, busyTimeout: 1000)
        let floor = Self.floor(pageSize: Int64(CallStore.pageSizeOfNewFiles))
        var cuts = 0
        var before = Int64(0)
        for batch in 0..<200 {
            try store.insert(Self.records(5, bodyBytes: 300, first: batch * 5), sizeLimit: Self.cap)
            let used = try Self.usedBytes(path)
            #expect(used <= Int64(Self.cap), "batch \(batch): \(used) bytes in use")
            if used < before {
                cuts += 1
                #expect(used <= floor, "batch \(batch): cut to \(used) bytes, above 95% (\(floor))")
            }
            before = used
        }
        #expect(cuts >= 2, "the cap was reached and the history cut \(cuts) times")
        #expect(try Self.kept(path).newest == "http://127.0.0.1:1/999")
    }
}
