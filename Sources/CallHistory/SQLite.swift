import CSQLite
import Foundation

/// Why SQLite refused, in the terms a user of wsh reads: never a library's type names.
struct SQLiteFailure: Error, CustomStringConvertible {
    enum Kind: Equatable {
        /// The file is not a database, or its pages do not hold together.
        case damaged
        /// Another program held the database past the busy timeout.
        case locked
        /// Anything else: a disk that is full, a directory that cannot be written.
        case other
    }

    /// SQLite's primary result code.
    let code: Int32
    /// SQLite's message for it, plain English (`disk I/O error`, `database or disk is full`).
    let message: String

    var kind: Kind {
        switch code & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB: .damaged
        case SQLITE_BUSY, SQLITE_LOCKED: .locked
        default: .other
        }
    }

    var description: String { message }
}

/// One connection to an SQLite database, used by one thread at a time.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    /// Opens `path`; `create` makes the file when it is missing. Waits up to `busyTimeout`
    /// milliseconds whenever another connection holds the lock.
    init(path: String, create: Bool, busyTimeout: Int32 = 5000) throws(SQLiteFailure) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw SQLiteFailure(code: code, message: message)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 0)
        sqlite3_busy_timeout(handle, busyTimeout)
    }

    /// Frames in the write-ahead log after the last commit, once ``countLogFrames()`` was called.
    private let logFrames = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    deinit {
        sqlite3_close_v2(handle)
        logFrames.deallocate()
    }

    /// Waits up to `milliseconds` whenever another connection holds the lock.
    func setBusyTimeout(_ milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Counts the write-ahead log's frames after each commit (``framesInLog``) instead of letting
    /// SQLite checkpoint in the committing call, which the caller then does when it suits it.
    func countLogFrames() {
        logFrames.pointee = 0
        wsh_sqlite3_count_wal_frames(handle, logFrames)
    }

    var framesInLog: Int { Int(logFrames.pointee) }

    /// Runs statements that return no rows the caller needs.
    func execute(_ sql: String) throws(SQLiteFailure) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        if code != SQLITE_OK { throw failure(code) }
    }

    /// A statement to bind, step and reset as often as needed.
    func prepare(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code) }
        return SQLiteStatement(statement, database: self)
    }

    /// The first column of the first row of `sql`, as an integer; 0 when there is no row.
    func integer(_ sql: String) throws(SQLiteFailure) -> Int64 {
        let statement = try prepare(sql)
        return try statement.step() ? statement.integer(0) : 0
    }

    func failure(_ code: Int32) -> SQLiteFailure {
        SQLiteFailure(code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A value for a statement's parameter (``SQLiteStatement/step(binding:)``).
enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Text already as UTF-8.
    case utf8([UInt8])
    case blob(Data)
}

/// A prepared statement of an ``SQLiteDatabase``; columns and parameters count from 0 and 1 as in SQLite.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: SQLiteDatabase

    fileprivate init(_ handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Clears the bindings and rewinds, for the next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: String?) {
        guard var value else { sqlite3_bind_null(handle, index); return }
        value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                if let base = text.baseAddress {
                    _ = wsh_sqlite3_bind_text(handle, index, base, Int32(text.count))
                } else {
                    _ = wsh_sqlite3_bind_text(handle, index, "", 0)
                }
            }
        }
    }

    /// Binds `values` to parameters 1, 2, ... in order, steps once, then resets the statement and
    /// clears its bindings. Text and blobs are bound where they are, not copied (a copy of each
    /// of an insert's ten texts and blobs was a third of the call history's writing): they stay
    /// bound only for this step. For a statement that returns no row the caller reads.
    @discardableResult
    func step(binding values: [SQLiteValue]) throws(SQLiteFailure) -> Bool {
        // Clearing reads no value; the reset is done where the values are still valid (a trace
        // callback may read them there).
        defer { sqlite3_clear_bindings(handle) }
        do {
            return try bind(values, from: 0)
        } catch let failure as SQLiteFailure {
            throw failure
        } catch {
            throw SQLiteFailure(code: SQLITE_ERROR, message: "\(error)")
        }
    }

    /// Binds `values[index...]`, each inside the scope where its bytes are valid, then steps.
    /// As deep as there are values: a statement's parameters, a handful.
    private func bind(_ values: [SQLiteValue], from index: Int) throws -> Bool {
        guard index < values.count else {
            defer { sqlite3_reset(handle) }
            return try step()
        }
        // A statement has at most 32,766 parameters.
        let parameter = Int32(truncatingIfNeeded: index + 1)
        switch values[index] {
        case .null:
            sqlite3_bind_null(handle, parameter)
        case .integer(let value):
            sqlite3_bind_int64(handle, parameter, value)
        case .real(let value):
            sqlite3_bind_double(handle, parameter, value)
        case .text(var text):
            return try text.withUTF8 { bytes in
                try bindText(bytes, to: parameter)
                return try bind(values, from: index + 1)
            }
        case .utf8(let bytes):
            return try bytes.withUnsafeBufferPointer { bytes in
                try bindText(bytes, to: parameter)
                return try bind(values, from: index + 1)
            }
        case .blob(let data):
            return try data.withUnsafeBytes { bytes in
                let count = try Self.length(bytes.count)
                let code = bytes.isEmpty
                    ? sqlite3_bind_zeroblob(handle, parameter, 0)
                    : wsh_sqlite3_bind_blob_in_place(handle, parameter, bytes.baseAddress, count)
                if code != SQLITE_OK { throw database.failure(code) }
                return try bind(values, from: index + 1)
            }
        }
        return try bind(values, from: index + 1)
    }

    /// A text's or blob's length as SQLite takes it.
    private static func length(_ count: Int) throws(SQLiteFailure) -> Int32 {
        guard let length = Int32(exactly: count) else { throw SQLiteFailure(code: SQLITE_TOOBIG, message: "string or blob too big") }
        return length
    }

    private func bindText(_ bytes: UnsafeBufferPointer<UInt8>, to parameter: Int32) throws(SQLiteFailure) {
        let count = try Self.length(bytes.count)
        let code = bytes.withMemoryRebound(to: CChar.self) { text in
            // An empty text has no address: bound as a copy of nothing.
            guard let base = text.baseAddress else { return wsh_sqlite3_bind_text(handle, parameter, "", 0) }
            return wsh_sqlite3_bind_text_in_place(handle, parameter, base, count)
        }
        if code != SQLITE_OK { throw database.failure(code) }
    }

    /// Steps once: true when a row is there to read, false when the statement is done.
    @discardableResult
    func step() throws(SQLiteFailure) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let failure = database.failure(code)
            sqlite3_reset(handle)
            throw failure
        }
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func integer(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func optionalInteger(_ column: Int32) -> Int64? {
        isNull(column) ? nil : integer(column)
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    func optionalDouble(_ column: Int32) -> Double? {
        isNull(column) ? nil : double(column)
    }

    func text(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? {
        isNull(column) ? nil : text(column)
    }

    func data(_ column: Int32) -> Data? {
        if isNull(column) { return nil }
        let bytes = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}
