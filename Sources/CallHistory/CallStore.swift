import Foundation
import Targets

/// Why the database refused, sorted by what the user can do about it.
struct CallStoreFailure: Error {
    enum Kind { case damaged, locked, newer, other }
    var kind: Kind
    /// What went wrong, in plain words (SQLite's own messages are: `file is not a database`).
    var detail: String

    init(_ failure: SQLiteFailure) {
        kind = switch failure.kind {
        case .damaged: .damaged
        case .locked: .locked
        case .other: .other
        }
        detail = failure.message
    }

    init(kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// Any failure of the store's work as one of these.
    static func from(_ error: any Error) -> CallStoreFailure {
        switch error {
        case let failure as CallStoreFailure: failure
        case let failure as SQLiteFailure: CallStoreFailure(failure)
        default: CallStoreFailure(kind: .other, detail: "\(error)")
        }
    }
}

/// One connection to the call history's database: the schema, the writer's inserts and size
/// cap, and the reader's queries.
final class CallStore {
    /// The schema's version, in `PRAGMA user_version`.
    static let version: Int64 = 1

    /// Columns the listing reads come first: a row's large values (headers, bodies) are last, so
    /// that listing does not read their overflow pages. No AUTOINCREMENT: the size cap never drops
    /// the newest call, so the next id (the largest plus one) is never one used before, and
    /// AUTOINCREMENT's table of its own cost every insert a second search and write. A file made
    /// by an earlier wsh, with it, works the same.
    static let schema = """
        CREATE TABLE IF NOT EXISTS calls (
          id INTEGER PRIMARY KEY,
          time REAL NOT NULL,
          target TEXT NOT NULL,
          method TEXT NOT NULL,
          url TEXT NOT NULL,
          status INTEGER,
          elapsed_ms REAL NOT NULL,
          stub INTEGER NOT NULL DEFAULT 0,
          failure TEXT,
          size INTEGER NOT NULL,
          reason TEXT,
          final_url TEXT,
          arguments TEXT NOT NULL,
          masked_arguments TEXT NOT NULL,
          withheld TEXT NOT NULL,
          request_headers TEXT NOT NULL,
          request_body BLOB,
          response_headers TEXT,
          body_size INTEGER,
          body BLOB
        );
        """

    private let database: SQLiteDatabase
    private var insertStatement: SQLiteStatement?
    /// How long a statement waits for another connection's lock, in milliseconds.
    private var busyTimeout: Int32
    /// A reader's database that another process has made but not yet given its table.
    private var isEmpty = false
    /// The database's page size: a write-ahead log frame holds one page.
    private var pageSize = 4096

    /// Pages of a database this wsh makes: 8 KB. At 4 KB, a call of about 1 KB (its headers and a
    /// 500-byte answer) took a quarter of a page, and 2000 calls about 1,700 writes to the log and
    /// the file; with 8 KB pages the history added 3-6 ms less to them, of about 30 (2000 calls to
    /// nginx, history on against off, in several comparisons). 16 KB did no better, and left the
    /// smallest size cap (64 KB) 4 pages. A file made with other pages keeps them.
    static let pageSizeOfNewFiles = 8 << 10

    /// Opens the database for writing, making its directory (0700) and file (0600) when missing,
    /// in write-ahead-log mode, with the schema.
    init(writingTo path: String, busyTimeout: Int32) throws {
        self.busyTimeout = busyTimeout
        try Self.makeDirectory(FilePaths.directory(of: path))
        // Made here, so that its mode is 0600 rather than what SQLite would give it.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor < 0 { throw CallStoreFailure(kind: .other, detail: String(cString: strerror(errno))) }
        var status = stat()
        let isNew = fstat(descriptor, &status) == 0 && status.st_size == 0
        close(descriptor)
        database = try SQLiteDatabase(path: path, create: true, busyTimeout: busyTimeout)
        // Before any table exists: the page size, and incremental vacuum, which lets a lowered size
        // cap shrink the file (see `insert`).
        if isNew { try database.execute("PRAGMA page_size = \(Self.pageSizeOfNewFiles); PRAGMA auto_vacuum = INCREMENTAL") }
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 4194304")
        // Checkpoints are the writer's, between batches (``checkpointIfLarge()``), not inside a commit
        // that someone waiting for the queue waits for.
        database.countLogFrames()
        pageSize = Int(try database.integer("PRAGMA page_size"))
        let version = try database.integer("PRAGMA user_version")
        if version > Self.version { throw CallStoreFailure(kind: .newer, detail: "schema version \(version)") }
        guard version < Self.version else { return }
        try database.execute("BEGIN IMMEDIATE")
        // Another process may have made it meanwhile.
        if try database.integer("PRAGMA user_version") < Self.version {
            try database.execute(Self.schema)
            try database.execute("PRAGMA user_version = \(Self.version)")
        }
        try database.execute("COMMIT")
    }

    /// Opens an existing database for reading.
    init(readingFrom path: String, busyTimeout: Int32) throws {
        self.busyTimeout = busyTimeout
        database = try SQLiteDatabase(path: path, create: false, busyTimeout: busyTimeout)
        let version = try database.integer("PRAGMA user_version")
        if version > Self.version { throw CallStoreFailure(kind: .newer, detail: "schema version \(version)") }
        // Made but not yet given its table (another process is making it): an empty history.
        isEmpty = version < Self.version
    }

    /// Makes `directory` and its missing parents (0700), as `mkdir -p` does; a failure names the
    /// part that could not be made and why, in the system's words (Foundation's name only a code).
    private static func makeDirectory(_ directory: String) throws(CallStoreFailure) {
        var path = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/") {
            path += "/" + part
            var status = stat()
            if stat(path, &status) == 0 {
                if status.st_mode & S_IFMT == S_IFDIR { continue }
                throw CallStoreFailure(kind: .other, detail: "cannot make the directory \(directory): \(path) is a file")
            }
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw CallStoreFailure(kind: .other, detail: "cannot make the directory \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    // MARK: Writing

    /// Writes `records` in one transaction, then drops the oldest calls when the database's pages
    /// in use pass 97% of `sizeLimit` bytes (down to 95%, so that it is not done on every batch);
    /// the newest call is always kept.
    func insert(_ records: [CallRecord], sizeLimit: Int) throws {
        try database.execute("BEGIN IMMEDIATE")
        do {
            let statement = try insertion()
            for record in records {
                try statement.step(binding: Self.values(of: record))
            }
            try applyCap(sizeLimit)
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// Folds the write-ahead log into the database once its pages hold `bytes` or more (1 MB by
    /// default), and cuts the log to nothing, without waiting for readers or writers: when another
    /// connection holds a lock, what it can fold now it folds, and the rest later.
    ///
    /// Folding alone (a passive checkpoint) left the log's pages in the file, and the next process
    /// to open it, rebuilding its index of the log, took every page for unfolded again: when its
    /// first commit passed the limit, it copied the whole log once more, with three disk syncs, and
    /// so did every process after it (a one-call `wsh -c` paid 3-5 ms for its history, strace:
    /// 117 writes and 3 syncs for one call; with 1 MB answers, a 59 MB log cost 130 ms). Cut, the
    /// log has only pages not yet folded. Unlike a passive checkpoint, this one holds the write
    /// lock while it copies and syncs: another wsh's writes wait that long, well inside their
    /// busy timeout.
    func checkpointIfLarge(bytes: Int = 1 << 20) {
        guard database.framesInLog * pageSize >= bytes else { return }
        // No busy wait: when another connection holds a lock this is a passive checkpoint.
        database.setBusyTimeout(0)
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        database.setBusyTimeout(busyTimeout)
        database.countLogFrames()
    }

    /// Waits up to `milliseconds` for another process's lock from now on.
    func setBusyTimeout(_ milliseconds: Int32) {
        busyTimeout = milliseconds
        database.setBusyTimeout(milliseconds)
    }

    private func insertion() throws -> SQLiteStatement {
        if let insertStatement { return insertStatement }
        let statement = try database.prepare("""
            INSERT INTO calls (time, target, method, url, status, elapsed_ms, stub, failure, size, reason, final_url,
              arguments, masked_arguments, withheld, request_headers, request_body, response_headers, body_size, body)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)
            """)
        insertStatement = statement
        return statement
    }

    /// The record's columns, in the order of ``insertion()``'s parameters.
    private static func values(of record: CallRecord) -> [SQLiteValue] {
        func text(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
        return [
            .real(record.time), .text(record.target), .text(record.method), .text(record.url),
            record.status.map { .integer(Int64($0)) } ?? .null, .real(record.elapsedMilliseconds),
            .integer(record.stubbed ? 1 : 0), text(record.failure), .integer(Int64(record.size)), text(record.reason),
            text(record.finalURL), .text(ListText.encode(record.arguments)), .text(ListText.encode(record.maskedArguments)),
            .text(ListText.encode(record.withheld)), .utf8(record.requestHeaders), record.requestBody.map(SQLiteValue.blob) ?? .null,
            record.responseHeaders.map(SQLiteValue.utf8) ?? .null, record.bodySize.map { .integer(Int64($0)) } ?? .null,
            record.body.map(SQLiteValue.blob) ?? .null,
        ]
    }

    /// The bytes the database's pages hold (pages on the free list are not counted: they are reused).
    private func usedBytes() throws -> (used: Int64, file: Int64, pageSize: Int64) {
        let pageSize = try database.integer("PRAGMA page_size")
        let pages = try database.integer("PRAGMA page_count")
        let free = try database.integer("PRAGMA freelist_count")
        return ((pages - free) * pageSize, pages * pageSize, pageSize)
    }

    private func applyCap(_ sizeLimit: Int) throws {
        let limit = Int64(sizeLimit)
        var (used, file, pageSize) = try usedBytes()
        // Past 97% of the cap, down to 95%: the pages freed are reused by the next calls, so the
        // file, pages in use and free, stays within the cap.
        let high = limit - max(limit / 33, pageSize)
        let low = limit - max(limit / 20, 2 * pageSize)
        var dropping = used > high
        var rounds = 0
        while dropping, rounds < 32 {
            rounds += 1
            // The oldest calls whose rows add up to half of what is over, reading only those rows:
            // a row takes at least its bytes in pages (more with a record's overhead or overflow
            // pages of its own), so half frees about half, and no more than all of it unless a
            // row takes twice its bytes; the next round measures again. Weighing rows by the
            // table's pages per byte (TOTAL(size) over every row) read the whole table each time.
            let target = Double(used - low) / 2
            let oldest = try database.prepare("SELECT id, size FROM calls WHERE id < (SELECT MAX(id) FROM calls) ORDER BY id")
            var dropped: Double = 0
            var last: Int64?
            while dropped < target, try oldest.step() {
                last = oldest.integer(0)
                dropped += Double(oldest.integer(1))
            }
            oldest.reset()
            guard let last else { break }
            let delete = try database.prepare("DELETE FROM calls WHERE id <= ?1")
            delete.bind(1, last)
            try delete.step()
            (used, file, pageSize) = try usedBytes()
            dropping = used > low
        }
        // Free pages are reused by later calls; only a cap lowered well below the file gives
        // them back to the file system (moving pages costs more than reusing them).
        let free = file - used
        if file > limit, free > limit / 20 {
            try database.execute("PRAGMA incremental_vacuum(\(min(free, file - low) / pageSize))")
        }
    }

    // MARK: Reading

    private static let summaryColumns = "id, time, target, method, url, status, elapsed_ms, stub, failure"

    func recent(_ limit: Int, matching pattern: String?) throws -> [CallSummary] {
        if isEmpty { return [] }
        let statement: SQLiteStatement
        if let pattern {
            statement = try database.prepare("""
                SELECT \(Self.summaryColumns) FROM calls
                WHERE instr(lower(target), lower(?1)) > 0 OR instr(lower(url), lower(?1)) > 0
                ORDER BY id DESC LIMIT ?2
                """)
            statement.bind(1, pattern)
            statement.bind(2, Int64(limit))
        } else {
            statement = try database.prepare("SELECT \(Self.summaryColumns) FROM calls ORDER BY id DESC LIMIT ?1")
            statement.bind(1, Int64(limit))
        }
        var calls: [CallSummary] = []
        while try statement.step() {
            calls.append(Self.summary(statement))
        }
        return calls.reversed()
    }

    func call(_ id: Int64) throws -> StoredCall? {
        if isEmpty { return nil }
        let statement = try database.prepare("""
            SELECT \(Self.summaryColumns), reason, final_url, arguments, masked_arguments, withheld,
              request_headers, request_body, response_headers, body_size, body
            FROM calls WHERE id = ?1
            """)
        statement.bind(1, id)
        guard try statement.step() else { return nil }
        return StoredCall(
            summary: Self.summary(statement),
            reason: statement.optionalText(9),
            finalURL: statement.optionalText(10),
            arguments: ListText.decode(statement.text(11)),
            maskedArguments: ListText.decode(statement.text(12)),
            withheld: ListText.decode(statement.text(13)),
            requestHeaders: HeaderText.decode(statement.text(14)),
            requestBody: statement.data(15),
            responseHeaders: statement.optionalText(16).map(HeaderText.decode),
            bodySize: statement.optionalInteger(17).map(Int.init),
            body: statement.data(18))
    }

    private static func summary(_ statement: SQLiteStatement) -> CallSummary {
        CallSummary(
            id: statement.integer(0),
            time: Date(timeIntervalSince1970: statement.double(1)),
            target: statement.text(2),
            method: statement.text(3),
            url: statement.text(4),
            status: statement.optionalInteger(5).map(Int.init),
            elapsedMilliseconds: statement.double(6),
            stubbed: statement.integer(7) != 0,
            failure: statement.optionalText(8))
    }
}

/// A list of texts in one column: each item's bytes, with `\` and newlines escaped, one per line.
enum ListText {
    /// Built as bytes, each item escaped in one pass.
    static func encode(_ items: [String]) -> String {
        guard !items.isEmpty else { return "" }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(items.reduce(0) { $0 + $1.utf8.count + 1 })
        for (position, item) in items.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: "\n")) }
            for byte in item.utf8 {
                switch byte {
                case UInt8(ascii: "\\"), UInt8(ascii: "\n"):
                    bytes.append(UInt8(ascii: "\\"))
                    bytes.append(byte == UInt8(ascii: "\n") ? UInt8(ascii: "n") : byte)
                default: bytes.append(byte)
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Read as bytes: `\r\n` is one Character, and an escaped `n` would join a combining mark after it.
    static func decode(_ text: String) -> [String] {
        guard !text.isEmpty else { return [] }
        return text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            var bytes: [UInt8] = []
            bytes.reserveCapacity(line.count)
            var escaped = false
            for byte in line {
                if escaped {
                    bytes.append(byte == UInt8(ascii: "n") ? UInt8(ascii: "\n") : byte)
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else {
                    bytes.append(byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
