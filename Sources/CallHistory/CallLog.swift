import Foundation
import Synchronization

/// The call history: every call a shell makes, its secrets masked, in an SQLite database that
/// several wsh processes write at once (write-ahead log, a busy timeout of 5 s).
///
/// ``record(_:)`` only queues the call: a thread of this log's own, started by the first call,
/// masks each one and writes them in batches, so a call never waits for the disk or for another
/// process's lock. The queue is bounded (10,000 calls or 64 MB of bodies): past that a call waits
/// for the writer rather than grow memory without end. ``finish(within:)`` writes what is left at
/// exit, for a bounded time. A database that is damaged, locked past the timeout or cannot be
/// written is said once (``takeNotices()``), in words for the user, and the shell goes on.
public final class CallLog: @unchecked Sendable {
    /// The database file, found on first use: a shell that makes no call does not look.
    public var path: String {
        location.withLock { location in
            if case .found(let path) = location { return path }
            guard case .unresolved(let find) = location else { return "" }
            let path = find()
            location = .found(path)
            return path
        }
    }
    private enum Location { case unresolved(@Sendable () -> String), found(String) }
    private let location: Mutex<Location>
    /// The condition's lock guards every `var` below.
    private let condition = NSCondition()
    private var pending: [CallEntry] = []
    private var pendingBytes = 0
    /// A batch is out of ``pending`` and not yet written.
    private var writing = false
    private var writerStarted = false
    /// The writer waits for a first call: a new one must wake it.
    private var writerIdle = false
    /// Someone waits for the queue to empty: the writer must not linger.
    private var hurried = 0
    private var closing = false
    /// The writer has closed its connection and ended.
    private var writerDone = false
    /// After the database was found damaged, calls are no longer queued.
    private var disabled = false
    private var notices: [String] = []
    private var noticed: Set<String> = []
    private var lockedCount = 0
    private var sizeLimit: Int
    /// The writer's connection; touched by the writer's thread only.
    private var writer: CallStore?

    /// How many calls, and how many bytes of their bodies, may wait for the writer.
    static let maximumPending = 10_000
    static let maximumPendingBytes = 64 << 20
    /// How long the writer waits for more calls before it writes a batch.
    static let linger = 0.01

    /// The default size cap: 100 MB.
    public static let defaultSizeLimit = 100 << 20

    /// A log in `path`, made with its directory on the first call; nothing is opened before that.
    public convenience init(path: String, sizeLimit: Int = CallLog.defaultSizeLimit) {
        self.init(sizeLimit: sizeLimit) { path }
    }

    /// A log in the file `find` names when it is first needed.
    public init(sizeLimit: Int = CallLog.defaultSizeLimit, path find: @escaping @Sendable () -> String) {
        location = Mutex(.unresolved(find))
        self.sizeLimit = sizeLimit
    }

    /// `$XDG_STATE_HOME/wsh/calls.sqlite` for a state directory.
    public static func defaultPath(stateDirectory: String) -> String {
        stateDirectory + "/wsh/calls.sqlite"
    }

    /// Queues a call for the writer; returns at once unless the queue is full.
    public func record(_ entry: CallEntry, sizeLimit: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard !disabled, !closing else { return }
        while pending.count >= Self.maximumPending || pendingBytes >= Self.maximumPendingBytes, !disabled {
            hurried += 1
            condition.broadcast()
            condition.wait()
            hurried -= 1
        }
        self.sizeLimit = sizeLimit
        pending.append(entry)
        pendingBytes += entry.heldBytes
        if !writerStarted {
            writerStarted = true
            let thread = Thread { [self] in writeLoop() }
            thread.name = "wsh call history"
            thread.start()
        } else if writerIdle {
            condition.signal()
        }
    }

    /// Waits until every call queued so far is written (or could not be), for at most `seconds`;
    /// true when it was.
    @discardableResult
    public func flush(within seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        hurried += 1
        defer { hurried -= 1 }
        condition.broadcast()
        while !pending.isEmpty || writing {
            if !condition.wait(until: deadline) { return pending.isEmpty && !writing }
        }
        return true
    }

    /// At exit: writes what is queued, for at most `seconds`, then stops recording. Calls still
    /// queued then are said in a notice.
    public func finish(within seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        let done = flush(within: seconds)
        condition.lock()
        defer { condition.unlock() }
        closing = true
        if !done, !pending.isEmpty || writing {
            let count = pending.count + (writing ? 1 : 0)
            notices.append("\(count == 1 ? "a call was" : "calls were") not written to the call history \(path) in time")
        }
        condition.broadcast()
        while writerStarted, !writerDone {
            if !condition.wait(until: deadline) { break }
        }
    }

    /// Problems met since the last call, each kind said once in the process's life.
    public func takeNotices() -> [String] {
        condition.lock()
        defer { condition.unlock() }
        defer { notices.removeAll() }
        return notices
    }

    /// Says `message` once per `kind`; called with the lock held.
    private func notice(_ kind: String, _ message: String) {
        guard noticed.insert(kind).inserted else { return }
        notices.append(message)
    }

    // MARK: The writer's thread

    private func writeLoop() {
        condition.lock()
        while true {
            while pending.isEmpty, !closing {
                writerIdle = true
                condition.wait()
                writerIdle = false
            }
            if pending.isEmpty { break }
            // Let a few more calls come, so that one transaction writes many (not when anyone waits).
            if hurried == 0, !closing, pending.count < 256 {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.linger))
            }
            let batch = pending
            let limit = sizeLimit
            pending.removeAll(keepingCapacity: true)
            pendingBytes = 0
            writing = true
            condition.broadcast()
            condition.unlock()
            let problem = write(batch, sizeLimit: limit)
            condition.lock()
            writing = false
            if let problem { handle(problem, lost: batch.count) }
            condition.broadcast()
        }
        condition.unlock()
        // Closing the last connection folds the write-ahead log into the database file.
        writer = nil
        condition.lock()
        writerDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// Masks and writes one batch in one transaction; the failure, if any.
    private func write(_ batch: [CallEntry], sizeLimit: Int) -> CallStoreFailure? {
        let records = batch.map(CallRecord.init)
        do {
            if writer == nil { writer = try CallStore(writingTo: path) }
            try writer?.insert(records, sizeLimit: sizeLimit)
            return nil
        } catch {
            // A connection that failed is opened again for the next batch.
            writer = nil
            return CallStoreFailure.from(error)
        }
    }

    /// Called with the lock held.
    private func handle(_ problem: CallStoreFailure, lost: Int) {
        switch problem.kind {
        case .damaged:
            disabled = true
            pending.removeAll()
            pendingBytes = 0
            notice("damaged", "the call history \(path) is damaged (\(problem.detail)); calls are not recorded. "
                   + "Move the file aside and wsh starts a new one")
        case .locked:
            lockedCount += lost
            notice("locked", "the call history \(path) is locked by another program; "
                   + "\(lost == 1 ? "a call was" : "\(lost) calls were") not recorded")
        case .newer:
            disabled = true
            pending.removeAll()
            pendingBytes = 0
            notice("newer", "the call history \(path) was written by a newer wsh; calls are not recorded")
        case .other:
            notice("other", "cannot write the call history \(path): \(problem.detail); "
                   + "\(lost == 1 ? "a call was" : "\(lost) calls were") not recorded")
        }
    }

    // MARK: Reading

    /// The last `limit` calls, oldest first, or those whose target or URL contains `pattern`
    /// (without regard to case). Calls queued by this process are written first. Empty when
    /// there is no history yet.
    public func recent(_ limit: Int, matching pattern: String? = nil) throws(CallLogError) -> [CallSummary] {
        flush(within: 5)
        guard let store = try reader() else { return [] }
        do {
            return try store.recent(limit, matching: pattern)
        } catch {
            throw failure(CallStoreFailure.from(error))
        }
    }

    /// The call numbered `id`, or nil when the history has none.
    public func call(_ id: Int64) throws(CallLogError) -> StoredCall? {
        flush(within: 5)
        guard let store = try reader() else { return nil }
        do {
            return try store.call(id)
        } catch {
            throw failure(CallStoreFailure.from(error))
        }
    }

    /// A connection for reading, or nil when the file does not exist yet.
    private func reader() throws(CallLogError) -> CallStore? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try CallStore(readingFrom: path)
        } catch {
            throw failure(CallStoreFailure.from(error))
        }
    }

    private func failure(_ problem: CallStoreFailure) -> CallLogError {
        switch problem.kind {
        case .damaged:
            CallLogError(description: "cannot read the call history \(path): it is damaged (\(problem.detail))")
        case .locked:
            CallLogError(description: "the call history \(path) is locked by another program; try again")
        case .newer:
            CallLogError(description: "the call history \(path) was written by a newer wsh")
        case .other:
            CallLogError(description: "cannot read the call history \(path): \(problem.detail)")
        }
    }
}

/// Why the call history could not be read, in words for the user.
public struct CallLogError: Error, CustomStringConvertible {
    public var description: String
}
