import Foundation
import Synchronization

/// The call history: every call a shell makes, its secrets masked, in an SQLite database that
/// several wsh processes write at once (write-ahead log, a busy timeout of 5 s).
///
/// ``record(_:sizeLimit:)`` only queues the call. One writer thread of this log's own, started by
/// the first call, takes what is queued within ``gatheringTime`` of it, up to ``maximumBatch``
/// calls, masks them and writes them in one transaction; calls that come meanwhile make the next
/// batch. Nothing unmasked reaches the file, and the calls keep their order. ``flush(within:)`` (before
/// `history` reads) and ``finish(within:)`` (at exit) wait for the queue to be written, within
/// their bounds; a call that finds the queue full (10,000 calls or 64 MB of bodies) waits for
/// room. A `kill -9` loses at most the calls still queued. A database that is damaged, locked
/// past the timeout or cannot be written is said once (``takeNotices()``), in words for the
/// user, and the shell goes on.
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
    /// The condition's lock guards every `var` below but ``store``, which only the writer uses
    /// (and ``close(within:)`` once the writer has ended or never started).
    private let condition = NSCondition()
    /// Calls the writer has not taken yet, oldest first.
    private var pending: [QueuedCall] = []
    /// How many calls, and bytes of their bodies, are queued or being written.
    private var queuedCount = 0
    private var queuedBytes = 0
    /// The writer is masking and writing a batch.
    private var writing = false
    private var writerStarted = false
    private var writerDone = false
    /// Callers waiting for the queue to be written, or for room in it.
    private var waiters = 0
    private var closing = false
    /// The writer closes the database when it ends (``close(within:)``), else leaves it open.
    private var releaseStore = false
    /// After the database was found damaged, calls are no longer queued.
    private var disabled = false
    private var notices: [String] = []
    private var noticed: Set<String> = []
    private var sizeLimit: Int
    private var store: CallStore?

    /// How many calls, and how many bytes of their bodies, may wait for the database.
    static let maximumQueued = 10_000
    static let maximumQueuedBytes = 64 << 20
    /// The most calls one transaction writes.
    static let maximumBatch = 128
    /// How long the writer waits, after a call is queued, for more to write in the same transaction.
    static let gatheringTime: TimeInterval = 0.005

    /// The default size cap: 100 MB.
    public static let defaultSizeLimit = 100 << 20

    /// How long a write waits for another process's lock before the calls it holds are given up
    /// (and the lock is said once), in milliseconds.
    let busyTimeout: Int32

    /// A log in `path`, made with its directory on the first call; nothing is opened before that.
    public convenience init(path: String, sizeLimit: Int = CallLog.defaultSizeLimit, busyTimeout: Int32 = 5000) {
        self.init(sizeLimit: sizeLimit, busyTimeout: busyTimeout) { path }
    }

    /// A log in the file `find` names when it is first needed.
    public init(sizeLimit: Int = CallLog.defaultSizeLimit, busyTimeout: Int32 = 5000, path find: @escaping @Sendable () -> String) {
        location = Mutex(.unresolved(find))
        self.sizeLimit = sizeLimit
        self.busyTimeout = busyTimeout
    }

    /// `$XDG_STATE_HOME/wsh/calls.sqlite` for a state directory.
    public static func defaultPath(stateDirectory: String) -> String {
        stateDirectory + "/wsh/calls.sqlite"
    }

    /// Queues a call; returns at once unless the queue is full, when it waits for room.
    public func record(_ entry: consuming CallEntry, sizeLimit: Int) {
        let call = QueuedCall(entry)
        condition.lock()
        defer { condition.unlock() }
        guard !disabled, !closing else { return }
        if queuedCount >= Self.maximumQueued || queuedBytes >= Self.maximumQueuedBytes {
            waiters += 1
            condition.broadcast()
            while queuedCount >= Self.maximumQueued || queuedBytes >= Self.maximumQueuedBytes, !disabled, !closing {
                _ = wait(until: .distantFuture)
            }
            waiters -= 1
            guard !disabled, !closing else { return }
        }
        self.sizeLimit = sizeLimit
        pending.append(call)
        queuedCount += 1
        queuedBytes += call.heldBytes
        if !writerStarted {
            writerStarted = true
            let writer = Thread { [self] in writeLoop() }
            writer.name = "wsh history"
            writer.start()
        } else if pending.count == 1 || pending.count >= Self.maximumBatch {
            // The writer sleeps on an empty queue, or gathers until a batch is full: the calls
            // between come without waking it.
            condition.broadcast()
        }
    }

    /// Waits until every call queued so far is written (or could not be), for at most `seconds`;
    /// true when they were.
    @discardableResult
    public func flush(within seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return drain(until: Date(timeIntervalSinceNow: seconds))
    }

    /// At exit: waits for what is queued to be written, for at most `seconds`, then stops
    /// recording. Calls still queued then are said in a notice. The database is left open for
    /// the process's end: what is written is in its write-ahead log, which the next wsh to open it
    /// takes up, so exit waits for no checkpoint and the next start creates no new log.
    public func finish(within seconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        stop(until: Date(timeIntervalSinceNow: seconds))
    }

    /// Writes what is queued, for at most `seconds`, stops recording and closes the database,
    /// folding its write-ahead log into the file: for a program that goes on after its calls.
    public func close(within seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        stop(until: deadline)
        releaseStore = true
        condition.broadcast()
        while writerStarted, !writerDone {
            if !wait(until: deadline) { break }
        }
        if !writerStarted { store = nil }
    }

    /// Whether the writer is masking or writing a batch now (for tests that need a write under
    /// way). Never with the lock held: it takes it.
    var isCommitting: Bool {
        condition.lock()
        defer { condition.unlock() }
        return writing
    }

    /// Whether a caller waits for the queue to be written: a flush, or a call that found the queue
    /// full (for tests that need such a caller waiting). Never with the lock held: it takes it.
    var hasWaiter: Bool {
        condition.lock()
        defer { condition.unlock() }
        return waiters > 0
    }

    /// Waits on the condition until woken or until `date`; false when `date` has come. Foundation
    /// turns the date into nanoseconds since 1970, which traps for `.distantFuture` (the wait of a
    /// call that finds the queue full): a wait past a minute is made a minute at a time, each
    /// answering true, and every caller checks its condition again. Called with the lock held.
    private func wait(until date: Date) -> Bool {
        let step = Date(timeIntervalSinceNow: 60)
        guard date > step else { return condition.wait(until: date) }
        _ = condition.wait(until: step)
        return true
    }

    /// Waits until the queue is written, or `deadline`; true when it was. Called with the lock held.
    private func drain(until deadline: Date) -> Bool {
        waiters += 1
        defer { waiters -= 1 }
        // A writer gathering a batch writes it now.
        condition.broadcast()
        while queuedCount > 0, writerStarted, !writerDone {
            if !wait(until: deadline), Date() >= deadline { return queuedCount == 0 }
        }
        return queuedCount == 0
    }

    private func stop(until deadline: Date) {
        guard !closing else { return }
        let done = drain(until: deadline)
        closing = true
        if !done {
            let count = queuedCount
            notices.append("\(count == 1 ? "a call was" : "\(count) calls were") not written to the call history \(path) in time")
        }
        condition.broadcast()
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

    // MARK: The writer

    /// Takes what is queued, a batch at a time, masks it and writes it in one transaction.
    private func writeLoop() {
        condition.lock()
        while true {
            while pending.isEmpty, !closing { condition.wait() }
            // Calls that come within `gatheringTime` of the first share its transaction, unless
            // somebody waits for the write: with a transaction a call, the same pages were written
            // again for each, and on one core the writer took the shell's turn every time.
            let gathered = Date(timeIntervalSinceNow: Self.gatheringTime)
            while pending.count < Self.maximumBatch, waiters == 0, !closing, condition.wait(until: gathered) {}
            if closing { break }
            let batch = Array(pending.prefix(Self.maximumBatch))
            pending.removeFirst(batch.count)
            let limit = sizeLimit
            writing = true
            condition.unlock()
            let records = batch.map { CallRecord($0.entry) }
            var problem = open(busyTimeout: busyTimeout)
            if problem == nil { problem = insert(records, sizeLimit: limit) }
            store?.checkpointIfLarge()
            condition.lock()
            writing = false
            queuedCount -= batch.count
            queuedBytes -= batch.reduce(0) { $0 + $1.heldBytes }
            if let problem { handle(problem, lost: batch.count) }
            condition.broadcast()
        }
        // Ended by close(): closing the last connection folds the write-ahead log into the
        // database file. Ended by finish(): the process is ending, and the log stays for the next.
        while !releaseStore { condition.wait() }
        store = nil
        writerDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// Opens ``store`` when it is nil, else sets its busy timeout; the failure, if any.
    private func open(busyTimeout: Int32) -> CallStoreFailure? {
        do {
            if let store { store.setBusyTimeout(busyTimeout) } else { store = try CallStore(writingTo: path, busyTimeout: busyTimeout) }
            return nil
        } catch {
            return CallStoreFailure.from(error)
        }
    }

    /// Writes one batch in one transaction through ``store``; the failure, if any.
    private func insert(_ records: [CallRecord], sizeLimit: Int) -> CallStoreFailure? {
        do {
            try store?.insert(records, sizeLimit: sizeLimit)
            return nil
        } catch {
            // A connection that failed is opened again for the next batch.
            store = nil
            return CallStoreFailure.from(error)
        }
    }

    /// Forgets the calls not yet taken: the database will not take them. Called with the lock held.
    private func dropQueue() {
        queuedCount -= pending.count
        queuedBytes -= pending.reduce(0) { $0 + $1.heldBytes }
        pending.removeAll()
    }

    /// Called with the lock held.
    private func handle(_ problem: CallStoreFailure, lost: Int) {
        switch problem.kind {
        case .damaged:
            disabled = true
            dropQueue()
            notice("damaged", "the call history \(path) is damaged (\(problem.detail)); calls are not recorded. "
                   + "Move the file aside and wsh starts a new one")
        case .locked:
            notice("locked", "the call history \(path) is locked by another program; "
                   + "\(lost == 1 ? "a call was" : "\(lost) calls were") not recorded")
        case .newer:
            disabled = true
            dropQueue()
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
            return try CallStore(readingFrom: path, busyTimeout: busyTimeout)
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
